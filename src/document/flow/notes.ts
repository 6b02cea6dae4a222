/**
 * Notes kept apart from the body: a reader collects them as their references come and appends them
 * after the body, footnotes first and then endnotes, each in reference order, every paragraph a `note`
 * block in region `footnote` under the heading its reference stands under.
 */
import type { FlowBuilder } from "./builder.js";
import { withoutInvisible } from "./invisible.js";

export interface PendingNote<T> {
  kind: "footnote" | "endnote";
  /** The heading current where the note is referenced. */
  heading: number;
  note: T;
}

export function appendNotes<T>(
  builder: FlowBuilder,
  notes: PendingNote<T>[],
  paragraphs: (note: T) => string[],
): void {
  for (const kind of ["footnote", "endnote"] as const)
    for (const pending of notes)
      if (pending.kind === kind)
        for (const text of paragraphs(pending.note))
          builder.block("note", withoutInvisible(text), { region: "footnote", heading: pending.heading });
}
