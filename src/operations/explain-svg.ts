/**
 * `crop --explain`'s picture: an SVG that holds the rendered PNG as its background and draws the
 * overlay of equation-label and caption candidates (equation-overlay.ts) over it as vector boxes and text, so a browser shows
 * the tags at any zoom without a font of our own.
 */
import type { Overlay } from "../layout/equation-overlay.js";

// Frames are shared by the candidates of a column, so they are drawn in one neutral colour.
const STYLE = [
  "rect{fill:none;stroke-width:1.5}",
  "rect.accepted{stroke:#1a9e3a}",
  "rect.rejected{stroke:#d62728}",
  "rect.display,rect.block{stroke-dasharray:3 2}",
  "rect.figure{stroke-width:1;stroke-dasharray:10 3}",
  "rect.caption{stroke-width:2.5}",
  "rect.frame{stroke:#1f77b4;stroke-width:1;stroke-dasharray:8 4;stroke-opacity:.7}",
  "text{font:bold 11px sans-serif;stroke:#fff;stroke-width:3px;paint-order:stroke;stroke-linejoin:round}",
  "text.accepted{fill:#1a9e3a}",
  "text.rejected{fill:#d62728}",
  "text.frame{fill:#1f77b4}",
].join("");

/** What the colours and dashes mean, written at the image's top-left corner. */
const LEGEND = [
  ["accepted", "accepted label (dotted: its display)"],
  ["rejected", "rejected candidate: the predicates that refused it (dotted: content read)"],
  ["frame", "column frame"],
  ["frame", "caption: thick its Figure N, dotted its block, long dashes its figure"],
] as const;

export function explainSvg(overlay: Overlay, png: Uint8Array): string {
  const { widthPx: w, heightPx: h } = overlay;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<style>${STYLE}</style>`,
    `<image width="${w}" height="${h}" xlink:href="data:image/png;base64,${Buffer.from(png).toString("base64")}"/>`,
  ];
  for (const r of overlay.rects)
    out.push(
      `<rect class="${r.role} ${r.class}" data-candidate="${r.candidate}" x="${px(r.x)}" y="${px(r.y)}" width="${px(r.width)}" height="${px(r.height)}"/>`,
    );
  for (const t of overlay.tags)
    out.push(
      `<text class="${t.class}" data-candidate="${t.candidate}" x="${px(t.x)}" y="${px(t.y)}" text-anchor="${t.anchor}">${escapeXml(t.text)}</text>`,
    );
  LEGEND.forEach(([cls, words], i) => {
    out.push(`<text class="${cls} legend" x="4" y="${14 + 13 * i}">${words}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

const px = (v: number) => String(Math.round(v * 10) / 10);

/** Escapes markup, and drops what XML cannot hold (control characters, lone surrogates). */
function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu, "")
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
