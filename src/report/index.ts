export {
  buildReport,
  type Crop,
  DEFAULT_REPORT_DPI,
  type Report,
  type ReportOptions,
  type ReportSection,
} from "./build.js";
export { escapeHtml } from "./escape.js";
export { renderReportHtml } from "./html.js";
export { type Place, placesFor } from "./places.js";
export { writeOutputAtomic } from "./write.js";
