/**
 * What marks content as mathematics: the fonts TeX and word processors set formulas in, and the
 * characters only formulas use.
 */

// Base names (subset prefix removed) of math fonts: Computer Modern and AMS math, their Latin Modern,
// TeX Gyre, txfonts/newtx, pxfonts, Libertine, MnSymbol and stmaryrd cousins, and OpenType math fonts.
const MATH_FONT =
  /^(?:CMMI|CMBSY|CMSY|CMEX|CMMIB|MSBM|MSAM|EUFM|EUFB|EURM|EURB|EUSM|EUSB|EUEX|RSFS|LASY|WASY|STMARY|ESINT|BBM|DSROM|LMMATH|LMMI|LMSY|LMEX|TXMI|TXSY|TXEX|RTXMI|NTXMI|NTXSY|ZXMI|PXMI|PXSY|PXEX|MNSYMBOL|MTMI|MTSY|MTEX|EUCLID|MTEXTRA|MT-EXTRA|SYMBOL)|MATH|STIX|XITS/i;

const fontCache = new Map<string, boolean>();

export function isMathFont(name: string): boolean {
  let known = fontCache.get(name);
  if (known === undefined) {
    const base = name.replace(/^[A-Z]{6}\+/, "").replace(/[\s_]/g, "");
    known = MATH_FONT.test(base);
    fontCache.set(name, known);
  }
  return known;
}

/**
 * Characters that occur in formulas and hardly in prose: mathematical operators and symbols, Greek
 * letters, arrows, mathematical alphanumerics. ASCII '-' and '/' are left out (prose uses them).
 */
export function isMathChar(code: number): boolean {
  if (code === 0x3d || code === 0x2b || code === 0x3c || code === 0x3e || code === 0x7c) return true; // = + < > |
  if (code === 0xb1 || code === 0xd7 || code === 0xf7 || code === 0xac) return true; // ± × ÷ ¬
  if (code >= 0x391 && code <= 0x3c9) return true; // Greek
  if (code === 0x3d1 || code === 0x3d5 || code === 0x3d6 || code === 0x3f5) return true; // ϑ ϕ ϖ ϵ
  if (code === 0x2212) return true; // minus sign
  if (code >= 0x2190 && code <= 0x21ff) return true; // arrows
  if (code >= 0x2200 && code <= 0x22ff) return true; // mathematical operators
  if (code >= 0x27c0 && code <= 0x27ef) return true; // misc mathematical symbols A
  if (code >= 0x2980 && code <= 0x2aff) return true; // misc mathematical symbols B, supplemental operators
  if (code >= 0x1d400 && code <= 0x1d7ff) return true; // mathematical alphanumerics
  return false;
}
