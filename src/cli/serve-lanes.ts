/**
 * Where `serve` runs its calls. Everything a call prints and its exit code are its own (its Io), but
 * the paths it was given are relative to its caller's working directory, which is the process's: the
 * calls of the directory the process is in run side by side, up to `maxInFlight` at once; a call from
 * another directory waits until those in flight end, then the process moves there and that
 * directory's waiting calls run. Calls are taken in the order they came: while one waits, a new call
 * of the current directory waits behind it.
 */

/**
 * `serve`'s calls run at once, at most: more wait their turn (each up to its own deadline). A call's
 * CPU is mostly the engine worker's and the checks', which the process shares.
 */
export const MAX_CALLS_IN_FLIGHT = 4;

/** A waiting call that was let go (`cancelWaiting`) before it started. */
export class NotStarted extends Error {}

interface Waiting {
  cwd: string;
  start: () => void;
  cancel: (error: unknown) => void;
}

export class Lanes {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly maxInFlight: number = Number.POSITIVE_INFINITY,
    private readonly where: () => string = () => process.cwd(),
    private readonly move: (dir: string) => void = (dir) => process.chdir(dir),
  ) {}

  /** Whether a call of `cwd` sent now would wait for others. */
  wouldWait(cwd: string): boolean {
    if (this.running === 0 && this.waiting.length === 0) return false;
    return this.waiting.length > 0 || this.where() !== cwd || this.running >= this.maxInFlight;
  }

  /**
   * Runs `body` in `cwd` (as the process's working directory), beside the calls of the same one. It
   * rejects with NotStarted when let go before it started, with the error of a directory it cannot enter.
   */
  run<T>(cwd: string, body: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        body()
          .then(resolve, reject)
          .finally(() => this.ended());
      };
      if (!this.wouldWait(cwd)) {
        if (this.running === 0 && this.where() !== cwd) {
          try {
            this.move(cwd);
          } catch (error) {
            reject(error);
            return;
          }
        }
        start();
      } else this.waiting.push({ cwd, start, cancel: reject });
    });
  }

  /** Lets every waiting call go (each rejects with NotStarted). */
  cancelWaiting(): void {
    for (const w of this.waiting.splice(0)) w.cancel(new NotStarted());
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.running;
  }

  private ended(): void {
    this.running--;
    while (this.waiting.length > 0) {
      const next = this.waiting[0].cwd;
      if (next !== this.where()) {
        if (this.running > 0) return;
        try {
          this.move(next);
        } catch (error) {
          // A directory gone since: each of its calls fails on it, and the next lane is tried.
          for (const w of this.take(next, Number.POSITIVE_INFINITY)) w.cancel(error);
          continue;
        }
      }
      // The directory's waiting calls join, in order, up to the limit.
      for (const w of this.take(next, this.maxInFlight - this.running)) w.start();
      return;
    }
  }

  /** Takes up to `n` waiting calls of `cwd` out of the queue, in order. */
  private take(cwd: string, n: number): Waiting[] {
    const taken: Waiting[] = [];
    for (let i = 0; i < this.waiting.length && taken.length < n; )
      if (this.waiting[i].cwd === cwd) taken.push(...this.waiting.splice(i, 1));
      else i++;
    return taken;
  }
}
