// /pages/{slug}/ (docs/static-pages.md): a static page in the reader's language,
// else in the one it is written in (marked with its `lang`). An unknown slug
// is the 404 page.
import type { FastifyPluginAsync } from 'fastify';
import { currentReader } from '../i18n/context.ts';
import { t } from '../i18n/messages.ts';
import { pageNotFound, type PageRoutes } from '../urls/semantic-routes.ts';
import { dateHtml } from '../web/format.ts';
import { html } from '../web/html.ts';
import { sendPage } from '../web/page.ts';
import type { PageRenderer } from './page-routes.ts';
import { pageTextFor, type SitePages } from './pages.ts';

export const sitePageView: FastifyPluginAsync<{ pages: PageRoutes; sitePages: SitePages; render: PageRenderer }> = async (
  app,
  { pages, sitePages, render },
) => {
  pages.fixed(app, '/pages/:slug/', {
    async serve(request, reply, visit) {
      const page = await sitePages.bySlug(visit.params['slug'] ?? '');
      if (page === undefined) throw pageNotFound();
      const reader = currentReader().locale;
      const { locale, text } = pageTextFor(page, reader);
      return sendPage(request, reply, {
        title: text.title,
        canonical: visit.canonicalPath,
        body: html`<article class="site-page"${locale === reader ? '' : html` lang="${locale}"`}>
<h1>${text.title}</h1>
${await render(text.body)}
<p class="muted">${t('pages.updated')} ${dateHtml(page.updatedAt)}</p>
</article>`,
      });
    },
  });
};
