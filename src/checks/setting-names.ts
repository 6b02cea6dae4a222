/**
 * The settings a result's message tells its reader to change are named by their fields (`timeout_ms`,
 * `ocr`), as the library and the operations know them; each interface names them its own way (the
 * CLI `--timeout-ms`, a tool its argument) by passing what it prints through `nameSettings`.
 */

/** The deadline's field: a deadline result tells to lengthen it. */
export const DEADLINE_SETTING = "timeout_ms";
/** The OCR mode's field: a page whose words are an image tells to set it. */
export const OCR_SETTING = "ocr";

/** The advice that ends a deadline result's message. */
export function tryLonger(longerMs: number, setting = DEADLINE_SETTING): string {
  return `try ${setting} ${longerMs}`;
}

/** What a FLAG no-text-layer suggests before OCR has run; a result OCR has read drops it. */
export function ocrAdvice(setting = OCR_SETTING): string {
  return `OCR it (${setting} auto) or `;
}

const DEADLINE_ADVICE = new RegExp(`${tryLonger(0).replace(/0$/, "")}(\\d+)$`);

/** A result's message with its settings named by `name` (given the field, the interface's own name). */
function named(message: string, reason: string, name: (setting: string) => string): string {
  let out = message;
  if (reason === "deadline")
    out = out.replace(DEADLINE_ADVICE, (_, ms) => tryLonger(Number(ms), name(DEADLINE_SETTING)));
  if (out.includes(ocrAdvice())) out = out.replace(ocrAdvice(), ocrAdvice(name(OCR_SETTING)));
  return out;
}

/**
 * `value` (a result, a report, any document holding results) with each result's message naming its
 * settings as `name` gives them. What changes is copied; what does not is the same object.
 */
export function nameSettings<T>(value: T, name: (setting: string) => string): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = nameSettings(value[i], name);
      if (item !== value[i]) {
        out ??= value.slice();
        out[i] = item;
      }
    }
    return (out ?? value) as T;
  }
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    const next =
      key === "message" && typeof item === "string" && typeof record.reason === "string"
        ? named(item, record.reason, name)
        : nameSettings(item, name);
    if (next !== item) {
      out ??= { ...record };
      out[key] = next;
    }
  }
  return (out ?? value) as T;
}
