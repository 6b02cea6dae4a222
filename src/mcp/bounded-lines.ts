/**
 * The MCP server's input, one JSON-RPC message a line, held to a limit: a line longer than the limit
 * is dropped as it streams in (never held whole) and reported through `onOversize`, so one oversized
 * message neither ends the server nor costs more memory than the limit. Lines within the limit pass
 * on whole, one per chunk.
 */
import { Transform } from "node:stream";

/** The longest message the server reads, in bytes of UTF-8 (the newline not counted). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** What is known of a dropped line: its length and, when its end shows it, the request id. */
export interface DroppedLine {
  bytes: number;
  id: number | string | null;
}

const NEWLINE = 0x0a;
/** How much of a dropped line's end is kept to find its id. */
const TAIL_BYTES = 256;

export function boundedLines(maxBytes: number, onOversize: (line: DroppedLine) => void): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let dropping = false;
  let dropped = 0;
  let tail = Buffer.alloc(0);
  const drop = () => {
    onOversize({ bytes: dropped, id: requestId(tail) });
    dropping = false;
    dropped = 0;
    tail = Buffer.alloc(0);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let start = 0; start < chunk.length; ) {
        const nl = chunk.indexOf(NEWLINE, start);
        const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
        if (!dropping && heldBytes + piece.length > maxBytes) {
          dropping = true;
          dropped = heldBytes;
          tail = Buffer.concat(held).subarray(-TAIL_BYTES);
          held = [];
          heldBytes = 0;
        }
        if (dropping) {
          dropped += piece.length;
          tail = Buffer.concat([tail, piece]).subarray(-TAIL_BYTES);
        } else {
          held.push(piece);
          heldBytes += piece.length;
        }
        if (nl === -1) break;
        if (dropping) drop();
        else {
          held.push(Buffer.from([NEWLINE]));
          this.push(Buffer.concat(held));
          held = [];
          heldBytes = 0;
        }
        start = nl + 1;
      }
      done();
    },
    flush(done) {
      if (dropping) drop();
      else if (heldBytes > 0) this.push(Buffer.concat(held));
      done();
    },
  });
}

/**
 * The id of a request whose line was dropped, when the line ends with it as the last member of the
 * outermost object (how JSON-RPC clients such as the MCP SDK write a request: `..., "id": 7}`).
 */
function requestId(tail: Buffer): number | string | null {
  const m = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,100}")\s*\}\s*\r?$/.exec(tail.toString("utf8"));
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as number | string;
  } catch {
    return null;
  }
}
