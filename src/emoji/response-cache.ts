// Serialized bodies of the catalog's read endpoints, kept per catalog version.
// Between two writes the catalog is immutable, so the same request answers
// the same bytes; a write gives a new snapshot and everything here is
// dropped. Bounded, because every distinct query string makes an entry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { origin } from '../http/pagination.ts';
import type { Catalog } from './catalog.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';

const MAX_ENTRIES = 1000;

export class ResponseCache {
  readonly #catalog: Catalog;
  readonly #baseUrl: string | null;
  #version: CatalogSnapshot | null = null;
  readonly #bodies = new Map<string, Buffer>();

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
    let body = this.#bodies.get(key);
    if (body === undefined) {
      const payload = await build();
      body = Buffer.from(reply.serialize(payload) as string);
      // A write while building made a newer version; keep only what matches the current one.
      if (version === this.#version) {
        if (this.#bodies.size >= MAX_ENTRIES) this.#bodies.delete(this.#bodies.keys().next().value!);
        this.#bodies.set(key, body);
      }
    }
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
