// Static files under names that carry a digest of their content
// (`/assets/style.3f2a9c1b7e4d.css`): a deploy that changes a file changes
// its name, so browsers may keep every name for a year without asking again
// (`immutable`). Each file is compressed once at start, br and gzip, in the
// thread pool, and sent in the coding the request takes best (issue 33).
// The plain names (`/assets/style.css`) stay served as before, with a short
// lifetime, for whatever links to them from outside.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { acceptedEncoding, compressKept, type Encoding } from './compression.ts';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  url: string;
  type: string;
  body: Buffer;
  encoded: Map<Encoding, Buffer>;
}

export class FingerprintedAssets {
  readonly #prefix: string;
  readonly #assets = new Map<string, Asset>();

  /** Reads the files now (they are few and small), so that pages know their addresses from the start. */
  constructor(prefix: string, dir: string, names: readonly string[]) {
    this.#prefix = prefix;
    for (const name of names) this.add(name, readFileSync(join(dir, name)));
  }

  /** A file that is not in the directory (a library's build), under its own name and digest. */
  add(name: string, body: Buffer): void {
    const extension = extname(name);
    const type = TYPES[extension];
    if (type === undefined) throw new Error(`no media type known for ${name}`);
    const digest = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const url = `${this.#prefix}${name.slice(0, -extension.length)}.${digest}${extension}`;
    this.#assets.set(name, { url, type, body, encoded: new Map() });
  }

  /** The address of `name` as pages link to it. */
  url(name: string): string {
    const asset = this.#assets.get(name);
    if (asset === undefined) throw new Error(`no such asset: ${name}`);
    return asset.url;
  }

  /** Compresses every file (once, off the event loop) and serves each under its fingerprinted address. */
  async register(app: FastifyInstance): Promise<void> {
    for (const asset of this.#assets.values()) {
      for (const encoding of ['br', 'gzip'] as const) {
        const encoded = await compressKept(asset.body, encoding);
        // A file too small to gain is sent as it is.
        if (encoded.length < asset.body.length) asset.encoded.set(encoding, encoded);
      }
      app.get(asset.url, { schema: { hide: true } }, async (request, reply) => {
        reply.type(asset.type).header('cache-control', IMMUTABLE).header('vary', 'accept-encoding');
        const encoding = acceptedEncoding(request);
        const encoded = encoding === null ? undefined : asset.encoded.get(encoding);
        if (encoding === null || encoded === undefined) return reply.send(asset.body);
        return reply.header('content-encoding', encoding).send(encoded);
      });
    }
  }
}
