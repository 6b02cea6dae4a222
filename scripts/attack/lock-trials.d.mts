export interface LockTrials {
  trials: number;
  entries: number;
  lost: number;
  overlaps: number;
  errors: number;
  hangs: number;
  /** What went wrong, when anything did: a waiter's error code or how it exited. */
  failures?: string[];
}
export function runLockTrials(options: {
  trials: number;
  waiters: number;
  seed?: number;
  /** A waiter's lock timeout; a trial not over 10 s after it is a hang. */
  hangMs?: number;
}): Promise<LockTrials>;
