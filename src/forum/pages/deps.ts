// What the forum's pages work with: the same services the JSON API uses.
import type { TrackerFigures } from '../../tracker/figures.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../users/repository.ts';
import type { UsersService } from '../../users/service.ts';
import type { SafeHtml } from '../../web/html.ts';
import type { ReaderPermissions } from '../permissions.ts';
import type { ForumRow, TopicWithAuthor } from '../repository.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { PageCache } from '../page-cache.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { MemberBans } from '../member-bans.ts';
import type { ProfileMailService } from '../profile-mail.ts';
import type { Search } from '../search/service.ts';
import type { ForumService } from '../service.ts';
import type { TopicViewCounter } from '../view-counter.ts';
import type { Groups } from '../../groups/service.ts';
import type { BoardStats } from '../../site/board-stats.ts';
import type { Presence } from '../../site/presence.ts';
import type { Ranks } from '../../users/ranks.ts';

export interface ForumPageDeps {
  pages: PageRoutes;
  forum: ForumService;
  presenter: ForumPresenter;
  users: UsersService;
  views: TopicViewCounter;
  profileMail: ProfileMailService;
  bans: MemberBans;
  search: Search;
  /** Transfer, ratio, bonus and swarm figures on profiles. */
  trackerFigures: TrackerFigures;
  /** Rendered lists of topic and forum pages (page-cache.ts); absent: rendered on every view. */
  pageCache?: PageCache;
  /** What other capabilities (the tracker) add to forum pages. */
  addons?: ForumPageAddons;
  /** The index's board statistics and who is online; absent: not shown. */
  boardStats?: BoardStats;
  presence?: Presence;
  /** Groups of members: a profile lists the member's (those the viewer may see); absent: not listed. */
  groups?: Groups;
  /** Ranks shown beside posts and on profiles; absent: none shown. */
  ranks?: Ranks;
}

/** Blocks another capability adds to the forum's pages; each may be absent. */
export interface ForumPageAddons {
  /** Under a topic's heading, on its first page (the torrent block). */
  topic?(request: FastifyRequest, reply: FastifyReply, topic: TopicWithAuthor): Promise<SafeHtml>;
  /**
   * A line under each listed topic's title that other capabilities add (a
   * release's status, size and swarm), by topic id; filled on every view,
   * never kept in the page cache: swarms change without a write it watches.
   */
  topicLines?(topicIds: readonly number[]): Promise<Map<number, SafeHtml>>;
  /** After a forum page's "Start a new topic" form, for a reader who may post there (`permissions`: theirs). */
  newTopic?(request: FastifyRequest, forum: ForumRow, permissions: ReaderPermissions): SafeHtml;
  /** Under the index's board statistics (the tracker's figures). */
  indexLines?(): Promise<SafeHtml>;
  /** At the end of a member's profile. */
  profile?(request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<SafeHtml>;
  /**
   * Lines under each author's name beside their posts (their ratio), by user
   * id; filled on every view, never kept in the page cache: they change
   * without a write the cache watches.
   */
  authorLines?(userIds: readonly number[]): Promise<Map<number, SafeHtml>>;
}
