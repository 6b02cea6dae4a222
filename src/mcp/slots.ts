/** At most `size` holders at once; others wait in order, each for a bounded time. */
export class Slots {
  #free: number;
  readonly #waiting: { grant: () => void }[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** A release function, or undefined when no slot came free within `waitMs`. */
  acquire(waitMs: number): Promise<(() => void) | undefined> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.#releaser());
        },
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        resolve(undefined);
      }, waitMs);
      this.#waiting.push(waiter);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#free++;
    };
  }
}
