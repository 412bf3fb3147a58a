// `/`: the top-level forums under their categories' headings (categories in
// their display order, then the forums in none under a neutral heading), each
// forum with its subforums (forum-list.ts). Paged by top-level forums: a
// category cut by a page boundary has its heading on both pages.
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { siteFeedPath, withQuery } from '../../urls/paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fixedForm, pageNotFound, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { assertUser } from '../../auth/guard.ts';
import { isStaff } from '../service.ts';
import { outdatedForm } from '../../web/form.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { number, t } from '../../i18n/messages.ts';
import { tHtml } from '../../web/translated.ts';
import { profilePath } from '../../urls/paths.ts';
import { ONLINE_WINDOW_MS } from '../../site/presence.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { buttonForm, feedLinks, visibleFeedLinks } from './parts.ts';
import { forumTable, loadForumListing, type ForumListing } from './forum-list.ts';
import type { IndexGroup } from '../categories.ts';
import { NoFields } from '../../web/form.ts';

export const FORUMS_PER_PAGE = PER_PAGE_DEFAULT;

/** One heading of the index and its forums' table; the forums in no category under a neutral heading. */
function categorySection(group: IndexGroup, listing: ForumListing): SafeHtml {
  const id = group.category === null ? 'category-none' : `category-${group.category.id}`;
  const title = group.category?.title ?? t('home.other_forums');
  return html`<section class="category" aria-labelledby="${id}">
<h2 id="${id}">${title}</h2>
${forumTable({ ...listing, rows: group.forums }, title)}
</section>`;
}

/** The board's figures and who is online, under the forums (TorrentPier's index shows both). */
async function boardSection(request: FastifyRequest, { boardStats, presence, addons }: ForumPageDeps): Promise<SafeHtml> {
  if (boardStats === undefined || presence === undefined) return html``;
  // The reader is online too: the response's hook (app.ts) counts them only once the page is sent.
  presence.seenBy(request);
  const [figures, more] = await Promise.all([boardStats.current(), addons?.indexLines?.() ?? html``]);
  // Members who chose to hide are counted for everyone and named to staff only, marked as hidden.
  const staff = isStaff(request.user);
  const online = presence.online(staff);
  const named = online.members.map((member, index) => {
    const link = html`<a href="${profilePath(member)}">${member.name}</a>`;
    return html`${index === 0 ? '' : ', '}${member.hidden ? html`<em>${link} (${t('home.online.hidden_mark')})</em>` : link}`;
  });
  const unnamed = (staff ? online.memberCount : online.memberCount - online.hiddenCount) - online.members.length;
  return html`<section class="board-stats" aria-labelledby="board-stats">
<h2 id="board-stats">${t('home.stats')}</h2>
<p>${t('home.stats.content', { topics: number(figures.topics), posts: number(figures.posts), members: number(figures.members) })}${
    figures.newest === null ? '' : html` ${tHtml('home.stats.newest', { name: html`<a href="${profilePath(figures.newest)}">${figures.newest.name}</a>` })}`
  }</p>
${more}
<h3>${t('home.online')}</h3>
<p>${t('home.online.count', { members: number(online.memberCount), guests: number(online.guestCount), minutes: ONLINE_WINDOW_MS / 60_000 })}${
    online.hiddenCount === 0 ? '' : html` ${t('home.online.hidden', { count: number(online.hiddenCount) })}`
  }${online.members.length === 0 ? '' : html` ${named}${unnamed > 0 ? html` ${t('home.online.more', { count: number(unnamed) })}` : ''}`}</p>
</section>`;
}

export function homePage(deps: ForumPageDeps): FixedPage {
  const { forum } = deps;
  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply> {
    const page = requestedPage(visit.query);
    if (page === null) throw pageNotFound();
    const { groups, total, hasCategories } = await forum.categories.index(
      pageRequest({ page, per_page: FORUMS_PER_PAGE }),
      await forum.access.of(request.user),
    );
    const last = lastPage(total, FORUMS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const [listing, stats] = await Promise.all([
      loadForumListing(
        deps,
        groups.flatMap((group) => group.forums),
        request.user,
      ),
      boardSection(request, deps),
    ]);
    const href = (n: number) => withQuery('/', n === 1 ? {} : { page: n });
    return sendPage(request, reply, {
      title: t('home.title'),
      canonical: href(page),
      head: feedLinks(t('home.feed'), siteFeedPath),
      body: html`<h1>${t('home.title')}</h1>
<div class="actions">${request.user === null ? '' : buttonForm(request, reply, withQuery('/mark-read/', page === 1 ? {} : { page }), t('home.mark_read'))}${visibleFeedLinks(t('home.feed'), siteFeedPath)}</div>
${total === 0 ? html`<p>${t('home.none')}</p>` : hasCategories ? groups.map((group) => categorySection(group, listing)) : forumTable(listing, t('home.title'))}
${pageNav(page, last, href)}
${stats}`,
    });
  }

  return {
    async serve(request, reply, visit) {
      // The page's only form ("Mark all forums read") has its own address; a POST here is from a page loaded before that.
      if (request.method === 'POST') throw outdatedForm();
      return show(request, reply, visit);
    },
    forms: [
      fixedForm({
        name: 'mark-read',
        body: NoFields,
        async submit(request, reply, visit) {
          await forum.unread.markAllRead(assertUser(request));
          return reply.redirect(withQuery('/', visit.query), 303);
        },
        invalid: (request, reply, visit) => show(request, reply, visit),
      }),
    ],
  };
}
