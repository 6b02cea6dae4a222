/**
 * A deadline in wall-clock time for work that must stop once its time is up. `now` is the clock
 * (milliseconds), Date.now unless a caller brings its own.
 */
export class Deadline {
  readonly endsAt: number;

  constructor(
    readonly totalMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.endsAt = now() + totalMs;
  }

  /** Milliseconds left; never below zero. */
  remaining(): number {
    return Math.max(0, this.endsAt - this.now());
  }

  expired(): boolean {
    return this.remaining() === 0;
  }
}
