// The CLI's own V8 tuning: fixed flags at its entry, and the flags the library's moments call for,
// each held while any run that asked for it runs and undone by the last end; none for a process
// started with an optimizer switch of its own.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  CLI_V8_FLAGS,
  cliTuning,
  flagsToSet,
  LATE_INTERRUPT_BUDGET,
  switchOf,
  V8_INTERRUPT_BUDGET,
} from "../../src/cli/v8-tuning.js";

function recording(execArgv: string[] = [], nodeOptions?: string) {
  const set: string[] = [];
  return { set, tuning: cliTuning((flag) => set.push(flag), execArgv, nodeOptions) };
}

describe("the CLI's fixed flags", () => {
  it("sets concurrent recompilation off unless the process was started with that switch", () => {
    expect(CLI_V8_FLAGS).toEqual(["--no-concurrent-recompilation"]);
    expect(flagsToSet([], undefined)).toEqual(["--no-concurrent-recompilation"]);
    expect(flagsToSet(["--concurrent-recompilation"], undefined)).toEqual([]);
    expect(flagsToSet([], "--max-old-space-size=4096 --concurrent_recompilation")).toEqual([]);
    expect(flagsToSet(["--max-old-space-size=4096"], "")).toEqual(["--no-concurrent-recompilation"]);
    expect(switchOf("--no-interrupt_budget=5")).toBe("interrupt-budget");
  });
});

describe("the CLI's tuning", () => {
  it("pauses the optimizing compiler while any short run runs", () => {
    const { set, tuning } = recording();
    const outer = tuning.shortRun();
    const inner = tuning.shortRun();
    expect(tuning.optimizerPaused()).toBe(true);
    inner();
    expect(tuning.optimizerPaused()).toBe(true);
    outer();
    expect(tuning.optimizerPaused()).toBe(false);
    expect(set).toEqual(["--no-turbofan", "--turbofan"]);
  });

  it("compiles a short run's engine on the baseline tier until it is compiled; a long run's as usual", () => {
    const { set, tuning } = recording();
    tuning.engineCompiles("optimizing")();
    expect(set).toEqual([]);
    const compiled = tuning.engineCompiles("baseline");
    expect(tuning.baselineOnly()).toBe(true);
    compiled();
    expect(tuning.baselineOnly()).toBe(false);
    expect(set).toEqual(["--liftoff-only", "--no-liftoff-only"]);
  });

  it("raises the interrupt budget for a long first decision and returns it to V8's default", () => {
    const { set, tuning } = recording();
    const end = tuning.longFirstDecision();
    expect(tuning.tiersUpLate()).toBe(true);
    end();
    expect(tuning.tiersUpLate()).toBe(false);
    expect(set).toEqual([
      `--interrupt-budget=${LATE_INTERRUPT_BUDGET}`,
      `--interrupt-budget=${V8_INTERRUPT_BUDGET}`,
    ]);
  });

  it.each([
    ["--no-opt on the command line", ["--no-opt"], undefined],
    ["--jitless in NODE_OPTIONS", [], "--jitless"],
    ["--interrupt-budget of its own", ["--interrupt-budget=1000"], undefined],
    ["--liftoff-only of its own", [], "--liftoff-only"],
  ])("leaves a process started with %s as it is", (_label, execArgv, nodeOptions) => {
    const { set, tuning } = recording(execArgv, nodeOptions);
    tuning.shortRun()();
    tuning.engineCompiles("baseline")();
    tuning.longFirstDecision()();
    expect(set).toEqual([]);
  });

  it("returns to the interrupt budget the running Node's V8 has by default", () => {
    const options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    const shown = /--interrupt-budget=(\d+)/.exec(options.slice(options.indexOf("--interrupt-budget ")));
    expect(Number(shown?.[1])).toBe(V8_INTERRUPT_BUDGET);
    expect(LATE_INTERRUPT_BUDGET).toBeGreaterThan(V8_INTERRUPT_BUDGET);
  });
});
