/**
 * Equations numbered in a table row, as Word and Writer theses set them: the equation in one cell, its
 * number alone in the last cell that has text (`| | E = mc² | (1) |`). The number labels the
 * equation's cell.
 */
import type { FlowBuilder } from "./builder.js";
import { equationNumber } from "./caption-label.js";

export interface RowCell {
  text: string;
  hasEquation: boolean;
  /** The cell's block index, or -1 when it was empty. */
  block: number;
}

export function labelEquationRow(builder: FlowBuilder, cells: RowCell[]): void {
  const equation = cells.find((c) => c.hasEquation && c.block >= 0);
  const last = cells.filter((c) => c.text.trim() !== "").at(-1);
  const label = last === undefined || last === equation ? undefined : equationNumber(last.text);
  if (equation !== undefined && label !== undefined) builder.label("equation", label, equation.block);
}
