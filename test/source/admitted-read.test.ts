// Reading inside an allowed root through one descriptor: a path swapped between check and read
// never leads outside, special files are refused before a byte is read, and names like `..foo`
// inside the root are admitted.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isCiteproofError } from "../../src/errors.js";
import { agentOperation, callOperation } from "../../src/operations/agent-call.js";
import { type PathAccess, readAdmittedFile, readAdmittedPdf } from "../../src/source/allowed-root.js";
import { sha256Hex } from "../../src/source/file.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map(stop));
  tmp.remove();
});

/** Stops a swapping process and waits until it is gone, so nothing changes the folder after it. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const root = join(tmp.dir, "root");
const realRoot = () => realpathSync(root);
const inside = join(root, "real");
const outside = join(tmp.dir, "outside");
mkdirSync(inside, { recursive: true });
mkdirSync(outside);
copyFileSync(fixture("paper"), join(inside, "a.pdf"));
copyFileSync(fixture("cite-check"), join(outside, "a.pdf"));
const outsideSha = sha256Hex(readFileSync(join(outside, "a.pdf")));

/** Starts a swapping process and resolves once it has made its first swap. */
async function startSwapper(args: string[], command = process.execPath): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the swapper exited with ${code}`)));
  });
  return child;
}

async function race(
  path: string,
  calls: number,
): Promise<{ escapes: number; read: number; refused: number }> {
  let escapes = 0;
  let read = 0;
  let refused = 0;
  for (let i = 0; i < calls; i++) {
    try {
      const pdf = await readAdmittedPdf(path, [root]);
      read++;
      if (pdf.sha256 === outsideSha) escapes++;
    } catch (error) {
      if (!isCiteproofError(error)) throw error;
      refused++;
    }
  }
  return { escapes, read, refused };
}

describe("a path swapped while it is read", () => {
  it("a symlink renamed over the name in a loop never leads the read outside", async () => {
    symlinkSync(inside, join(root, "swapped"));
    const swapper = await startSwapper([
      join(repoRoot, "scripts/attack/path-swap.mjs"),
      root,
      "swapped",
      inside,
      outside,
    ]);
    const result = await race(join(root, "swapped", "a.pdf"), 2000);
    await stop(swapper);
    expect(result.escapes).toBe(0);
    expect(result.read + result.refused).toBe(2000);
  });

  const python = spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0;
  it.skipIf(!python)(
    "a folder exchanged with a symlink to outside (renameat2) never leads the read outside",
    async () => {
      const exchanged = join(root, "exchanged");
      mkdirSync(exchanged);
      copyFileSync(fixture("paper"), join(exchanged, "a.pdf"));
      symlinkSync(outside, join(root, "decoy"));
      const swapper = await startSwapper(
        [join(repoRoot, "scripts/attack/exchange-swap.py"), exchanged, join(root, "decoy")],
        "python3",
      );
      const result = await race(join(exchanged, "a.pdf"), 2000);
      await stop(swapper);
      expect(result.escapes).toBe(0);
      expect(result.read + result.refused).toBe(2000);
    },
  );

  it.skipIf(!python)(
    "an agent's crop of a folder exchanged with a symlink to outside never renders the outside PDF",
    async () => {
      const exchanged = join(root, "cropped");
      mkdirSync(exchanged);
      copyFileSync(fixture("paper"), join(exchanged, "a.pdf"));
      symlinkSync(outside, join(root, "crop-decoy"));
      const crop = agentOperation("crop");
      const ctx = { cwd: root, access: [root], open: { noCache: true } };
      const args = { pdf: "cropped/a.pdf", page: 1, dpi: 24 };
      const image = async (pdf: string, access: PathAccess) =>
        sha256Hex((await callOperation(crop, { ...args, pdf }, { ...ctx, access })).image?.png ?? "");
      const outsideImage = await image(join(outside, "a.pdf"), "anywhere");
      expect(await image(args.pdf, [root])).not.toBe(outsideImage);
      const swapper = await startSwapper(
        [join(repoRoot, "scripts/attack/exchange-swap.py"), exchanged, join(root, "crop-decoy")],
        "python3",
      );
      let escapes = 0;
      let rendered = 0;
      // At least 100 calls, and more (up to 1,000) until one has rendered: under load the swapper can
      // win every race of the first hundred, and a trial that never rendered tried nothing.
      for (let i = 0; i < 100 || (rendered === 0 && i < 1000); i++) {
        try {
          if ((await image(args.pdf, [root])) === outsideImage) escapes++;
          rendered++;
        } catch (error) {
          if (!isCiteproofError(error)) throw error;
        }
      }
      await stop(swapper);
      expect(escapes).toBe(0);
      expect(rendered).toBeGreaterThan(0);
    },
  );
});

describe("what is admitted", () => {
  it("a name starting with two dots inside the root is inside", async () => {
    mkdirSync(join(root, "..foo"));
    copyFileSync(fixture("paper"), join(root, "..foo", "a.pdf"));
    const pdf = await readAdmittedPdf(join(root, "..foo", "a.pdf"), [root]);
    expect(pdf.bytes.byteLength).toBeGreaterThan(0);
  });

  it("a symlink inside the root to a file outside it: ACCESS_DENIED", async () => {
    symlinkSync(join(outside, "a.pdf"), join(root, "out.pdf"));
    await expect(readAdmittedPdf(join(root, "out.pdf"), [root])).rejects.toMatchObject({
      code: "ACCESS_DENIED",
    });
  });

  it("outside the roots one answer, whether the path exists, is a folder's child that does not, or cannot be read", async () => {
    symlinkSync(join(outside, "a.pdf"), join(outside, "to-a.pdf"));
    symlinkSync(join(outside, "gone.pdf"), join(outside, "to-gone.pdf"));
    const paths = [
      join(outside, "a.pdf"),
      join(outside, "missing.pdf"),
      join(outside, "no-such-folder", "x", "y.pdf"),
      join(outside, "a.pdf", "under-a-file.pdf"),
      join(outside, "to-a.pdf"),
      join(outside, "to-gone.pdf"),
    ];
    for (const path of paths) {
      const error = await readAdmittedPdf(path, [root]).catch((e: unknown) => e);
      expect(error, path).toMatchObject({ code: "ACCESS_DENIED" });
      expect((error as Error).message, path).toBe(`${path} is outside the allowed roots (${realRoot()})`);
    }
    // Inside a root, a missing file is still named as missing.
    await expect(readAdmittedPdf(join(root, "missing.pdf"), [root])).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  const mkfifo = spawnSync("mkfifo", ["--version"]).status === 0;
  it.skipIf(!mkfifo)("a FIFO inside the root is refused by type, without waiting for a writer", async () => {
    const fifo = join(root, "pipe.pdf");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    await expect(readAdmittedPdf(fifo, [root])).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
      message: expect.stringContaining("is a FIFO, not a regular file"),
    });
    await expect(readAdmittedFile(fifo, [root], { maxBytes: 10, what: "draft" })).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
    });
  });

  it("a device is refused by type", async () => {
    await expect(readAdmittedPdf("/dev/zero", ["/dev"])).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
      message: expect.stringContaining("is a device"),
    });
  });
});
