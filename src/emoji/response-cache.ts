// Serialized bodies of the catalog's read endpoints, kept per catalog version.
// Between two writes the catalog is immutable, so the same request answers
// the same bytes; a write gives a new snapshot and everything here is
// dropped. Bounded, because every distinct query string makes an entry. A
// body of 1 KB or more also keeps its br and gzip forms once a client has
// asked for them (the whole catalog: 564 KB, about 44 KB compressed).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding, compressKept, COMPRESSION_THRESHOLD, type Encoding } from '../http/compression.ts';
import { origin } from '../http/pagination.ts';
import type { Catalog } from './catalog.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';

const MAX_ENTRIES = 1000;

export class ResponseCache {
  readonly #catalog: Catalog;
  readonly #baseUrl: string | null;
  #version: CatalogSnapshot | null = null;
  readonly #bodies = new Map<string, KeptBody>();

  constructor(catalog: Catalog, baseUrl: string | null) {
    this.#catalog = catalog;
    this.#baseUrl = baseUrl;
  }

  /**
   * Sends the cached body for this request, or builds the payload, serializes
   * it with the route's response schema and keeps it. Errors thrown by
   * `build` (invalid filters) are never cached.
   */
  async send(request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>): Promise<FastifyReply> {
    const version = await this.#catalog.snapshot();
    if (version !== this.#version) {
      this.#version = version;
      this.#bodies.clear();
    }
    // Pagination links are absolute, so the origin is part of the answer.
    const key = `${origin(request, this.#baseUrl)}${request.originalUrl}`;
    let kept = this.#bodies.get(key);
    if (kept === undefined) {
      const payload = await build();
      kept = { body: Buffer.from(reply.serialize(payload) as string), encoded: new Map() };
      // A write while building made a newer version; keep only what matches the current one.
      if (version === this.#version) {
        if (this.#bodies.size >= MAX_ENTRIES) this.#bodies.delete(this.#bodies.keys().next().value!);
        this.#bodies.set(key, kept);
      }
    }
    reply.type('application/json; charset=utf-8');
    const encoding = kept.body.length >= COMPRESSION_THRESHOLD ? acceptedEncoding(request) : null;
    if (encoding === null) return reply.send(kept.body);
    let encoded = kept.encoded.get(encoding);
    if (encoded === undefined) kept.encoded.set(encoding, (encoded = compressKept(kept.body, encoding)));
    return reply
      .header('content-encoding', encoding)
      .header('vary', 'accept-encoding')
      .send(await encoded);
  }
}

interface KeptBody {
  body: Buffer;
  /** Its compressed forms, made once each when first asked for. */
  encoded: Map<Encoding, Promise<Buffer>>;
}
