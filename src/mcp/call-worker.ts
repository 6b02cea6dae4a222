/**
 * A call pool's worker (call-pool.ts): runs the tool calls it is handed, one at a time, as the server's
 * thread would, and sends back the answer without its structured content (the text is its JSON).
 */
import { parentPort, threadId } from "node:worker_threads";
import type { PooledAnswer, PooledTask } from "./call-pool.js";
import { callTool } from "./server.js";

parentPort?.on("message", async (task: PooledTask) => {
  const { structuredContent, ...result } = await callTool(task.name, task.args, task.env);
  const answer: PooledAnswer = { result, structured: structuredContent !== undefined, threadId };
  parentPort?.postMessage(answer);
});
