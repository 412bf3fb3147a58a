// The announce path's look-ups, answered from memory: passkey → user
// (passkeys.ts, emptied through the change feed), user → status and transfer
// totals for the ratio rule (kept USER_TTL_MS: a ban and a ratio change take
// effect within that), and
// the passkey owner's access to forums (role, accepted groups, moderated
// forums: kept with the user facts, emptied on every instance when
// memberships or grants change; the answers per forum come from the forum's
// cached rule, docs/access.md), and
// 20-byte hash → torrent (emptied through the change feed on TORRENTS_TOPIC,
// which the torrent registry publishes on every upload, status or freeleech
// change and deletion, and on TOPIC_VISIBILITY_TOPIC, which the forum publishes
// when topics are deleted, hidden, restored or published; kept at most
// TORRENT_TTL_MS as a safety net). A torrent whose topic is not public (held
// for moderation, hidden) is unknown here: refused on announce, left out of scrape.

import type { Clock } from '../../clock.ts';
import type { Kysely } from 'kysely';
import { groupIdsOf, moderatedForumsOf } from '../../auth/credentials-repository.ts';
import { idsOf } from '../../auth/service.ts';
import type { Dialect } from '../../db/dialect.ts';
import type { WriteWatch } from '../../db/write-watch.ts';
import type { ForumAccess } from '../../forum/forum-access.ts';
import type { AccessRules, Reader, ReaderPermissions } from '../../forum/permissions.ts';
import { prepare, type PreparedQuery } from '../../db/prepared.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { TOPIC_VISIBILITY_TOPIC } from '../../forum/topics.ts';
import type { Database, Role } from '../../db/schema.ts';
import type { RatioRule } from '../config.ts';
import type { PasskeyService } from '../passkeys.ts';
import { ratioVerdict } from '../ratio.ts';
import { isFrozen, type TorrentStatus } from '../torrents/statuses.ts';
import { banOver } from '../../users/ban.ts';
import type { AnnounceDirectory, TrackerTorrent, TrackerUser } from './service.ts';

export const TORRENTS_TOPIC = 'tracker_torrents';
/** The change-feed topic that empties every instance's cached passkey owners: memberships or grants changed. */
export const TRACKER_READERS_TOPIC = 'tracker_readers';
/** Writes to these change who is in which group or moderates where: the cached owners' access is stale. */
const READER_TABLES: ReadonlySet<string> = new Set(['group_members', 'forum_grants', 'user_groups']);

const USER_TTL_MS = 30_000;
const TORRENT_TTL_MS = 60_000;
const CACHE_LIMIT = 200_000;

interface CachedUser {
  user: TrackerUser | null;
  /** Who asks, for the forums' rule (docs/access.md). */
  reader: Reader | null;
  /** The rule's answers for `reader` under one snapshot of the rules (recomputed when the snapshot changes). */
  permissions: { rules: AccessRules; answers: ReaderPermissions } | null;
  /** Totals for the ratio rule, as of the look-up. */
  uploaded: number;
  downloaded: number;
  until: number;
}

interface CachedTorrent {
  torrent: TrackerTorrent | null;
  until: number;
}

export class TrackerDirectory implements AnnounceDirectory {
  readonly #db: Kysely<Database>;
  readonly #passkeys: PasskeyService;
  readonly #ratio: RatioRule;
  readonly #users = new Map<number, CachedUser>();
  /** Key: the 20 bytes as a latin1 string. */
  readonly #torrents = new Map<string, CachedTorrent>();
  /** The cached torrent objects by id (a hybrid torrent is cached under two hashes). */
  readonly #torrentsById = new Map<number, TrackerTorrent[]>();
  #generation = 0;
  /** Bumped when memberships or grants change: a look-up begun before must not fill the cache. */
  #userGeneration = 0;
  readonly #access: Pick<ForumAccess, 'rules'>;
  /** Cache lifetimes and ban ends are read on this clock (Clock.nowMs makes no Date: cheap on every announce). */
  readonly #clock: Clock;
  // Built and compiled once: a cache miss costs only the query itself.
  readonly #userQuery: PreparedQuery<
    { id: number },
    {
      id: number;
      role: Role;
      status: TrackerUser['status'];
      banned_until: string | null;
      uploaded: number | null;
      downloaded: number | null;
      moderated_forums: string | null;
      group_ids: string | null;
    }
  >;
  readonly #torrentQuery: PreparedQuery<
    { hex: string },
    { id: number; status: TorrentStatus; freeleech: TrackerTorrent['freeleech']; completed_count: number; forum_id: number }
  >;

  constructor(
    db: Kysely<Database>,
    database: { dialect: Dialect; changes: ChangeFeed; writes: WriteWatch },
    access: Pick<ForumAccess, 'rules'>,
    passkeys: PasskeyService,
    ratio: RatioRule,
    clock: Clock,
    onError: (error: unknown) => void,
  ) {
    const { dialect, changes, writes } = database;
    this.#db = db;
    this.#access = access;
    this.#clock = clock;
    this.#passkeys = passkeys;
    this.#ratio = ratio;
    changes.subscribe(TORRENTS_TOPIC, () => this.invalidateTorrents());
    // A deleted topic takes its torrent with it (a foreign key), and a hidden one hides it, without the registry hearing of it.
    changes.subscribe(TOPIC_VISIBILITY_TOPIC, () => this.invalidateTorrents());
    // A membership or grant changed (here: this process's write; elsewhere: the feed): the next announce reads its owner again.
    writes.subscribe((tables) => {
      for (const table of tables) {
        if (!READER_TABLES.has(table)) continue;
        changes.publish(TRACKER_READERS_TOPIC).catch(onError);
        return;
      }
    });
    changes.subscribe(TRACKER_READERS_TOPIC, () => this.invalidateUsers());
    this.#userQuery = prepare(db, (slot) =>
      this.#db
        .selectFrom('users as u')
        .leftJoin('tracker_user_stats', 'tracker_user_stats.user_id', 'u.id')
        .select(['u.id', 'u.role', 'u.status', 'u.banned_until', 'tracker_user_stats.uploaded', 'tracker_user_stats.downloaded'])
        .select((eb) => [moderatedForumsOf(dialect, eb), groupIdsOf(dialect, eb)])
        .where('u.id', '=', slot('id')),
    );
    this.#torrentQuery = prepare(db, (slot) =>
      this.#db
        .selectFrom('torrents')
        .innerJoin('topics', 'topics.id', 'torrents.topic_id')
        .select(['torrents.id', 'torrents.status', 'torrents.freeleech', 'torrents.completed_count', 'topics.forum_id'])
        .where((eb) => eb.or([eb('torrents.info_hash_v1', '=', slot('hex')), eb('torrents.info_hash_v2_short', '=', slot('hex'))]))
        .where('topics.status', '=', 'published')
        .where('topics.hidden_at', 'is', null)
        .limit(1),
    );
  }

  async userByPasskey(passkey: string): Promise<TrackerUser | null> {
    const userId = await this.#passkeys.lookup(passkey);
    if (userId === null) return null;
    return (await this.#userFacts(userId)).user;
  }

  /** Status and transfer totals of a user, from memory for USER_TTL_MS. */
  async #userFacts(userId: number): Promise<CachedUser> {
    const now = this.#clock.nowMs();
    const cached = this.#users.get(userId);
    if (cached !== undefined && cached.until > now) return cached;
    const generation = this.#userGeneration;
    const [row] = await this.#userQuery({ id: userId });
    const facts: CachedUser = {
      // A ban whose end has passed no longer refuses the passkey (the login lifts it in the database).
      user: row === undefined ? null : { id: row.id, status: row.status === 'banned' && banOver(row, new Date(now).toISOString()) ? 'active' : row.status },
      reader: row === undefined ? null : { id: row.id, role: row.role, groupIds: idsOf(row.group_ids), moderatedForums: idsOf(row.moderated_forums) },
      permissions: null,
      uploaded: row?.uploaded ?? 0,
      downloaded: row?.downloaded ?? 0,
      until: now + USER_TTL_MS,
    };
    if (generation === this.#userGeneration) bounded(this.#users, userId, facts);
    return facts;
  }

  /**
   * What the user may do in each forum, by the forum's one rule. The answers
   * are kept with the user's facts while the rules' snapshot is the same one,
   * so an announce costs a map look-up; a change of levels or grants makes a
   * new snapshot (ForumAccess), a change of memberships empties the facts.
   */
  async permissions(userId: number): Promise<ReaderPermissions> {
    const [facts, rules] = await Promise.all([this.#userFacts(userId), this.#access.rules()]);
    if (facts.permissions?.rules === rules) return facts.permissions.answers;
    // An unknown user (refused before this is asked) has a guest's answers.
    const answers = rules.for(facts.reader);
    facts.permissions = { rules, answers };
    return answers;
  }

  async torrentByHash(hash: Buffer): Promise<TrackerTorrent | null> {
    const key = hash.toString('latin1');
    const now = this.#clock.nowMs();
    const cached = this.#torrents.get(key);
    if (cached !== undefined && cached.until > now) return cached.torrent;
    const generation = this.#generation;
    const hex = hash.toString('hex');
    const [row] = await this.#torrentQuery({ hex });
    const torrent =
      row === undefined
        ? null
        : { id: row.id, forumId: row.forum_id, frozen: isFrozen(row.status) ? row.status : null, freeleech: row.freeleech, completed: row.completed_count };
    if (generation === this.#generation) {
      bounded(this.#torrents, key, { torrent, until: now + TORRENT_TTL_MS });
      if (torrent !== null) {
        // The latest few objects (a hybrid has two hashes; a TTL refresh makes a new one); an older one only waits out its TTL.
        this.#torrentsById.set(torrent.id, [...(this.#torrentsById.get(torrent.id) ?? []), torrent].slice(-4));
      }
    }
    return torrent;
  }

  async leechRefusal(userId: number): Promise<string | null> {
    const verdict = ratioVerdict(await this.#userFacts(userId), this.#ratio);
    return verdict.allowed ? null : verdict.reason;
  }

  /** First completions written by accounting: the cached counts follow at once on this instance. */
  completed(torrentId: number, count: number): void {
    for (const torrent of this.#torrentsById.get(torrentId) ?? []) torrent.completed += count;
  }

  invalidateTorrents(): void {
    this.#generation++;
    this.#torrents.clear();
    this.#torrentsById.clear();
  }

  /** Forget cached user facts (tests, or a ban that must apply before the TTL). */
  invalidateUsers(): void {
    this.#userGeneration++;
    this.#users.clear();
  }
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key) && map.size >= CACHE_LIMIT) map.delete(map.keys().next().value!);
  map.set(key, value);
}
