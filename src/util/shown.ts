/** Values named in messages, cut short. */

/** At most this many characters of a value are shown in a message. */
const SHOWN_CHARS = 80;

/**
 * A value as a message shows it: its JSON, cut to SHOWN_CHARS. Only as much of it is walked as can be
 * shown, so a value nested 100,000 levels deep or holding millions of items costs nothing.
 */
export function shown(value: unknown): string {
  const text = shortJson(value, 0);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 3)}...` : text;
}

function shortJson(value: unknown, depth: number): string {
  const nested = typeof value === "object" && value !== null;
  if (nested && depth >= 8) return Array.isArray(value) ? "[...]" : "{...}";
  if (Array.isArray(value)) {
    const items = value.slice(0, 10).map((v) => shortJson(v, depth + 1));
    return `[${items.join(",")}${value.length > 10 ? ",..." : ""}]`;
  }
  if (nested) {
    const keys = Object.keys(value);
    const record = value as Record<string, unknown>;
    const members = keys.slice(0, 10).map((k) => `${JSON.stringify(k)}:${shortJson(record[k], depth + 1)}`);
    return `{${members.join(",")}${keys.length > 10 ? ",..." : ""}}`;
  }
  if (typeof value === "string" && value.length > SHOWN_CHARS)
    return `${JSON.stringify(value.slice(0, SHOWN_CHARS))}...`;
  return JSON.stringify(value) ?? String(value);
}
