/**
 * The fresh-retrieval rule. A source is fresh iff the event log holds, for it, a line of type
 * fetch or local_pdf with fresh: true, written in this run (same run_id, at or after created_at),
 * whose sha256 still matches the snapshot text now. A user-supplied PDF is fresh instead through a
 * local_pdf event and its file still hashing to asset.sha256. Register and read events never count.
 */
import { createHash } from "node:crypto";
import { closeSync, readSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { CiteproofError, isCiteproofError } from "../errors.js";
import { isInside } from "../source/allowed-root.js";
import { openRegularFileSync } from "../source/file.js";
import type { RunEvent } from "./events.js";
import type { RunInfo } from "./run.js";
import type { Asset, Snapshot } from "./snapshot.js";

export type Freshness =
  | { fresh: true; eventId: string; via: "fetch" | "local_pdf" | "local_file" }
  | { fresh: false; code: "NO_FRESH_FETCH" | "ASSET_HASH_MISMATCH"; message: string };

export type AssetCheck = { ok: true } | { ok: false; message: string };

/** Hashes each asset file once per checker; a checker lives as long as one operation. */
export class AssetChecker {
  private readonly results = new Map<string, AssetCheck>();

  constructor(readonly run: RunInfo) {}

  check(asset: Asset): AssetCheck {
    const key = `${asset.path}\0${asset.sha256}`;
    const held = this.results.get(key);
    if (held) return held;
    const result = this.compute(asset);
    this.results.set(key, result);
    return result;
  }

  /** The absolute path of an asset, or undefined when it would leave the library root. */
  resolvePath(asset: Asset): string | undefined {
    return resolveInside(this.run.libraryRoot, asset.path);
  }

  private compute(asset: Asset): AssetCheck {
    const path = this.resolvePath(asset);
    if (!path) return { ok: false, message: `asset path ${asset.path} leaves the library root` };
    let digest: string;
    let bytes = 0;
    try {
      const hash = createHash("sha256");
      const fd = openRegularFileSync(path, libraryRootGuard(this.run.libraryRoot));
      try {
        const buffer = Buffer.alloc(1 << 20);
        for (;;) {
          const n = readSync(fd, buffer, 0, buffer.length, null);
          if (n === 0) break;
          bytes += n;
          hash.update(buffer.subarray(0, n));
        }
      } finally {
        closeSync(fd);
      }
      digest = hash.digest("hex");
    } catch (error) {
      const code = (error as { code?: string }).code;
      const why = code === "FILE_NOT_FOUND" ? "missing" : isCiteproofError(error) ? error.message : code;
      return { ok: false, message: `the PDF ${asset.path} cannot be read (${why})` };
    }
    if (digest !== asset.sha256 || bytes !== asset.bytes) {
      return { ok: false, message: `the PDF ${asset.path} no longer hashes to the recorded sha256` };
    }
    return { ok: true };
  }
}

/** Resolves a root-relative path, refusing anything that lands outside the root. */
export function resolveInside(root: string, path: string): string | undefined {
  if (isAbsolute(path)) return undefined;
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return undefined;
  return full;
}

/** The path of `file` relative to `root` in POSIX form, or undefined when it lies outside. */
export function rootRelative(root: string, file: string): string | undefined {
  let realRoot: string;
  let realFile: string;
  try {
    realRoot = realpathSync(root);
    realFile = realpathSync(file);
  } catch {
    return undefined;
  }
  const rel = relative(realRoot, realFile);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

/**
 * A check for the real path of an opened file (see `openRegularFileSync`, `readPdfFile`): it must lie
 * inside the library root's real path, else ACCESS_DENIED. The check is on the file opened, so a
 * path swapped after it was resolved cannot lead the read outside.
 */
export function libraryRootGuard(root: string): (realPath: string) => void {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    throw new CiteproofError("ACCESS_DENIED", `the library root ${root} does not exist`);
  }
  return (realPath) => {
    if (!isInside(realPath, realRoot))
      throw new CiteproofError("ACCESS_DENIED", `${realPath} is not inside the library root ${realRoot}`);
  };
}

/** Indexes a run's events by source for the freshness rule. */
export class FreshnessJudge {
  private readonly bySource = new Map<string, RunEvent[]>();
  private readonly results = new Map<string, Freshness>();

  constructor(
    readonly run: RunInfo,
    events: readonly RunEvent[],
    readonly assets: AssetChecker,
  ) {
    for (const event of events) {
      const list = this.bySource.get(event.source_id);
      if (list) list.push(event);
      else this.bySource.set(event.source_id, [event]);
    }
  }

  /** Fetch events of this run for the source (any freshness), for the cited-URL check. */
  fetchEvents(sourceId: string): RunEvent[] {
    return (this.bySource.get(sourceId) ?? []).filter((e) => e.type === "fetch" && this.inThisRun(e));
  }

  /** Freshness of a verified snapshot; `textSha256` is the hash of its text recomputed now. */
  judge(snapshot: Snapshot, textSha256: string): Freshness {
    const held = this.results.get(snapshot.source_id);
    if (held) return held;
    const result = this.compute(snapshot, textSha256);
    this.results.set(snapshot.source_id, result);
    return result;
  }

  private inThisRun(event: RunEvent): boolean {
    return event.run_id === this.run.runId && Date.parse(event.at) >= this.run.createdAtMs;
  }

  private compute(snapshot: Snapshot, textSha256: string): Freshness {
    const qualifying = (this.bySource.get(snapshot.source_id) ?? []).filter(
      (e) => (e.type === "fetch" || isLocal(e.type)) && e.fresh === true && this.inThisRun(e),
    );
    const current = qualifying.filter((e) => e.sha256 === textSha256);
    const localEvents = current.filter((e): e is RunEvent & { type: "local_pdf" | "local_file" } =>
      isLocal(e.type),
    );
    if (localEvents.length > 0) {
      if (!snapshot.asset) {
        return {
          fresh: false,
          code: "ASSET_HASH_MISMATCH",
          message: `${snapshot.source_id} has a ${localEvents[0].type} event but its snapshot records no file (asset: null)`,
        };
      }
      const check = this.assets.check(snapshot.asset);
      if (!check.ok) return { fresh: false, code: "ASSET_HASH_MISMATCH", message: check.message };
      return { fresh: true, eventId: localEvents[0].event_id, via: localEvents[0].type };
    }
    if (snapshot.origin === "user-supplied-pdf" || snapshot.origin === "user-supplied-file") {
      const pdf = snapshot.origin === "user-supplied-pdf";
      return {
        fresh: false,
        code: "NO_FRESH_FETCH",
        message: `${snapshot.source_id} is a user-supplied ${pdf ? "PDF" : "file"} with no ${pdf ? "local_pdf" : "local_file"} event in this run`,
      };
    }
    const fetches = current.filter((e) => e.type === "fetch");
    if (fetches.length > 0) return { fresh: true, eventId: fetches[0].event_id, via: "fetch" };
    const why =
      qualifying.length > 0
        ? "its fetch events no longer match the snapshot text"
        : "no fresh fetch of it is logged in this run";
    return { fresh: false, code: "NO_FRESH_FETCH", message: `${snapshot.source_id}: ${why}` };
  }
}

/** A hash-checked user-supplied file's event: a PDF's or another kind's. */
function isLocal(type: string): type is "local_pdf" | "local_file" {
  return type === "local_pdf" || type === "local_file";
}
