// `/profile/watchlist/`: the topics you watch (login required); you get a mail
// for every new reply in them. Each one's button posts `topic_id` to
// `/profile/watchlist/unwatch/` (with the list's page in the query).
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { IdParams } from '../../http/schemas.ts';
import { topicUnreadPath, watchlistPath, withQuery } from '../../urls/paths.ts';
import { fixedForm, pageNotFound, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { failedNotice, outdatedForm } from '../../web/form.ts';
import { html } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { buttonForm, topicTable, unreadMarker } from './parts.ts';

export const WATCHED_PER_PAGE = PER_PAGE_DEFAULT;

const UnwatchForm = Type.Object({ topic_id: IdParams.properties.id });

export function watchlistPage({ forum, presenter, views }: ForumPageDeps): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, errors?: FieldErrors): Promise<FastifyReply> {
    const user = assertUser(request);
    const page = requestedPage(visit.query);
    if (page === null) throw pageNotFound();
    const { rows, total } = await forum.watchedTopics(user, pageRequest({ page, per_page: WATCHED_PER_PAGE }));
    const last = lastPage(total, WATCHED_PER_PAGE);
    if (page > last) throw pageNotFound();
    const [headings, unread, lastPosts] = await Promise.all([
      presenter.headings(rows),
      forum.unread.ofTopics(
        user,
        rows.map((row) => row.id),
      ),
      forum.topics.lastPosts(rows.map((row) => row.id)),
    ]);
    const href = (n: number) => watchlistPath(n === 1 ? {} : { page: n });
    const unwatchPath = withQuery(`${watchlistPath()}unwatch/`, page === 1 ? {} : { page });
    return sendPage(request, reply, {
      title: t('watchlist.title'),
      canonical: href(page),
      status: errors === undefined ? 200 : 422,
      body: html`<h1>${t('watchlist.title')}</h1>
${errors === undefined ? '' : failedNotice(undefined, errors, [])}
<p class="muted">${t('watchlist.intro')}</p>
${
  rows.length === 0
    ? html`<p>${t('watchlist.empty')}</p>`
    : topicTable(rows, headings, {
        caption: t('watchlist.caption'),
        lastPosts,
        unwrittenViews: (id) => views.unwritten(id),
        unreadCell: (topic, _index, heading) => unreadMarker(unread.get(topic.id), topicUnreadPath({ id: topic.id, title: heading.title })),
        action: (topic, heading) =>
          buttonForm(request, reply, unwatchPath, html`${t('watchlist.stop')}<span class="visually-hidden"> ${heading.html}</span>`, { topic_id: topic.id }),
      })
}
${pageNav(page, last, href)}`,
    });
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      // The list's only form has its own address; a POST here is from a page loaded before that.
      if (request.method === 'POST') throw outdatedForm();
      return show(request, reply, visit);
    },
    forms: [
      fixedForm({
        name: 'unwatch',
        body: UnwatchForm,
        async submit(request, reply, visit, body) {
          await forum.unwatch(assertUser(request), body.topic_id);
          return reply.redirect(watchlistPath(Object.fromEntries(visit.query)), 303);
        },
        invalid: (request, reply, visit, errors) => show(request, reply, visit, errors),
      }),
    ],
  };
}
