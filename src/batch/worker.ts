/** The pool's worker: runs the jobs it is handed, one at a time, with this thread's document engine. */
import type { Job } from "./job.js";
import { type BatchEnv, type ResultLine, runJob } from "./run-job.js";

export default function runTask(task: { job: Job; env: BatchEnv }): Promise<ResultLine> {
  return runJob(task.job, task.env);
}
