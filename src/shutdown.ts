// Graceful shutdown: stop accepting connections, let in-flight requests
// finish, close the database (an onClose hook), and give up after a deadline.
import type { FastifyInstance } from 'fastify';

export const SHUTDOWN_DEADLINE_MS = 10_000;

/** Resolves true when everything closed in time, false when the deadline passed first. */
export async function closeGracefully(app: FastifyInstance, deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  // Keep-alive connections become idle as their last request finishes;
  // close them as they do, or the server would wait for the keep-alive timeout.
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    return await Promise.race([app.close().then(() => true as const), deadline]);
  } finally {
    clearTimeout(timer);
    clearInterval(sweeper);
  }
}

export function exitOnSignals(app: FastifyInstance): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    closeGracefully(app).then(
      (clean) => {
        if (!clean) app.log.error('shutdown deadline passed; exiting with requests still open');
        process.exit(clean ? 0 : 1);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
