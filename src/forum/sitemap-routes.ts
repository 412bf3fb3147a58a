// `/sitemap.xml` and `/sitemaps/…` (forum/sitemap.ts, docs/seo.md), with
// validators (ETag, Last-Modified) and 304 to a crawler that has the file.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendConditionally } from '../http/conditional.ts';
import { ModelNotFoundError } from '../http/errors.ts';
import { origin } from '../http/pagination.ts';
import { MAX_ID } from '../urls/paths.ts';
import { TOPICS_PER_SITEMAP, type SitemapDocument, type Sitemaps } from './sitemap.ts';

/** Crawlers may keep a file for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

export const sitemapRoutes: FastifyPluginAsync<{ sitemaps: Sitemaps }> = async (app, { sitemaps }) => {
  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => send(request, reply, await sitemaps.index(originOf(request))));
  app.get('/sitemaps/forums.xml', { schema: { hide: true } }, async (request, reply) => send(request, reply, await sitemaps.forums(originOf(request))));
  app.get<{ Params: { file: string } }>('/sitemaps/:file', { schema: { hide: true } }, async (request, reply) => {
    // `topics-{n}.xml`, n a canonical number (0 is the first run of ids) whose ids fit the 32-bit id column.
    const match = /^topics-(0|[1-9]\d{0,8})\.xml$/.exec(request.params.file);
    const number = match === null ? null : Number(match[1]);
    const run = number !== null && number * TOPICS_PER_SITEMAP <= MAX_ID ? number : null;
    const document = run === null ? null : await sitemaps.topics(originOf(request), run);
    if (document === null) throw new ModelNotFoundError('Sitemap', request.params.file);
    return send(request, reply, document);
  });
};

function originOf(request: FastifyRequest): string {
  return origin(request, request.server.site.baseUrl);
}

function send(request: FastifyRequest, reply: FastifyReply, document: SitemapDocument): FastifyReply {
  return sendConditionally(request, reply, {
    body: document.xml,
    type: 'application/xml; charset=utf-8',
    lastModified: document.updated,
    cacheControl: CACHE_CONTROL,
  });
}
