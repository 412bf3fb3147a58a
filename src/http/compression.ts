// What goes out compressed, and how (issue 33). Answers built per request are
// compressed by @fastify/compress with these options (app.ts); bodies kept
// whole in a cache (the emoji catalog's half-megabyte listing) keep their
// compressed forms beside them, made once, off the event loop.
//
// Brotli at quality 2 and gzip at level 4 for answers built per request: on a
// 40 KB page, 260 and 390 µs for 12.6 and 11.8 KB, against 590 and 810 µs for
// 12.0 and 11.5 KB at brotli 4 and gzip 6 (zlib's defaults are brotli 11 and
// gzip 6; this instance, 2026-11-28). A cached body is compressed once per
// version, so it affords more: brotli 9 and gzip 9 (the 564 KB catalog: 27
// and 13 ms for 47 and 56 KB; brotli 11 would take 641 ms for 39 KB).
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Smaller answers go out as they are: a header's worth of saving is not worth the work. */
export const COMPRESSION_THRESHOLD = 1024;

export const compressOptions = {
  encodings: [...ENCODINGS],
  threshold: COMPRESSION_THRESHOLD,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
  zlibOptions: { level: 4 },
};

const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS] });

/** The coding this request takes best of ours (q-values honoured), or null: send it as it is. */
export function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  return header === undefined || header === '' ? null : negotiator.negotiate(header);
}

const brotliOnce = promisify(brotliCompress);
const gzipOnce = promisify(gzip);

/** A body kept whole, compressed once at a high ratio, in libuv's thread pool. */
export function compressKept(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliOnce(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipOnce(body, { level: 9 });
}
