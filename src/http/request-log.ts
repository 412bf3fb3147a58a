// One log line per request, with secrets kept out: query values that carry
// credentials and the key segment of activation / reset links are masked.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent']);
// uk / passkey: the tracker's passkey in announce and scrape URLs.
const SECRET_PARAMS = /([?&](?:token|key|password|code|secret|access_token|uk|passkey)=)[^&#]*/gi;
const SECRET_PATHS = /^(\/activate\/\d+\/|\/password-recovery\/)[^/?#]+/;
// Other trackers put the passkey in the path (/PASSKEY/announce, /announce/PASSKEY), and clients
// keep such URLs: a passkey-shaped segment of a tracker-looking path is masked too (not served, but logged).
const TRACKER_PATH = /^\/bt\/|announce|scrape/i;
const PASSKEY_SEGMENTS = /(?<=\/)[A-Za-z0-9]{20}(?=[/?#]|$)/g;

export function redactUrl(url: string): string {
  const path = url.split('?', 1)[0]!;
  const trackerPath = TRACKER_PATH.test(path);
  // Most URLs have neither a query nor a one-time link: skip the regexes for them.
  if (!trackerPath && !url.includes('?') && !url.startsWith('/activate/') && !url.startsWith('/password-recovery/')) return url;
  const masked = trackerPath ? path.replace(PASSKEY_SEGMENTS, '***') + url.slice(path.length) : url;
  return masked.replace(SECRET_PATHS, '$1***').replace(SECRET_PARAMS, '$1***');
}

export class RequestLogController extends LogController {
  override incomingRequest(): void {
    // The completion line below carries everything; one line per request.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Skip building the line when info is off (LOG_LEVEL=warn and above).
    if (!error && QUIETER_THAN_INFO.has(reply.log.level)) return;
    const line = {
      method: request.method,
      url: redactUrl(request.originalUrl),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }

  override routeNotFound(): void {
    // Logged as a normal request line with status 404.
  }
}
