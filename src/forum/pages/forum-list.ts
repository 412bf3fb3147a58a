// A table of forums, as the index lists the top-level forums and a forum page
// its subforums (docs/forums.md): name and description, the subforums as links
// under it, topics and posts counted with its subforums', and the newest post
// among them ("<topic> by <author>, <time>"), and the forum's moderators as
// TorrentPier listed them. A member also sees how many topics have posts they
// have not read.
import type { AuthUser } from '../../auth/service.ts';
import { forumPath } from '../../urls/paths.ts';
import { timeHtml } from '../../web/format.ts';
import { number, t, tn } from '../../i18n/messages.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { TopicHeading } from '../presenter.ts';
import type { ForumModerator, ForumRow, LastPost } from '../repository.ts';
import { postPathOn } from '../resource.ts';
import type { ForumPageDeps } from './deps.ts';
import { AuthorLinks, moderatorsLine, type Crumb } from './parts.ts';
import type { ForumService } from '../service.ts';

interface LastPostLine {
  heading: TopicHeading;
  post: LastPost;
}

export interface ForumListing {
  rows: readonly ForumRow[];
  subforums: ReadonlyMap<number, ForumRow[]>;
  latest: ReadonlyMap<number, LastPostLine>;
  unread: ReadonlyMap<number, number>;
  /** Each listed forum's own moderators (forums without any are absent). */
  moderators: ReadonlyMap<number, ForumModerator[]>;
}

/** What the table needs about these forums and their subforums, read at once. */
export async function loadForumListing(
  { forum, presenter }: Pick<ForumPageDeps, 'forum' | 'presenter'>,
  rows: readonly ForumRow[],
  viewer: AuthUser | null,
): Promise<ForumListing> {
  // Only top-level forums have subforums: a list of subforums (a forum page's) asks for none.
  const permissions = await forum.access.of(viewer);
  const subforums = await forum.forums.subforums(
    rows.filter((row) => row.parent_id === null).map((row) => row.id),
    permissions,
  );
  // A forum that may be viewed but not read lists no last post (docs/access.md, `read`).
  const readable = [...rows, ...[...subforums.values()].flat()].map((row) => row.id).filter((id) => permissions.may(id, 'read'));
  const [topics, unread, moderators] = await Promise.all([
    forum.forums.latestTopics(readable),
    forum.unread.forumsWithUnread(viewer),
    forum.moderators.ofForums(rows.map((row) => row.id)),
  ]);
  const entries = [...topics];
  const [headings, posts] = await Promise.all([
    presenter.headings(entries.map(([, topic]) => topic)),
    forum.topics.lastPosts(entries.map(([, topic]) => topic.id)),
  ]);
  const latest = new Map<number, LastPostLine>();
  entries.forEach(([forumId, topic], index) => {
    const post = posts.get(topic.id);
    if (post !== undefined) latest.set(forumId, { heading: headings[index]!, post });
  });
  return { rows, subforums, latest, unread, moderators };
}

export function forumTable(listing: ForumListing, caption: string): SafeHtml {
  const authors = new AuthorLinks();
  return html`<div class="table-wrap"><table class="forums cards">
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">${t('forums.forum')}</th><th scope="col" class="num">${t('forums.topics')}</th><th scope="col" class="num">${t('forums.posts')}</th><th scope="col">${t('forums.last_post')}</th></tr></thead>
<tbody>
${listing.rows.map((row) => {
  const family = [row, ...(listing.subforums.get(row.id) ?? [])];
  const sum = (count: (forum: ForumRow) => number) => family.reduce((total, forum) => total + count(forum), 0);
  const newest = family
    .map((forum) => listing.latest.get(forum.id))
    .filter((line) => line !== undefined)
    .reduce<LastPostLine | undefined>((best, line) => (best === undefined || line.post.created_at > best.post.created_at ? line : best), undefined);
  const children = listing.subforums.get(row.id) ?? [];
  return html`<tr><td><a href="${forumPath(row)}">${row.name}</a>${unreadMarker(sum((forum) => listing.unread.get(forum.id) ?? 0))}${
    row.description === '' ? '' : html`<p class="muted">${row.description}</p>`
  }${
    children.length === 0
      ? ''
      : html`<p class="subforums"><span class="muted">${t('forums.subforums')}</span> ${children.map((child, index) => html`${index === 0 ? '' : ', '}<a href="${forumPath(child)}">${child.name}</a>`)}</p>`
  }${moderatorsLine(listing.moderators.get(row.id) ?? [], authors)}</td><td class="num" data-label="${t('forums.topics')}">${number(sum((forum) => forum.topics_count))}</td><td class="num" data-label="${t('forums.posts')}">${number(
    sum((forum) => forum.posts_count),
  )}</td><td data-label="${t('forums.last_post')}">${lastPostLine(newest, authors)}</td></tr>`;
})}
</tbody>
</table></div>`;
}

/** "<topic> by <author>, <time>": the newest post, linked; a dash for a forum without one. */
function lastPostLine(line: LastPostLine | undefined, authors: AuthorLinks): SafeHtml {
  if (line === undefined) return html`<span class="muted">—</span>`;
  const { heading, post } = line;
  return html`<a href="${postPathOn(heading.path, post.post_id)}">${heading.html}</a><br><span class="muted">${t('forums.by')}</span> ${authors.link(post.author_id, post.author_name, post.guest_name)}, ${timeHtml(post.created_at)}`;
}

/** A member's marker on a forum with topics they have not read to the end. */
function unreadMarker(topics: number): SafeHtml {
  return topics === 0 ? html`` : html` <span class="badge unread">${tn('forums.unread', topics)}</span>`;
}

/** The breadcrumb's forums above a page: a subforum's parent, then the forum itself when `withItself` (a topic page). */
export async function forumCrumbs(forum: ForumService, row: ForumRow, withItself: boolean): Promise<Crumb[]> {
  const parent = row.parent_id === null ? undefined : await forum.getForum(row.parent_id);
  return [
    ...(parent === undefined ? [] : [{ label: parent.name, href: forumPath(parent) }]),
    ...(withItself ? [{ label: row.name, href: forumPath(row) }] : []),
  ];
}
