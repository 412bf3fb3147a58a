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
