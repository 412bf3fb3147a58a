// The tracker's fast path: GET /bt/announce(.php) and /bt/scrape(.php) served by
// a plain node:http request listener placed in front of Fastify (serverFactory
// in app.ts), because Fastify's per-request work (request id, host check,
// security headers, session lookup, rate limits, CSRF, metrics, the `info`
// request line) cost more than the announce itself. The Fastify routes in
// routes.ts answer the same paths with the same service for app.inject (tests)
// and for anything this listener does not take (other methods).
//
// What a /bt/ answer keeps (docs/tracker.md, "Speed"): 200 text/plain with
// `cache-control: no-store` and `x-content-type-options: nosniff`; failures are
// logged at `error`. What it drops: the Host check (a BitTorrent client sends
// the announce URL's host; the passkey is the credential, no cookie is read and
// no HTML is served, so a rebound name gains nothing), the page security headers
// (CSP and frame rules concern HTML), the request line in the log, and the
// /metrics request counters.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { clientAddress, type TrustFunction } from '../../http/proxy-trust.ts';
import type { AnnounceService } from './service.ts';

export interface TrackerListenerOptions {
  announce: AnnounceService;
  /** The proxies whose X-Forwarded-For entries are believed, as Fastify is given them. */
  trustProxy: TrustFunction;
  logger: FastifyBaseLogger;
}

export const TRACKER_FAILURE_TEXT = 'The tracker could not answer just now; try again later.';

const HEADERS = {
  'content-type': 'text/plain',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Returns a listener that answers a tracker request and returns true, or returns false and leaves the request alone. */
export function trackerListener(options: TrackerListenerOptions): (request: IncomingMessage, response: ServerResponse) => boolean {
  const { announce, trustProxy, logger } = options;
  const send = (response: ServerResponse, body: Buffer): void => {
    response.writeHead(200, { ...HEADERS, 'content-length': body.length });
    response.end(body);
  };
  const answer = (response: ServerResponse, work: Promise<Buffer>, what: string): void => {
    work.then(
      (body) => send(response, body),
      (error: unknown) => {
        logger.error({ err: error }, `${what} failed`);
        send(response, announce.failure(TRACKER_FAILURE_TEXT));
      },
    );
  };
  return (request, response) => {
    const url = request.url ?? '';
    if (request.method !== 'GET' || !url.startsWith('/bt/')) return false;
    const path = trackerPath(url);
    if (path === 'announce') {
      answer(response, announce.announce(url, clientAddress(request, trustProxy)), 'announce');
      return true;
    }
    if (path === 'scrape') {
      answer(response, announce.scrape(url), 'scrape');
      return true;
    }
    return false;
  };
}

function trackerPath(url: string): 'announce' | 'scrape' | null {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path === '/bt/announce.php' || path === '/bt/announce') return 'announce';
  if (path === '/bt/scrape.php' || path === '/bt/scrape') return 'scrape';
  return null;
}
