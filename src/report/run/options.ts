/** The options of a run report that callers name (kept apart so schemas need not load the renderer). */
export const RUN_REPORT_FORMATS = ["md", "html", "both"] as const;
export type RunReportFormat = (typeof RUN_REPORT_FORMATS)[number];

/** Most crops drawn in the HTML report when the caller names no limit. */
export const DEFAULT_MAX_CROPS = 200;
