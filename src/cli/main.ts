// The CLI under its ES module path, for callers that name dist/cli/main.js; the entry is main.cts.
import "./main.cjs";
