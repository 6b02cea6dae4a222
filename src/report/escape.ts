/** HTML escaping for text and attribute values: everything from the PDF or the evidence goes through it. */
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: unknown): string {
  return (
    String(value)
      .replace(/[&<>"']/g, (c) => ENTITIES[c])
      // Control characters (a PDF's text may carry them) are not allowed in HTML text.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "\uFFFD")
  );
}
