// `/`: the forums, in their display order.
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { forumPath, siteFeedPath, withQuery } from '../../urls/paths.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fixedForm, pageNotFound, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { assertUser } from '../../auth/guard.ts';
import { outdatedForm } from '../../web/form.ts';
import { counted, timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { AuthorLinks, buttonForm, feedLinks } from './parts.ts';
import type { TopicHeading } from '../presenter.ts';
import type { LastPost } from '../repository.ts';
import { postPathOn } from '../resource.ts';
import { NoFields } from '../../web/form.ts';

export const FORUMS_PER_PAGE = PER_PAGE_DEFAULT;

export function homePage({ forum, presenter }: ForumPageDeps): FixedPage {
  /** Per forum, its latest topic as displayed and that topic's newest published post. */
  async function lastPostsOf(forumIds: readonly number[]): Promise<Map<number, { heading: TopicHeading; post: LastPost }>> {
    const topics = await forum.forums.latestTopics(forumIds);
    const entries = [...topics];
    const [headings, posts] = await Promise.all([
      presenter.headings(entries.map(([, topic]) => topic)),
      forum.topics.lastPosts(entries.map(([, topic]) => topic.id)),
    ]);
    const lines = new Map<number, { heading: TopicHeading; post: LastPost }>();
    entries.forEach(([forumId, topic], index) => {
      const post = posts.get(topic.id);
      if (post !== undefined) lines.set(forumId, { heading: headings[index]!, post });
    });
    return lines;
  }

  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply> {
    const page = requestedPage(visit.query);
    if (page === null) throw pageNotFound();
    const [{ rows, total }, unread] = await Promise.all([
      forum.listForums(pageRequest({ page, per_page: FORUMS_PER_PAGE })),
      forum.unread.forumsWithUnread(request.user),
    ]);
    const last = lastPage(total, FORUMS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const latest = await lastPostsOf(rows.map((row) => row.id));
    const authors = new AuthorLinks();
    const href = (n: number) => withQuery('/', n === 1 ? {} : { page: n });
    return sendPage(request, reply, {
      title: 'Forums',
      canonical: href(page),
      head: feedLinks('Newest topics', siteFeedPath),
      body: html`<h1>Forums</h1>
${request.user === null ? '' : html`<div class="actions">${buttonForm(request, reply, withQuery('/mark-read/', page === 1 ? {} : { page }), 'Mark all forums read')}</div>`}
${
  rows.length === 0
    ? html`<p>There are no forums yet.</p>`
    : html`<div class="table-wrap"><table class="forums">
<caption class="visually-hidden">Forums</caption>
<thead><tr><th scope="col">Forum</th><th scope="col">Topics</th><th scope="col">Posts</th><th scope="col">Last post</th></tr></thead>
<tbody>
${rows.map((row) => html`<tr><td><a href="${forumPath(row)}">${row.name}</a>${forumUnreadMarker(unread.get(row.id))}${row.description === '' ? '' : html`<p class="muted">${row.description}</p>`}</td><td>${row.topics_count}</td><td>${row.posts_count}</td><td>${lastPostLine(latest.get(row.id), authors)}</td></tr>`)}
</tbody>
</table></div>`
}
${pageNav(page, last, href)}`,
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

/** "<topic> by <author>, <time>": the forum's newest post, linked; a dash for a forum without one. */
function lastPostLine(line: { heading: TopicHeading; post: LastPost } | undefined, authors: AuthorLinks): SafeHtml {
  if (line === undefined) return html`<span class="muted">—</span>`;
  const { heading, post } = line;
  return html`<a href="${postPathOn(heading.path, post.post_id)}">${heading.html}</a><br><span class="muted">by</span> ${authors.link(post.author_id, post.author_name, post.guest_name)}, ${timeHtml(post.created_at)}`;
}

/** A member's marker on a forum with topics they have not read to the end. */
function forumUnreadMarker(topics: number | undefined): SafeHtml {
  return topics === undefined ? html`` : html` <span class="badge unread">${counted(topics, 'topic with new posts', 'topics with new posts')}</span>`;
}
