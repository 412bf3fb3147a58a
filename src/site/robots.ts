// `/robots.txt` (docs/seo.md): what the admin wrote in the site settings, or
// the default: crawlers are kept out of the API, the admin pages, the tracker
// and the pages that are each member's own or answer a query (search), and
// are told where the sitemap is. Crawlers read it often: it is built from the
// settings kept in memory (site/settings.ts), no query.
import type { FastifyPluginAsync } from 'fastify';
import { origin } from '../http/pagination.ts';
import { absoluteUrl } from '../urls/paths.ts';
import type { SiteSettings } from './settings.ts';

/** Paths no crawler has anything to find in. */
const DISALLOWED = ['/api/', '/admin/', '/bt/', '/login/', '/register/', '/password-recovery/', '/search/', '/messages/', '/settings/', '/profile/watchlist/'];

export function defaultRobotsTxt(siteOrigin: string): string {
  return ['User-agent: *', ...DISALLOWED.map((path) => `Disallow: ${path}`), '', `Sitemap: ${absoluteUrl(siteOrigin, '/sitemap.xml')}`, ''].join('\n');
}

export const robotsRoute: FastifyPluginAsync<{ site: SiteSettings }> = async (app, { site }) => {
  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    const settings = await site.current().catch(() => site.lastKnown());
    const text = settings.robotsTxt ?? defaultRobotsTxt(origin(request, request.server.site.baseUrl));
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(text);
  });
};
