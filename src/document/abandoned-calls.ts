/**
 * Stopping work nobody waits for. A server's call whose client went away goes on until its own
 * deadline; while every running call is such a one, the process's engine is closed (their extraction
 * fails at once and they end), and closed again while that lasts: a call that had not yet begun its
 * extraction when its client left would otherwise start a fresh engine and run to its end. A call
 * whose client is still there keeps the engine.
 */
import { closeEngine } from "./engine-client.js";

/** How often the engine is closed again while only abandoned calls run. */
export const STOP_AGAIN_MS = 50;

export interface TrackedCall {
  /** Its client went away: nobody waits for its answer. */
  abandon(): void;
  /** It has ended (its work too). */
  end(): void;
}

export class AbandonedCalls {
  private readonly calls = new Set<{ gone: boolean }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly stop: () => Promise<void> = closeEngine) {}

  /** Tracks a call from its start to its end. */
  begin(): TrackedCall {
    const call = { gone: false };
    this.calls.add(call);
    return {
      abandon: () => {
        call.gone = true;
        if (this.allGone()) this.stopWork();
      },
      end: () => {
        this.calls.delete(call);
      },
    };
  }

  /** Whether calls run and none of them has a client. */
  allGone(): boolean {
    if (this.calls.size === 0) return false;
    for (const call of this.calls) if (!call.gone) return false;
    return true;
  }

  private stopWork(): void {
    void this.stop();
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.allGone()) void this.stop();
      else {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, STOP_AGAIN_MS);
    this.timer.unref();
  }
}
