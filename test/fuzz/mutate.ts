// Seeded mutations of PDF bytes for the fuzz test: byte flips, truncation, chunk duplication,
// cross-reference damage, wrong stream lengths and spliced garbage.

export type Rng = () => number;

/** mulberry32: a small, fast, seeded PRNG giving floats in [0, 1). */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng: Rng, n: number) => Math.floor(rng() * n);

export const MUTATIONS = ["flip", "truncate", "duplicate", "xref", "length", "splice"] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** A position biased toward the places a reader parses first: the header and the trailer. */
function position(rng: Rng, length: number): number {
  const r = rng();
  if (r < 0.25) return int(rng, Math.min(length, 1024));
  if (r < 0.5) return Math.max(0, length - 1 - int(rng, Math.min(length, 4096)));
  return int(rng, length);
}

function lastIndexOf(bytes: Uint8Array, needle: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(
    Buffer.from(needle, "latin1"),
  );
}

function randomDigits(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => String(int(rng, 10))).join("");
}

function replaceAll(bytes: Uint8Array, pattern: RegExp, replace: (m: string) => string): Uint8Array {
  const text = Buffer.from(bytes).toString("latin1").replace(pattern, replace);
  return new Uint8Array(Buffer.from(text, "latin1"));
}

const GARBAGE = [
  "<<<<<<<<",
  "[[[[[[[[[[[[",
  "((((((((",
  "9999999999 0 obj",
  "endobj endstream",
  "%%EOF",
  "/Type /Page",
  "R R R R",
];

export function mutate(input: Uint8Array, kind: Mutation, rng: Rng): Uint8Array {
  const bytes = new Uint8Array(input);
  const n = bytes.length;
  switch (kind) {
    case "flip": {
      const flips = 1 + int(rng, 24);
      for (let k = 0; k < flips; k++) bytes[position(rng, n)] ^= 1 + int(rng, 255);
      return bytes;
    }
    case "truncate": {
      const r = rng();
      const cut = r < 0.15 ? int(rng, 1200) : r < 0.5 ? n - 1 - int(rng, Math.min(n - 1, 8192)) : int(rng, n);
      return bytes.slice(0, cut);
    }
    case "duplicate": {
      const len = 1 + int(rng, Math.min(n, 1 + int(rng, 8192)));
      const from = int(rng, n - len + 1);
      const at = position(rng, n);
      const out = new Uint8Array(n + len);
      out.set(bytes.subarray(0, at), 0);
      out.set(bytes.subarray(from, from + len), at);
      out.set(bytes.subarray(at), at + len);
      return out;
    }
    case "xref": {
      const r = rng();
      const startxref = lastIndexOf(bytes, "startxref");
      if (r < 0.3 && startxref >= 0) {
        // Point startxref somewhere else.
        return replaceAll(
          bytes,
          /startxref\s+\d+/g,
          () => `startxref\n${randomDigits(rng, 1 + int(rng, 7))}`,
        );
      }
      if (r < 0.6 && startxref >= 0) {
        // Overwrite the cross-reference section (table or stream) it points to.
        const m = /startxref\s+(\d+)/.exec(Buffer.from(bytes.subarray(startxref)).toString("latin1"));
        const at = m ? Math.min(Number(m[1]), n - 1) : startxref;
        const span = 8 + int(rng, 256);
        for (let k = at; k < Math.min(n, at + span); k++) bytes[k] = int(rng, 256);
        return bytes;
      }
      if (r < 0.8) {
        // Drop the trailer and startxref: the reader must rebuild or refuse.
        const cut = startxref >= 0 ? startxref : n;
        return bytes.slice(0, Math.max(0, cut - int(rng, 64)));
      }
      // Break references the trailer relies on.
      return replaceAll(bytes, /\/(Root|Prev|Size|Info|Pages|Parent)\s+\d+/g, (s) =>
        rng() < 0.5 ? s.replace(/\d+$/, randomDigits(rng, 1 + int(rng, 6))) : s,
      );
    }
    case "length":
      return replaceAll(bytes, /\/Length\s+\d+/g, (s) => {
        if (rng() < 0.4) return s;
        const choices = ["0", "1", randomDigits(rng, 3), randomDigits(rng, 9), "99999999999"];
        return `/Length ${choices[int(rng, choices.length)]}`;
      });
    case "splice": {
      const piece = Buffer.from(
        rng() < 0.5 ? GARBAGE[int(rng, GARBAGE.length)].repeat(1 + int(rng, 200)) : randomDigits(rng, 64),
        "latin1",
      );
      const at = position(rng, n);
      const remove = rng() < 0.5 ? int(rng, Math.min(256, n - at)) : 0;
      const out = new Uint8Array(n - remove + piece.length);
      out.set(bytes.subarray(0, at), 0);
      out.set(piece, at);
      out.set(bytes.subarray(at + remove), at + piece.length);
      return out;
    }
  }
}
