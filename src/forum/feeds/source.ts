// The contents of the site's, a forum's and a topic's feeds, as a guest sees
// them whoever asks: published topics and posts only (a feed is fetched by
// readers and caches that share it, never with the member's session), with
// titles and bodies displayed as on the pages. So a feed holds only what
// guests may read (docs/access.md): the site's feed the topics of forums
// guests may read, and a forum's or topic's feed exists only for a forum
// guests may read (feeds/routes.ts: 404 where guests may not view it, 403
// where they may view but not read).
import { ApiError } from '../../http/errors.ts';
import { t } from '../../i18n/messages.ts';
import type { ForumAccess } from '../forum-access.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { ForumRepository, ForumRow, TopicInFeed, PostInFeed, TopicWithAuthor } from '../repository.ts';
import { postPathOn } from '../resource.ts';
import { absoluteUrl, forumFeedPath, forumPath, profilePath, siteFeedPath, topicFeedPath, topicPath, type FeedFormat } from '../../urls/paths.ts';
import { absoluteHtml, type Feed, type FeedAuthor, type FeedEntry } from './model.ts';

/** Entries per feed: the newest twenty (phpBB shows 15, Discourse 20+). */
export const FEED_ENTRIES = 20;

/** Where the feed is read from: the trusted origin of absolute links and the site's name. */
export interface FeedSite {
  origin: string;
  name: string;
}

/** When the site has no topic at all, its feed's `updated` (a fixed time, so its ETag and Last-Modified stay put). */
const NEVER = '1970-01-01T00:00:00.000Z';

export class FeedSource {
  readonly #repository: ForumRepository;
  readonly #presenter: ForumPresenter;
  readonly #access: ForumAccess;

  constructor(repository: ForumRepository, presenter: ForumPresenter, access: ForumAccess) {
    this.#repository = repository;
    this.#presenter = presenter;
    this.#access = access;
  }

  /** The newest topics of every forum guests may read. */
  async site(site: FeedSite): Promise<Feed> {
    const scope = (await this.#access.of(null)).readScope();
    const entries = await this.#topicEntries(site, await this.#repository.publishedTopicsWithOpening(null, scope, FEED_ENTRIES));
    return {
      id: absoluteUrl(site.origin, siteFeedPath('atom')),
      title: `${site.name}: newest topics`,
      subtitle: `The newest topics in every forum of ${site.name}`,
      page: absoluteUrl(site.origin, '/'),
      self: selfLinks(site, siteFeedPath),
      updated: newest(entries, NEVER),
      siteName: site.name,
      entries,
    };
  }

  /** The newest topics of a forum (the caller found that guests may read it: guestsMayRead). */
  async forum(site: FeedSite, forum: ForumRow): Promise<Feed> {
    const entries = await this.#topicEntries(site, await this.#repository.publishedTopicsWithOpening(forum.id, null, FEED_ENTRIES));
    return {
      id: absoluteUrl(site.origin, forumFeedPath({ id: forum.id, name: '' }, 'atom')),
      title: `${forum.name} · ${site.name}`,
      subtitle: forum.description === '' ? `The newest topics in ${forum.name}` : forum.description,
      page: absoluteUrl(site.origin, forumPath(forum)),
      self: selfLinks(site, (format) => forumFeedPath(forum, format)),
      updated: newest(entries, forum.updated_at),
      siteName: site.name,
      entries,
    };
  }

  /**
   * Whether guests may read this forum: throws `notFound` (the feed's own
   * 404, as for an unknown id: no forum id in it) where they may not even
   * view it, the 403 where they may view it only.
   */
  async guestsMayRead(forumId: number, notFound: () => Error): Promise<void> {
    const guests = await this.#access.of(null);
    if (!guests.may(forumId, 'view')) throw notFound();
    if (!guests.may(forumId, 'read')) throw new ApiError('FORBIDDEN', t('access.read_needed'));
  }

  /** The newest posts of a published topic (the caller loaded it as a guest sees it, and found its forum readable: guestsMayRead). */
  async topic(site: FeedSite, topic: TopicWithAuthor): Promise<Feed> {
    const [heading, rows, openingId] = await Promise.all([
      this.#presenter.heading(topic),
      this.#repository.publishedPostsOf(topic.id, FEED_ENTRIES),
      this.#repository.firstPostId(topic.id),
    ]);
    const bodies = await this.#presenter.bodies(rows);
    const postLink = (postId: number) => absoluteUrl(site.origin, postPathOn(heading.path, postId));
    const entries = rows.map((post: PostInFeed, index): FeedEntry => ({
      id: absoluteUrl(site.origin, postPathOn(permanentTopicPath(topic.id), post.id)),
      title: post.id === openingId ? heading.title : `Re: ${heading.title}`,
      link: postLink(post.id),
      published: post.created_at,
      updated: post.updated_at,
      author: author(site, post.author_id, post.author_name),
      html: absoluteHtml(bodies[index]!.value, site.origin, postLink),
    }));
    return {
      id: absoluteUrl(site.origin, topicFeedPath({ id: topic.id, title: '' }, 'atom')),
      title: heading.title,
      subtitle: `The newest posts in “${heading.title}”`,
      page: absoluteUrl(site.origin, heading.path),
      self: selfLinks(site, (format) => topicFeedPath({ id: topic.id, title: heading.title }, format)),
      updated: newest(entries, topic.updated_at),
      siteName: site.name,
      entries,
    };
  }

  /** One entry per topic: its displayed title, its opening post, updated by a rename or an edit of that post. */
  async #topicEntries(site: FeedSite, rows: readonly TopicInFeed[]): Promise<FeedEntry[]> {
    const [headings, bodies] = await Promise.all([this.#presenter.headings(rows), this.#presenter.bodies(rows)]);
    return rows.map((topic, index) => {
      const heading = headings[index]!;
      const postLink = (postId: number) => absoluteUrl(site.origin, postPathOn(heading.path, postId));
      return {
        id: absoluteUrl(site.origin, permanentTopicPath(topic.id)),
        title: heading.title,
        link: absoluteUrl(site.origin, heading.path),
        published: topic.created_at,
        updated: later(topic.updated_at, topic.body_updated_at),
        author: author(site, topic.author_id, topic.author_name),
        html: absoluteHtml(bodies[index]!.value, site.origin, postLink),
      };
    });
  }
}

/** The topic's address without a slug: it still opens the topic (301 to the current slug) and survives renames. */
function permanentTopicPath(id: number): string {
  return topicPath({ id, title: '' });
}

function selfLinks(site: FeedSite, path: (format: FeedFormat) => string): Record<FeedFormat, string> {
  return { atom: absoluteUrl(site.origin, path('atom')), rss: absoluteUrl(site.origin, path('rss')) };
}

function author(site: FeedSite, id: number | null, name: string | null): FeedAuthor | null {
  return id === null || name === null ? null : { name, uri: absoluteUrl(site.origin, profilePath({ id, name })) };
}

function later(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

function newest(entries: readonly FeedEntry[], fallback: string): string {
  return entries.reduce((latest, entry) => later(latest, entry.updated), entries.length === 0 ? fallback : entries[0]!.updated);
}
