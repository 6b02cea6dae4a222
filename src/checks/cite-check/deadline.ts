/** One deadline for a whole check: fetching, extraction and OCR all draw on it. */
export class Deadline {
  readonly endsAt: number;

  constructor(readonly totalMs: number) {
    this.endsAt = Date.now() + totalMs;
  }

  /** Milliseconds left; never below zero. */
  remaining(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  expired(): boolean {
    return this.remaining() === 0;
  }
}
