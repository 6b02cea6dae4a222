/** A call pool's worker: runs the tool calls it is handed, one at a time, as the server's thread would. */
import { threadId } from "node:worker_threads";
import type { PooledAnswer, PooledTask } from "./call-pool.js";
import { callTool } from "./server.js";

export default async function runCall(task: PooledTask): Promise<PooledAnswer> {
  return { result: await callTool(task.name, task.args, task.env), threadId };
}
