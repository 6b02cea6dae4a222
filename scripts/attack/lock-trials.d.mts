export interface LockTrials {
  trials: number;
  entries: number;
  lost: number;
  overlaps: number;
  errors: number;
  hangs: number;
}
export function runLockTrials(options: {
  trials: number;
  waiters: number;
  seed?: number;
}): Promise<LockTrials>;
