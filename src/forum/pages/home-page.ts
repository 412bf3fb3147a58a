// `/`: the forums, in their display order.
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { forumPath, siteFeedPath, withQuery } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { html } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { feedLinks } from './parts.ts';

export const FORUMS_PER_PAGE = PER_PAGE_DEFAULT;

export function homePage({ forum }: ForumPageDeps): FixedPage {
  return {
    async serve(request, reply, visit) {
      const page = requestedPage(visit.query);
      if (page === null) throw pageNotFound();
      const { rows, total } = await forum.listForums(pageRequest({ page, per_page: FORUMS_PER_PAGE }));
      const last = lastPage(total, FORUMS_PER_PAGE);
      if (page > last) throw pageNotFound();
      const href = (n: number) => withQuery('/', n === 1 ? {} : { page: n });
      return sendPage(request, reply, {
        title: 'Forums',
        canonical: href(page),
        head: feedLinks('Newest topics', siteFeedPath),
        body: html`<h1>Forums</h1>
${
  rows.length === 0
    ? html`<p>There are no forums yet.</p>`
    : html`<table class="forums">
<caption class="visually-hidden">Forums</caption>
<thead><tr><th scope="col">Forum</th><th scope="col">Topics</th><th scope="col">Posts</th></tr></thead>
<tbody>
${rows.map((row) => html`<tr><td><a href="${forumPath(row)}">${row.name}</a>${row.description === '' ? '' : html`<p class="muted">${row.description}</p>`}</td><td>${row.topics_count}</td><td>${row.posts_count}</td></tr>`)}
</tbody>
</table>`
}
${pageNav(page, last, href)}`,
      });
    },
  };
}
