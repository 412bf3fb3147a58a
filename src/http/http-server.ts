// The HTTP server the app listens with (Fastify's serverFactory), with every
// connection's time bounded (config.ts, ServerTimeouts): a request, headers
// and body, must arrive within REQUEST_TIMEOUT_SECONDS, its headers within
// HEADERS_TIMEOUT_SECONDS, and an idle keep-alive connection is closed after
// KEEP_ALIVE_TIMEOUT_SECONDS. Fastify's default request timeout is none, so 50
// clients sending a body one byte at a time held their connections for as
// long as they liked (issue 27). A client cut off gets 408 (Fastify's
// clientError answer) and the connection is closed.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { ServerTimeouts } from '../config.ts';

/**
 * How often Node looks for requests past their bound (its default is 30 s, which
 * would let a request run up to 30 s over): a look at the open connections' start
 * times, cheap even with thousands of them.
 */
const CHECK_INTERVAL_MS = 1000;

export function createHttpServer(listener: RequestListener, timeouts: ServerTimeouts): Server {
  const server = createServer(
    {
      requestTimeout: timeouts.requestSeconds * 1000,
      headersTimeout: timeouts.headersSeconds * 1000,
      keepAliveTimeout: timeouts.keepAliveSeconds * 1000,
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    listener,
  );
  // No inactivity timeout on top: the bounds above cover a request being sent, and a
  // response being read (a large download on a slow line) must not be cut.
  server.setTimeout(0);
  return server;
}
