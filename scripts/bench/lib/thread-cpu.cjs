// Preloaded into a measured Node process (`node -r thread-cpu.cjs ...`, Linux only): at exit, prints
// one line to stderr, `thread-cpu {"mainS":..,"workersS":..,"workers":..,"backgroundS":..,"totalS":..}`:
// the CPU (user + sys) of the main thread, of the worker threads (the engine's), and of the rest
// (V8's background threads: optimizing compiles, GC helpers, WebAssembly tier-up; libuv's pool).
// A CPU profile (`--cpu-prof`) shows the main thread and each worker alone; what V8 does for them
// on its own threads shows nowhere else.
// Each worker tells the main thread its thread id over a BroadcastChannel; the main thread reads the
// workers' counters every few milliseconds, since a thread that ended is gone from /proc (its last
// few milliseconds may be missed). The total is the process's own count, ended threads included.
const { readFileSync, readlinkSync } = require("node:fs");
const { BroadcastChannel, isMainThread } = require("node:worker_threads");

const CHANNEL = "citeproof-bench-thread-cpu";
/** Clock ticks a second (USER_HZ), as /proc counts them on Linux. */
const TICKS = 100;

/** User + sys seconds of one thread of this process, or undefined once it has ended. */
function threadCpuS(tid) {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

if (!isMainThread) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(readlinkSync("/proc/thread-self").split("/").pop());
  channel.close();
} else {
  const workers = new Map();
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => workers.set(event.data, 0);
  const sample = () => {
    for (const tid of workers.keys()) {
      const cpu = threadCpuS(tid);
      if (cpu !== undefined) workers.set(tid, cpu);
    }
  };
  setInterval(sample, 5).unref();
  process.on("exit", () => {
    sample();
    const usage = process.resourceUsage();
    const totalS = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    const mainS = threadCpuS(process.pid) ?? Number.NaN;
    let workersS = 0;
    for (const cpu of workers.values()) workersS += cpu;
    const figures = {
      mainS,
      workersS,
      workers: workers.size,
      backgroundS: totalS - mainS - workersS,
      totalS,
    };
    process.stderr.write(`thread-cpu ${JSON.stringify(figures)}\n`);
  });
}
