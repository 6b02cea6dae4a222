/**
 * What differs between a quotation and the page's passage, as runs of words (or characters): the
 * alignment with the fewest edits, read as "page has X where the quotation has Y", "the quotation
 * drops X" (the page has words the quotation leaves out) and "the quotation adds Y".
 */

export interface Difference {
  /** What the page has here (empty when the quotation adds something). */
  page: string;
  /** What the quotation has here (empty when it drops something). */
  quotation: string;
}

export type AlignOp =
  | { kind: "same" | "changed"; a: number; b: number }
  | { kind: "only-a"; a: number }
  | {
      kind: "only-b";
      b: number;
    };

export interface Alignment {
  ops: AlignOp[];
  /** Number of items of `a` matched exactly. */
  same: number;
  /** Edits: changes, and items of either side alone, not counting `b`'s free ends. */
  edits: number;
}

/**
 * Aligns all of `a` (the quotation, n items) with a stretch of `b` (the page, m items), whose
 * leading and trailing items are skipped at no cost, by the fewest changes, insertions and deletions.
 * `equal(i, j)` says whether a[i] and b[j] are the same.
 */
export function alignWithin(n: number, m: number, equal: (i: number, j: number) => boolean): Alignment {
  const width = m + 1;
  const cost = new Int32Array((n + 1) * width);
  // 0 diagonal, 1 up (a alone), 2 left (b alone)
  const move = new Uint8Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    cost[i * width] = i;
    move[i * width] = 1;
  }
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const at = i * width + j;
      const diagonal = cost[at - width - 1] + (equal(i - 1, j - 1) ? 0 : 1);
      const up = cost[at - width] + 1;
      // b's trailing items are free once all of a is placed (the last row).
      const left = cost[at - 1] + (i === n ? 0 : 1);
      let best = diagonal;
      let how = 0;
      if (up < best) {
        best = up;
        how = 1;
      }
      if (left < best) {
        best = left;
        how = 2;
      }
      cost[at] = best;
      move[at] = how;
    }
  }
  const ops: AlignOp[] = [];
  let i = n;
  let j = m;
  let same = 0;
  while (i > 0) {
    const how = j === 0 ? 1 : move[i * width + j];
    if (how === 0) {
      const isSame = equal(i - 1, j - 1);
      if (isSame) same++;
      ops.push({ kind: isSame ? "same" : "changed", a: i - 1, b: j - 1 });
      i--;
      j--;
    } else if (how === 1) {
      ops.push({ kind: "only-a", a: i - 1 });
      i--;
    } else {
      if (i < n) ops.push({ kind: "only-b", b: j - 1 });
      j--;
    }
  }
  ops.reverse();
  // b's leading and trailing items that were skipped for free are not part of the alignment.
  while (ops.length > 0 && ops[ops.length - 1].kind === "only-b") ops.pop();
  return { ops, same, edits: ops.filter((op) => op.kind !== "same").length };
}

/** The alignment's edits grouped into runs, each shown with the two sides' own spellings. */
export function differencesOf(
  alignment: Alignment,
  showA: (from: number, to: number) => string,
  showB: (from: number, to: number) => string,
): Difference[] {
  const out: Difference[] = [];
  let run: { a: number[]; b: number[] } | undefined;
  const flush = () => {
    if (!run) return;
    const quotation = run.a.length > 0 ? showA(run.a[0], run.a[run.a.length - 1] + 1) : "";
    const page = run.b.length > 0 ? showB(run.b[0], run.b[run.b.length - 1] + 1) : "";
    out.push({ page, quotation });
    run = undefined;
  };
  for (const op of alignment.ops) {
    if (op.kind === "same") {
      flush();
      continue;
    }
    run ??= { a: [], b: [] };
    if (op.kind !== "only-b") run.a.push(op.a);
    if (op.kind !== "only-a") run.b.push(op.b);
  }
  flush();
  return out;
}

/**
 * One difference in words: "page has `14%` where the quotation has `41%`", "the quotation drops `not`";
 * `holder` names what was read ("page", or "source" for a source without pages).
 */
export function describeDifference(d: Difference, holder = "page"): string {
  if (d.quotation === "") return `the quotation drops \`${d.page}\``;
  if (d.page === "") return `the quotation adds \`${d.quotation}\``;
  return `${holder} has \`${d.page}\` where the quotation has \`${d.quotation}\``;
}

/** The differences in words, the first `limit` of them, then how many more. */
export function describeDifferences(differences: readonly Difference[], limit = 4, holder = "page"): string {
  const shown = differences.slice(0, limit).map((d) => describeDifference(d, holder));
  const more = differences.length - shown.length;
  return more > 0 ? `${shown.join("; ")}; and ${more} more` : shown.join("; ");
}
