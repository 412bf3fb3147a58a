// Pieces several forum pages show: the breadcrumb trail, the list of topics,
// the small one-button forms.
import { t, tn } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timeHtml } from '../../web/format.ts';
import type { TopicUnread } from '../unread.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { profilePath, type FeedFormat } from '../../urls/paths.ts';
import type { TopicHeading } from '../presenter.ts';
import type { ForumModerator, LastPost, TopicInList } from '../repository.ts';
import { postPathOn } from '../resource.ts';

export interface Crumb {
  label: string;
  href: string;
}

/** Forums › General › (the page itself, named by its h1). */
export function breadcrumb(crumbs: readonly Crumb[]): SafeHtml {
  return html`<nav aria-label="${t('breadcrumb')}"><ol class="breadcrumb"><li><a href="/">${t('layout.forums')}</a></li>${crumbs.map((crumb) => html`<li><a href="${crumb.href}">${crumb.label}</a></li>`)}</ol></nav>`;
}

export interface TopicListOptions {
  caption: string;
  /** Views counted in memory and not yet written (see view-counter.ts). */
  unwrittenViews: (topicId: number) => number;
  /** What the Views cell shows instead of the count (the page cache's hole for it). */
  viewsCell?: (topic: TopicInList, index: number) => SafeHtml;
  /** After the title: the member's unread marker (unreadMarker), or the page cache's hole for it. */
  unreadCell?: (topic: TopicInList, index: number, heading: TopicHeading) => SafeHtml;
  /** Under the title: what other capabilities add (a release's line), or the page cache's hole for it. */
  lineCell?: (topic: TopicInList, index: number) => SafeHtml;
  /** The newest published post of each topic on the list (Topics.lastPosts), for the "Last post" column. */
  lastPosts?: ReadonlyMap<number, LastPost>;
  /** Extra last column, e.g. an "Stop watching" button. */
  action?: (topic: TopicInList, heading: TopicHeading) => SafeHtml;
}

/** Topics as a table; `headings[i]` is presenter.heading(rows[i]). */
export function topicTable(rows: readonly TopicInList[], headings: readonly TopicHeading[], options: TopicListOptions): SafeHtml {
  const authors = new AuthorLinks();
  return html`<div class="table-wrap"><table class="topics cards">
<caption>${options.caption}</caption>
<thead><tr><th scope="col">${t('topics.topic')}</th><th scope="col">${t('topics.started_by')}</th><th scope="col" class="num">${t('topics.posts')}</th><th scope="col" class="num">${t('topics.views')}</th><th scope="col">${t('topics.last_post')}</th>${options.action === undefined ? '' : html`<th scope="col"><span class="visually-hidden">${t('topics.actions')}</span></th>`}</tr></thead>
<tbody>
${rows.map((topic, index) => {
  const heading = headings[index]!;
  return html`<tr${topic.status === 'pending' ? html` class="pending"` : ''}>
<td><a href="${heading.path}">${heading.html}</a>${topicBadges(topic)}${topic.status === 'pending' ? html` <span class="badge">${t('topics.pending')}</span>` : ''}${options.unreadCell?.(topic, index, heading) ?? ''}${options.lineCell?.(topic, index) ?? ''}</td>
<td data-label="${t('topics.started_by')}">${authors.link(topic.author_id, topic.author_name, topic.guest_name)}</td>
<td class="num" data-label="${t('topics.posts')}">${topic.posts_count}</td>
<td class="num" data-label="${t('topics.views')}">${options.viewsCell?.(topic, index) ?? topic.views_count + options.unwrittenViews(topic.id)}</td>
<td data-label="${t('topics.last_post')}">${lastPostCell(options.lastPosts?.get(topic.id), heading, authors) ?? timeHtml(topic.last_post_at)}</td>
${options.action === undefined ? '' : html`<td>${options.action(topic, heading)}</td>`}
</tr>`;
})}
</tbody>
</table></div>`;
}

/** "<time> by <author>", the time linked to the post; undefined when the topic has no published post to name. */
export function lastPostCell(post: LastPost | undefined, heading: { path: string }, authors: AuthorLinks): SafeHtml | undefined {
  if (post === undefined) return undefined;
  return html`<a href="${postPathOn(heading.path, post.post_id)}">${timeHtml(post.created_at)}</a><br><span class="muted">${t('forums.by')}</span> ${authors.link(post.author_id, post.author_name, post.guest_name)}`;
}

/** Links to authors' profiles, each built once per page (a page lists many posts of few authors). */
export class AuthorLinks {
  readonly #links = new Map<number, SafeHtml>();

  /** `guestName`: what an imported guest's post or topic showed upstream, in place of an account. */
  link(id: number | null, name: string | null, guestName: string | null = null): SafeHtml {
    if (id === null || name === null)
      return guestName === null ? html`<span class="muted">${t('topics.deleted_user')}</span>` : html`<span class="muted">${guestName}</span>`;
    let link = this.#links.get(id);
    if (link === undefined) {
      link = html`<a href="${profilePath({ id, name })}">${name}</a>`;
      this.#links.set(id, link);
    }
    return link;
  }
}

/** "Moderators: Ann, Bob" under a forum's name (profiles linked), as TorrentPier shows them; nothing for a forum without any. */
export function moderatorsLine(moderators: readonly ForumModerator[], authors: AuthorLinks = new AuthorLinks()): SafeHtml {
  if (moderators.length === 0) return html``;
  return html`<p class="moderators"><span class="muted">${t('forums.moderators')}</span> ${moderators.map((moderator, index) => html`${index === 0 ? '' : ', '}${authors.link(moderator.id, moderator.username)}`)}</p>`;
}

/** "Announcement", "Pinned", "Locked" and (for moderators' eyes) "Hidden", where they apply: beside a topic's title on its page and in lists. */
export function topicBadges(topic: { announced: boolean | number; pinned: boolean | number; locked: boolean | number; hidden_at: string | null }): SafeHtml {
  return html`${topic.announced ? html` <span class="badge">${t('topics.announcement')}</span>` : ''}${topic.pinned ? html` <span class="badge">${t('topics.pinned')}</span>` : ''}${topic.locked ? html` <span class="badge">${t('topics.locked')}</span>` : ''}${topic.hidden_at === null ? '' : html` <span class="badge">${t('topics.hidden')}</span>`}`;
}

/** A form that is only a button (watch, unwatch): posts its hidden `fields` to `target`, the action's own address. */
export function buttonForm(
  request: FastifyRequest,
  reply: FastifyReply,
  target: string,
  label: string | SafeHtml,
  fields: Record<string, string | number> = {},
  look: 'secondary' | 'danger' = 'secondary',
): SafeHtml {
  return html`<form method="post" action="${target}" class="inline">${csrfInput(request, reply)}${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<button type="submit" class="${look}">${label}</button></form>`;
}

export function postsCount(count: number): string {
  return tn('topics.post_count', count);
}

/** `<link rel="alternate">` for a page's Atom and RSS feeds, which browsers and readers discover from the page. */
export function feedLinks(title: string, path: (format: FeedFormat) => string): SafeHtml {
  return html`<link rel="alternate" type="application/atom+xml" title="${title} (Atom)" href="${path('atom')}">
<link rel="alternate" type="application/rss+xml" title="${title} (RSS)" href="${path('rss')}">`;
}

/** The same feeds as links a reader sees (a feed reader takes either address); `title` names them for the pointer's tooltip. */
export function visibleFeedLinks(title: string, path: (format: FeedFormat) => string): SafeHtml {
  return html`<span class="feeds">${t('feed.subscribe')} <a href="${path('atom')}" title="${title} (Atom)">Atom</a> · <a href="${path('rss')}" title="${title} (RSS)">RSS</a></span>`;
}

/**
 * A member's marker on a topic with posts they have not read: how many, as a
 * link to the first of them (`/topic/{slug}.{id}/unread/`). Nothing when all
 * is read.
 */
export function unreadMarker(unread: TopicUnread | undefined, unreadPath: string): SafeHtml {
  if (unread === undefined) return html``;
  return html` <a class="badge unread" href="${unreadPath}">${tn('topics.new_posts', unread.unread_posts)}<span class="visually-hidden">${t('topics.go_first')}</span></a>`;
}
