// When a check's time budget is spent. The budget is on the clock (no
// request should wait on the event loop), but a deadline only counts as
// past once this thread has also worked for half the time since the check
// began: on a machine so busy that the process barely runs, the clock runs
// on while no work is done, and a 1 KB text should not end in moderation
// because the operating system looked elsewhere. On a machine that runs the
// process, CPU time keeps up with the clock and nothing changes.

/** Share of the elapsed budget this thread must have worked before a deadline counts. */
const MIN_CPU_SHARE = 0.5;

let wallStart = 0;
let cpuStart = 0;

function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** A check begins: deadlines are measured from now (checks run one at a time, synchronously). */
export function startBudget(): number {
  wallStart = performance.now();
  cpuStart = threadCpuMs();
  return wallStart;
}

/** Is `deadline` (performance.now() milliseconds) past, in the sense above? */
export function isPast(deadline: number): boolean {
  if (performance.now() <= deadline) return false;
  return threadCpuMs() - cpuStart >= (deadline - wallStart) * MIN_CPU_SHARE;
}
