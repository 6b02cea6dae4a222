/**
 * A progress line on a terminal for a long single command: after a second, one line on stderr saying
 * how many pages have been read and how long the command has run, redrawn in place and cleared before
 * the result is printed. Nothing on a stream that is not a terminal (a pipe, a file, a served call) or
 * with --quiet, so output that is read by a program never holds it.
 */
import type { ReadProgress } from "../document/open.js";
import type { Output } from "./cli-io.js";

/** A stream that may be a terminal. */
export interface MaybeTerminal extends Output {
  isTTY?: boolean;
}

/** No line before the command has run this long: a quick call prints nothing. */
const SHOW_AFTER_MS = 1000;
/** How often the elapsed time is redrawn while no page arrives (OCR, the layout rules). */
const TICK_MS = 500;
const CLEAR = "\r\x1b[K";
/** Pages arrive faster than a person reads: the line is redrawn at most this often. */
const REDRAW_MS = 100;

export class ProgressLine {
  private read = 0;
  private of: number | undefined;
  private shown = false;
  private drawnAt = Number.NEGATIVE_INFINITY;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: MaybeTerminal,
    private readonly command: string,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.timer = setInterval(() => this.draw(), TICK_MS);
    this.timer.unref();
  }

  /** Pages extracted: counted, and the line redrawn. */
  pages(progress: ReadProgress): void {
    this.read += progress.pages;
    if (progress.of !== undefined) this.of = progress.of;
    this.draw();
  }

  /** Stops the line and clears it, so what the command prints next starts a clean line. */
  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.stream.write(CLEAR);
    this.shown = false;
  }

  /** The line as it reads now. */
  text(): string {
    const seconds = Math.floor((this.now() - this.started) / 1000);
    const pages = this.of !== undefined ? `${this.read} of ${this.of} pages read` : `${this.read} pages read`;
    return `citeproof ${this.command}: ${pages}, ${seconds} s`;
  }

  private draw(): void {
    const now = this.now();
    if (this.timer === undefined || now - this.started < SHOW_AFTER_MS || now - this.drawnAt < REDRAW_MS)
      return;
    this.stream.write(`${CLEAR}${this.text()}`);
    this.shown = true;
    this.drawnAt = now;
  }
}

/** A progress line when `stream` is a terminal and the person did not ask for quiet; else none. */
export function progressLineFor(
  stream: MaybeTerminal,
  command: string,
  quiet: boolean,
): ProgressLine | undefined {
  return stream.isTTY === true && !quiet ? new ProgressLine(stream, command) : undefined;
}
