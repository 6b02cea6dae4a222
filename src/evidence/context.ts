/**
 * Everything one operation on a run reads, loaded once: the run, its snapshot store (each snapshot
 * hashed once), its event log, the freshness judge, asset hashes, section and page finders.
 */
import { type EventLog, readEvents } from "./events.js";
import { AssetChecker, FreshnessJudge } from "./fresh.js";
import { type LocateOptions, SpanLocator } from "./locate.js";
import { openRun, type RunInfo } from "./run.js";
import { SectionFinder } from "./sections.js";
import { SnapshotStore } from "./snapshot.js";

export interface EvidenceContext {
  run: RunInfo;
  store: SnapshotStore;
  log: EventLog;
  assets: AssetChecker;
  judge: FreshnessJudge;
  sections: SectionFinder;
  locator: SpanLocator;
}

export function evidenceContext(runOrDir: RunInfo | string, options: LocateOptions = {}): EvidenceContext {
  const run = typeof runOrDir === "string" ? openRun(runOrDir) : runOrDir;
  const log = readEvents(run);
  const assets = new AssetChecker(run);
  return {
    run,
    store: new SnapshotStore(run),
    log,
    assets,
    judge: new FreshnessJudge(run, log.events, assets),
    sections: new SectionFinder(),
    locator: new SpanLocator(assets, options),
  };
}
