// Child process for one sub-bench: imports scripts/bench/<name>.mjs, calls its `run(context)`, and
// writes the returned lines as JSON to a file, so a sub-bench that crashes, leaks or calls
// process.exit cannot take the harness with it.
// Usage: node sub-bench.mjs <module path> <context json path> <result json path>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, contextPath, resultPath] = process.argv.slice(2);
const write = (value) => writeFileSync(resultPath, JSON.stringify(value));
try {
  const mod = await import(pathToFileURL(modulePath).href);
  if (typeof mod.run !== "function") {
    write({ skipped: true });
  } else {
    const context = JSON.parse(readFileSync(contextPath, "utf8"));
    const returned = await mod.run(context);
    const lines = Array.isArray(returned) ? returned.map(String) : String(returned ?? "").split("\n");
    write({ lines });
  }
} catch (error) {
  write({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}
