// CPU time, the measure of our own work that a busy machine does not stretch:
// wall time also counts the moments the operating system ran other processes
// (the suite's parallel files, PostgreSQL, anything else on the machine), and
// so does a process's share of wall time. Bounds on work are asserted on these.

/** Milliseconds of CPU this thread (the event loop's) has used. */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** Milliseconds of CPU the whole process has used: the event loop and the threads work is handed to (libuv's pool, image decoding). */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `work` and gives the longest time the event loop went without a turn
 * meanwhile, in CPU time of this thread between two ticks of a 1 ms timer
 * (what a busy machine does not stretch), and the wall time `work` took.
 */
export async function longestLoopBlock(work: () => Promise<void>): Promise<{ blockedMs: number; wallMs: number }> {
  let running = true;
  let blocked = 0;
  let last = threadCpuMs();
  const tick = () => {
    const now = threadCpuMs();
    blocked = Math.max(blocked, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  try {
    await work();
  } finally {
    running = false;
  }
  return { blockedMs: blocked, wallMs: performance.now() - started };
}
