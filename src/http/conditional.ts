// Conditional GET (RFC 9110, 13.1): a body goes out with an ETag (a digest of
// the bytes, so any change to what is shown changes it) and a Last-Modified
// date; a client that already holds it gets 304 without a body. The ETag is
// weak: the same body is sent as br, gzip or as it is (app.ts), and a strong
// validator would have to differ between those codings (RFC 9110, 8.8.3).
// Feed readers poll, and most send If-None-Match or If-Modified-Since.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface Representation {
  body: string;
  /** Media type with charset, e.g. `application/atom+xml; charset=utf-8`. */
  type: string;
  /** When what it shows last changed (ISO 8601); sent to the second. */
  lastModified: string;
  /** Cache-Control: how shared caches and readers may keep it. */
  cacheControl: string;
}

export function sendConditionally(request: FastifyRequest, reply: FastifyReply, representation: Representation): FastifyReply {
  const etag = `W/"${createHash('sha256').update(representation.body).digest('base64url')}"`;
  const modified = Math.floor(Date.parse(representation.lastModified) / 1000) * 1000;
  reply.header('etag', etag).header('last-modified', new Date(modified).toUTCString()).header('cache-control', representation.cacheControl);
  if (notModified(request, etag, modified)) return reply.code(304).send();
  return reply.code(200).type(representation.type).send(representation.body);
}

/**
 * If-None-Match decides when present (weak comparison: `W/` is ignored, `*`
 * matches anything); only without it does If-Modified-Since count, and an
 * unparsable date there is ignored, as RFC 9110 says.
 */
function notModified(request: FastifyRequest, etag: string, modified: number): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || `W/${tag}` === etag);
  }
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && modified <= since;
}
