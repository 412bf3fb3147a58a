// What goes out compressed, and how (issue 33). Answers built per request are
// compressed by @fastify/compress with these options (app.ts); bodies kept
// whole in a cache (the emoji catalog's half-megabyte listing) keep their
// compressed forms beside them, made once, off the event loop.
//
// Answers built per request use the plugin's settings, brotli 4 and gzip 6.
// Brotli 2 and gzip 4 compress a 40 KB page in less than half the time when
// called directly, yet through the plugin they served a quarter as many
// compressed pages a second (578 against 1,556 topic pages; bench
// compression, 2026-11-28), so they were not kept. A cached body is
// compressed once per version, so it affords brotli 9 and gzip 9 (the 564 KB
// catalog: 27 and 13 ms for 47 and 56 KB; brotli 11 would take 641 ms for
// 39 KB).
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Smaller answers go out as they are: a header's worth of saving is not worth the work. */
export const COMPRESSION_THRESHOLD = 1024;

export const compressOptions = { encodings: [...ENCODINGS], threshold: COMPRESSION_THRESHOLD };

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
