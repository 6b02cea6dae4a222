// The path race: a folder inside the root and a symlink to a folder outside it trade places in a
// loop (renameat2 RENAME_EXCHANGE through exchange-swap.py, or a symlink renamed over the name when
// that is not available) while every path-taking operation reads a PDF under that folder. An escape
// is any answer made from the outside PDF's bytes.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function startSwapper(root, inner, outside) {
  const decoy = join(root, "decoy");
  symlinkSync(outside, decoy);
  const exchange = spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0;
  const child = exchange
    ? spawn("python3", [here("./exchange-swap.py"), inner, decoy], { stdio: ["ignore", "pipe", "ignore"] })
    : spawn(process.execPath, [here("./path-swap.mjs"), root, "docs", inner, outside], {
        stdio: ["ignore", "pipe", "ignore"],
      });
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`swapper exited ${code}`)));
  });
  return { child, method: exchange ? "renameat2" : "symlink rename" };
}

/** The pi extension's tools by name, each called as pi calls it, in a session whose cwd is `cwd`. */
async function piToolsFor() {
  const { default: extension } = await import(dist("pi/extension.js"));
  const tools = new Map();
  extension({ registerTool: (t) => tools.set(t.name, t), registerCommand: () => {} });
  const calls = new Map();
  for (const [name, t] of tools) {
    calls.set(name, (args, cwd) => t.execute("race", args, undefined, undefined, { cwd }));
  }
  return calls;
}

export async function pathRaceAttack(dir, { calls, toolEvery = 10 }) {
  const { readAdmittedPdf } = await import(dist("source/allowed-root.js"));
  const { createRun } = await import(dist("evidence/run.js"));
  const { localSource } = await import(dist("evidence/sources.js"));
  const { callOperation, agentOperation } = await import(dist("operations/agent-call.js"));
  const { AGENT_OPERATIONS } = await import(dist("operations/agent-operations.js"));
  const root = join(dir, "root");
  const inner = join(root, "docs");
  const outside = join(dir, "outside");
  mkdirSync(inner, { recursive: true });
  mkdirSync(outside);
  copyFileSync(fixture("paper"), join(inner, "a.pdf"));
  copyFileSync(fixture("cite-check"), join(outside, "a.pdf"));
  const outsideSha = sha(readFileSync(join(outside, "a.pdf")));
  const target = join(inner, "a.pdf");
  const cacheDir = join(dir, "cache");
  // As the MCP server calls them: arguments read against the schema, paths admitted by the roots.
  const agent = { cwd: root, access: [root], open: { cacheDir, timeoutMs: 20_000 } };
  const tool = (name, args, seen) => () =>
    callOperation(agentOperation(name), args, agent).then((o) => seen(o));
  const cropArgs = { pdf: "docs/a.pdf", page: 1, dpi: 24 };
  // A crop carries no hash: an escape is the image of the outside PDF's page.
  const cropOf = async (pdf) => {
    const o = await callOperation(
      agentOperation("crop"),
      { ...cropArgs, pdf },
      { ...agent, access: "anywhere" },
    );
    return sha(o.image.png);
  };
  const outsideCrop = await cropOf(join(outside, "a.pdf"));
  if (outsideCrop === (await cropOf(target))) throw new Error("path race: the two crops are alike");
  const run = createRun(join(dir, "run"), { libraryRoot: root });
  const { child } = await startSwapper(root, inner, outside);
  const stats = { tried: 0, verdicts: 0, coded: 0, crashes: 0, escapes: 0 };
  const attempt = async ({ read, outsideIs }) => {
    stats.tried++;
    try {
      const seen = await read();
      // An answer that names no document is not a verdict on this file: counted as a crash.
      if (!/^[0-9a-f]{64}$/.test(String(seen))) {
        stats.crashes++;
        return;
      }
      stats.verdicts++;
      if (seen === outsideIs) stats.escapes++;
    } catch (error) {
      // pi's tools throw an error carrying the error document.
      const code = error?.code ?? error?.document?.code;
      if (typeof code === "string" && code !== "INTERNAL") stats.coded++;
      else stats.crashes++;
    }
  };
  const library = {
    read: () => readAdmittedPdf(target, [root]).then((p) => p.sha256),
    outsideIs: outsideSha,
  };
  // Every agent tool, each through the MCP server's route (callOperation) and the pi extension's
  // (its registered tool's execute): a tool missing here is an error, so a new tool joins the race.
  const piTools = await piToolsFor();
  const raced = {
    verify: [
      { pdf: "docs/a.pdf", evidence: [{ kind: "page", page: 1 }] },
      (j) => j.document.sha256,
      outsideSha,
    ],
    anchors: [{ pdf: "docs/a.pdf" }, (j) => j.document.sha256, outsideSha],
    locate: [{ pdf: "docs/a.pdf", text: "the" }, (j) => j.document.sha256, outsideSha],
    crop: [cropArgs, null, outsideCrop],
    check_text: [{ pdf: "docs/a.pdf", draft: 'As shown ("p. 1").' }, (j) => j.document.sha256, outsideSha],
    cite_check: [
      {
        sources: [{ path: "docs/a.pdf" }],
        citations: [
          { id: "c", page: 1, quote: "the", bounding_box: { left: 0, bottom: 0, right: 2000, top: 2000 } },
        ],
      },
      (j) => j.source.sha256,
      outsideSha,
    ],
  };
  const missing = AGENT_OPERATIONS.map((op) => op.name).filter((name) => !(name in raced));
  if (missing.length > 0) throw new Error(`path race: no race for the tool(s) ${missing.join(", ")}`);
  const operations = [
    { read: () => localSource(run, target, { cacheDir }).then((r) => r.asset.sha256), outsideIs: outsideSha },
  ];
  for (const [name, [args, seenOf, outsideIs]] of Object.entries(raced)) {
    operations.push({
      read: tool(name, args, (o) => (seenOf ? seenOf(o.json) : sha(o.image.png))),
      outsideIs,
    });
    operations.push({
      read: () =>
        piTools
          .get(`citeproof_${name}`)(args, root)
          .then((r) => {
            if (seenOf) return seenOf(r.details);
            const image = r.content.find((c) => c.type === "image");
            return sha(Buffer.from(image.data, "base64"));
          }),
      outsideIs,
    });
  }
  try {
    for (let i = 0; i < calls; i++) {
      // Cheap library reads between the operations (taken in turn): the count stays affordable.
      const turn = i % toolEvery === toolEvery - 1;
      await attempt(turn ? operations[((i / toolEvery) | 0) % operations.length] : library);
    }
  } finally {
    child.kill("SIGTERM");
  }
  return stats;
}
