// How long a child Node.js process of ours (the server, a command-line tool)
// may take to start, or to finish a short job, before a test calls it hung.
// A second or two on a quiet machine; beside six CPU hogs on two cores
// (issue 34) a start was seen past 30 s. The bound tells a hang from a slow
// machine, nothing more: speed is measured by `npm run bench`.
export const CHILD_PROCESS_MS = 120_000;
