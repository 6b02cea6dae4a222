/**
 * Where calls run. Everything a call prints and its exit code are its own (its Io), but the paths it
 * was given are relative to its caller's working directory, which is the process's: the calls of the
 * directory the process is in run side by side; a call from another waits until those in flight end,
 * then the process moves there and that directory's waiting calls run. Calls are taken in the order
 * they came: while one waits, a new call of the current directory waits behind it.
 */
export class Lanes {
  private running = 0;
  private readonly waiting: { cwd: string; start: () => void }[] = [];

  constructor(
    private readonly where: () => string = () => process.cwd(),
    private readonly move: (dir: string) => void = (dir) => process.chdir(dir),
  ) {}

  /** Runs `body` in `cwd` (as the process's working directory), beside the calls of the same one. */
  run<T>(cwd: string, body: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        body()
          .then(resolve, reject)
          .finally(() => this.ended());
      };
      if (this.running === 0 && this.waiting.length === 0) {
        try {
          if (this.where() !== cwd) this.move(cwd);
        } catch (error) {
          reject(error);
          return;
        }
        start();
      } else if (this.waiting.length === 0 && this.where() === cwd) start();
      else this.waiting.push({ cwd, start });
    });
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.running;
  }

  private ended(): void {
    if (--this.running > 0 || this.waiting.length === 0) return;
    // The first waiting call's directory is the next lane; the others of that directory join it.
    const next = this.waiting[0].cwd;
    const lane = this.waiting.filter((w) => w.cwd === next);
    this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => w.cwd !== next));
    try {
      this.move(next);
    } catch {
      // A directory gone since: each call of the lane fails on its own paths.
    }
    for (const w of lane) w.start();
  }
}
