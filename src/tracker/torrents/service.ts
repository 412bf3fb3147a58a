// The torrent registry's rules: who may attach a .torrent to which topic,
// duplicates, statuses with their history, freeleech, deletion, lists, and
// .torrent downloads (frozen statuses, the ratio rule, the daily limit).
// Every change is published on the change feed (TORRENTS_TOPIC) so that the
// announce path's cache on every instance forgets what it knew.
import type { Logger } from 'pino';
import { type Clock, isoNow, msNow } from '../../clock.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { TopicWithAuthor } from '../../forum/repository.ts';
import { canSee } from '../../forum/access.ts';
import type { ForumAccess } from '../../forum/forum-access.ts';
import type { ReaderPermissions } from '../../forum/permissions.ts';
import { isStaff } from '../../forum/service.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError, ValidationError } from '../../http/errors.ts';
import type { ReleaseTemplates } from '../../forum/release-templates.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { topicPath } from '../../urls/paths.ts';
import { TORRENTS_TOPIC } from '../announce/directory.ts';
import { peerLifetimeMs, type TrackerConfig } from '../config.ts';
import { MetainfoError, torrentForUser, type Metainfo } from '../metainfo.ts';
import { MetainfoBusyError, metainfoPool } from '../metainfo-pool.ts';
import type { PasskeyService } from '../passkeys.ts';
import { ratioVerdict } from '../ratio.ts';
import type { SwarmStore } from '../swarm/store.ts';
import type { StatusChangeRow, TorrentFileRow, TorrentFilters, TorrentRow, TorrentsRepository } from './repository.ts';
import { INITIAL_STATUS, isFrozen, statusLabel, type Freeleech, type TorrentStatus } from './statuses.ts';
import { fieldName } from '../../i18n/field-names.ts';
import { t, tn } from '../../i18n/messages.ts';

/** A torrent with its swarm now. */
export type TorrentView = TorrentRow & { seeders: number; leechers: number };

export type TorrentSort = 'registered' | 'size' | 'seeders' | 'leechers' | 'completed' | 'name';

export interface TorrentQuery {
  search?: string | undefined;
  forumId?: number | undefined;
  status?: TorrentStatus | undefined;
  uploaderId?: number | undefined;
  /** Only torrents with at least this many seeders now. */
  minSeeders?: number | undefined;
  /** Values of the forum's filterable release fields, by key (with `forumId`). */
  release?: Readonly<Record<string, string>> | undefined;
  sort: TorrentSort;
  order: 'asc' | 'desc';
}

export interface TorrentChanges {
  status?: TorrentStatus | undefined;
  freeleech?: Freeleech | undefined;
}

/**
 * Looks topics up as the forum shows them (pending topics: author and
 * moderators only), and says who may do what in each forum (docs/access.md).
 */
export interface TopicFinder {
  getTopic(id: number, viewer: AuthUser | null): Promise<TopicWithAuthor>;
  readonly access: Pick<ForumAccess, 'of' | 'rules'>;
  /** Forums' release templates, whose filterable fields select torrents (docs/release-templates.md). */
  readonly releases: Pick<ReleaseTemplates, 'of'>;
}

export interface DownloadedTorrent {
  filename: string;
  bytes: Buffer;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Most of a member's active torrents listed on their profile. */
const ACTIVE_LISTED = 100;

export class TorrentsService {
  readonly #repository: TorrentsRepository;
  readonly #topics: TopicFinder;
  readonly #passkeys: PasskeyService;
  readonly #swarm: Pick<SwarmStore, 'counts' | 'dropSwarm'>;
  readonly #changes: ChangeFeed;
  readonly #settings: TrackerConfig;
  readonly #clock: Clock;
  readonly #log: Logger;
  /** Uploads parsed during their request, by the request's file (see #parse). */
  readonly #parsed = new WeakMap<Buffer, { origin: string; facts: Promise<Metainfo> }>();

  constructor(
    repository: TorrentsRepository,
    topics: TopicFinder,
    passkeys: PasskeyService,
    swarm: Pick<SwarmStore, 'counts' | 'dropSwarm'>,
    changes: ChangeFeed,
    settings: TrackerConfig,
    clock: Clock,
    log: Logger,
  ) {
    this.#clock = clock;
    this.#log = log;
    this.#repository = repository;
    this.#topics = topics;
    this.#passkeys = passkeys;
    this.#swarm = swarm;
    this.#changes = changes;
    this.#settings = settings;
  }

  get maxTorrentBytes(): number {
    return this.#settings.maxTorrentBytes;
  }

  /**
   * Registers a .torrent on a topic. The topic's author may attach one to a
   * topic without one; moderators may attach one anywhere and replace an
   * existing one. `origin` is the site's origin (the announce URL's base).
   */
  async upload(user: AuthUser, topicId: number, bytes: Buffer | undefined, origin: string): Promise<TorrentView> {
    const topic = await this.#topicFor(topicId, user);
    const permissions = await this.#topics.access.of(user);
    // A topic in a forum that does not exist for the uploader is an unknown topic, as in #topicFor.
    if (!permissions.may(topic.forum_id, 'view')) throw ValidationError.field('topic_id', t('validation.selected', { field: fieldName('topic_id') }));
    if (!permissions.may(topic.forum_id, 'upload')) throw new ApiError('FORBIDDEN', t('tracker.upload_forbidden'));
    const staff = isStaff(user);
    if (!staff && topic.author_id !== user.id) throw new ApiError('FORBIDDEN', t('tracker.attach_forbidden'));
    const existing = await this.#repository.findByTopic(topic.id);
    if (existing !== undefined && !staff) throw ValidationError.field('topic_id', t('tracker.has_torrent'));
    const facts = await this.check(bytes, origin, user, existing?.id);

    const at = isoNow(this.#clock);
    let id: number;
    try {
      id = await this.#repository.transaction(async (trx) => {
        if (existing !== undefined) await this.#repository.delete(existing.id, trx);
        return this.#repository.insert(
          {
            topic_id: topic.id,
            uploader_id: user.id,
            info_hash_v1: facts.infoHashV1,
            info_hash_v2: facts.infoHashV2,
            name: facts.name,
            size: facts.size,
            piece_length: facts.pieceLength,
            piece_count: facts.pieceCount,
            creation_date: facts.creationDate,
            metainfo: facts.torrent,
            status: INITIAL_STATUS,
            files: facts.files,
          },
          at,
          trx,
        );
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Registered a moment ago by another request: the same torrent, or a second one on this topic.
      const winner = await this.#repository.findByHashes(facts.infoHashV1, facts.infoHashV2);
      if (winner !== undefined) throw duplicateError(winner, origin, user, await this.#topics.access.of(user));
      throw ValidationError.field('topic_id', t('tracker.has_torrent'));
    }
    await this.#changed(existing?.id);
    return this.get(id, user);
  }

  /** Validates a .torrent and refuses one already registered (422 on file), without registering it. */
  async check(bytes: Buffer | undefined, origin: string, uploader: AuthUser, replacing?: number): Promise<Metainfo> {
    if (bytes === undefined) throw ValidationError.field('file', t('validation.required', { field: fieldName('file') }));
    let facts: Metainfo;
    try {
      facts = await this.#parse(bytes, origin);
    } catch (error) {
      if (error instanceof MetainfoError) throw ValidationError.field('file', error.message);
      if (error instanceof MetainfoBusyError)
        throw new ApiError('SERVICE_UNAVAILABLE', error.message, { headers: { 'retry-after': String(error.retryAfter) } });
      throw error;
    }
    const duplicate = await this.#repository.findByHashes(facts.infoHashV1, facts.infoHashV2);
    if (duplicate !== undefined && duplicate.id !== replacing) throw duplicateError(duplicate, origin, uploader, await this.#topics.access.of(uploader));
    return facts;
  }

  /**
   * Parses on a worker thread: a large .torrent is seconds of work the event loop must not do. A page that checks
   * the file before it starts a topic and then registers it gets the first result again, not a second parse.
   */
  #parse(bytes: Buffer, origin: string): Promise<Metainfo> {
    const known = this.#parsed.get(bytes);
    if (known !== undefined && known.origin === origin) return known.facts;
    const facts = metainfoPool.parse(bytes, { maxBytes: this.#settings.maxTorrentBytes, announceUrl: announceUrl(origin) });
    this.#parsed.set(bytes, { origin, facts });
    return facts;
  }

  /** The torrent an imported TorrentPier 2.x attachment id stands for (old `dl.php?id=` links), or null. */
  async byLegacyAttachment(attachId: number): Promise<number | null> {
    return (await this.#repository.torrentOfAttachment(attachId)) ?? null;
  }

  /** The torrent, if the viewer may see its topic. */
  async get(id: number, viewer: AuthUser | null): Promise<TorrentView> {
    const { row } = await this.#visible(id, viewer);
    return (await this.#withSwarm([row]))[0]!;
  }

  /** What this viewer may do in each forum (docs/access.md): the pages show only the links that lead somewhere. */
  permissions(viewer: AuthUser | null): Promise<ReaderPermissions> {
    return this.#topics.access.of(viewer);
  }

  /** The torrent on a topic the caller has already loaded, or null. */
  async onTopic(topicId: number): Promise<TorrentView | null> {
    const row = await this.#repository.findByTopic(topicId);
    return row === undefined ? null : (await this.#withSwarm([row]))[0]!;
  }

  /** The torrents on topics the caller has already loaded, by topic id; topics without one are absent. */
  async onTopics(topicIds: readonly number[]): Promise<Map<number, TorrentView>> {
    const rows = await this.#withSwarm(await this.#repository.byTopics(topicIds));
    return new Map(rows.map((row) => [row.topic_id, row]));
  }

  files(id: number): Promise<TorrentFileRow[]> {
    return this.#repository.files(id);
  }

  history(id: number): Promise<StatusChangeRow[]> {
    return this.#repository.history(id);
  }

  /**
   * What a member is seeding and leeching now (their profile, as TorrentPier's): the torrents they announced
   * within a peer's lifetime (1.5 announce intervals, as the swarm store keeps peers) and did not stop, of
   * those the viewer may see. Members only: for a guest, null (nothing of anyone's activity is shown).
   */
  async activeOf(userId: number, viewer: AuthUser | null): Promise<{ seeding: TorrentRow[]; leeching: TorrentRow[] } | null> {
    if (viewer === null) return null;
    const since = new Date(msNow(this.#clock) - peerLifetimeMs(this.#settings)).toISOString();
    const active = await this.#repository.activeOf(userId, since, { words: [], ...(await this.#seenBy(viewer)) }, ACTIVE_LISTED);
    return {
      seeding: active.filter((entry) => entry.seeding).map((entry) => entry.row),
      leeching: active.filter((entry) => !entry.seeding).map((entry) => entry.row),
    };
  }

  /**
   * The release values asked for, as the repository filters by them: each a
   * filterable field of the chosen forum's template (422 naming
   * `release.{key}` otherwise, and `forum` when none is chosen).
   */
  async #releaseFilters(query: TorrentQuery): Promise<Array<{ fieldId: number; value: string }>> {
    const asked = Object.entries(query.release ?? {}).filter(([, value]) => value !== '');
    if (asked.length === 0) return [];
    if (query.forumId === undefined) throw ValidationError.field('forum', t('release.error.filter_forum'));
    const template = await this.#topics.releases.of(query.forumId);
    const errors = new FieldErrorBag();
    const filters = asked.flatMap(([key, value]) => {
      const field = template?.fields.find((candidate) => candidate.key === key && candidate.filterable);
      if (field === undefined) {
        errors.add(`release.${key}`, t('release.error.filter_unknown'));
        return [];
      }
      if (field.kind === 'number' && !/^\d{1,16}$/.test(value)) {
        errors.add(`release.${key}`, t('release.error.number'));
        return [];
      }
      return [{ fieldId: field.id, value: field.kind === 'number' ? String(Number(value)) : value }];
    });
    errors.throwIfAny();
    return filters;
  }

  /** What a viewer may see of the registry, for the repository's filters: one rule for every list. */
  async #seenBy(viewer: AuthUser | null): Promise<Pick<TorrentFilters, 'includePendingTopics' | 'viewerId' | 'forumScope'>> {
    return {
      includePendingTopics: isStaff(viewer),
      viewerId: viewer?.id ?? null,
      // Only torrents in forums the viewer may read (docs/access.md), filtered in SQL so pages and totals agree.
      forumScope: (await this.#topics.access.of(viewer)).readScope(),
    };
  }

  async list(query: TorrentQuery, viewer: AuthUser | null, page: PageRequest): Promise<{ rows: TorrentView[]; total: number }> {
    const filters: TorrentFilters = {
      words: (query.search ?? '')
        .split(/\s+/)
        .filter((word) => word !== '')
        .slice(0, 10),
      forumId: query.forumId,
      status: query.status,
      uploaderId: query.uploaderId,
      release: await this.#releaseFilters(query),
      ...(await this.#seenBy(viewer)),
    };
    const bySwarm = query.sort === 'seeders' || query.sort === 'leechers' || (query.minSeeders ?? 0) > 0;
    if (!bySwarm) {
      const [ids, total] = await Promise.all([
        this.#repository.pageIds(filters, query.sort as 'registered' | 'size' | 'completed' | 'name', query.order, page.offset, page.perPage),
        this.#repository.count(filters),
      ]);
      return { rows: await this.#withSwarm(await this.#repository.byIds(ids)), total };
    }
    // Seeders and leechers live in the swarm store: rank the matching torrents in memory.
    const ids = await this.#repository.allIds(filters);
    const counts = await this.#swarm.counts(ids, msNow(this.#clock));
    let ranked = ids.map((id, index) => ({ id, seeders: counts[index]!.complete, leechers: counts[index]!.incomplete }));
    if ((query.minSeeders ?? 0) > 0) ranked = ranked.filter((entry) => entry.seeders >= query.minSeeders!);
    if (query.sort === 'seeders' || query.sort === 'leechers') {
      const key = query.sort;
      const sign = query.order === 'asc' ? 1 : -1;
      ranked.sort((a, b) => sign * (a[key] - b[key]) || sign * (a.id - b.id));
      const pageIds = ranked.slice(page.offset, page.offset + page.perPage).map((entry) => entry.id);
      return { rows: await this.#withSwarm(await this.#repository.byIds(pageIds)), total: ranked.length };
    }
    const kept = new Set(ranked.map((entry) => entry.id));
    const all = await this.#repository.byIds([...kept]);
    all.sort(compareBy(query.sort, query.order));
    return { rows: await this.#withSwarm(all.slice(page.offset, page.offset + page.perPage)), total: all.length };
  }

  /** Status and freeleech (moderators); each status change is recorded with who and when. */
  async update(id: number, moderator: AuthUser, changes: TorrentChanges): Promise<TorrentView> {
    if (!isStaff(moderator)) throw new ApiError('FORBIDDEN', t('tracker.moderate_forbidden'));
    const { row } = await this.#visible(id, moderator);
    const at = isoNow(this.#clock);
    const newStatus = changes.status !== undefined && changes.status !== row.status ? changes.status : undefined;
    const newFreeleech = changes.freeleech !== undefined && changes.freeleech !== row.freeleech ? changes.freeleech : undefined;
    if (newStatus !== undefined || newFreeleech !== undefined) {
      await this.#repository.transaction(async (trx) => {
        if (newStatus !== undefined) await this.#repository.changeStatus(id, row.status, newStatus, moderator.id, at, trx);
        if (newFreeleech !== undefined) await this.#repository.setFreeleech(id, newFreeleech, trx);
      });
      await this.#changed(newStatus !== undefined && isFrozen(newStatus) && !isFrozen(row.status) ? id : undefined);
    }
    return this.get(id, moderator);
  }

  /** Unregisters a torrent: moderators always, its uploader while it is not frozen. The topic stays. */
  async delete(id: number, user: AuthUser): Promise<void> {
    const { row } = await this.#visible(id, user);
    if (!isStaff(user)) {
      if (row.uploader_id !== user.id) throw new ApiError('FORBIDDEN', t('tracker.remove_forbidden'));
      if (isFrozen(row.status)) throw new ApiError('FORBIDDEN', t('tracker.remove_frozen', { status: statusLabel(row.status).toLowerCase() }));
    }
    await this.#repository.delete(id);
    await this.#changed(id);
  }

  /**
   * The .torrent with the user's passkey announce URL. Refused (403) while the
   * torrent is frozen or the user's ratio is too low for a torrent they never
   * took; refused (429) past the daily limit, which counts each torrent once a day.
   */
  async download(id: number, user: AuthUser, origin: string): Promise<DownloadedTorrent> {
    const { row, permissions } = await this.#visible(id, user);
    if (!permissions.may(row.forum_id, 'download')) throw new ApiError('FORBIDDEN', t('tracker.download_forbidden'));
    if (isFrozen(row.status)) {
      throw new ApiError('FORBIDDEN', t('tracker.download_frozen', { status: statusLabel(row.status).toLowerCase() }));
    }
    // Its moderators and the author of a held topic see the torrent; nobody takes it while the topic is not public.
    if (!isPublic(row)) throw new ApiError('FORBIDDEN', t(row.topic_hidden_at !== null ? 'tracker.download_hidden' : 'tracker.download_pending'));
    const now = msNow(this.#clock);
    const since = new Date(now - DAY_MS).toISOString();
    const own = row.uploader_id === user.id;
    if (!own && !(await this.#repository.hasDownloaded(user.id, id))) {
      const verdict = ratioVerdict(await this.#repository.transfer(user.id), this.#settings.ratio);
      if (!verdict.allowed) throw new ApiError('FORBIDDEN', verdict.reason);
    }
    if (!(await this.#repository.hasDownloaded(user.id, id, since))) {
      const { count, oldest } = await this.#repository.downloadsSince(user.id, since);
      if (count >= this.#settings.dailyDownloads) {
        const retryAt = oldest === null ? now + DAY_MS : Date.parse(oldest) + DAY_MS;
        const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
        throw new ApiError(
          'RATE_LIMITED',
          // The count as the contract writes it (`1000`, not `1,000`) in every language.
          tn('tracker.daily_limit', count, { files: String(count), time: new Date(retryAt).toISOString() }),
          {
            headers: { 'retry-after': String(seconds) },
          },
        );
      }
    }
    const stored = await this.#repository.metainfo(id);
    if (stored === undefined) throw new ModelNotFoundError('Torrent', id);
    const passkey = await this.#passkeys.forUser(user.id);
    const bytes = torrentForUser(stored, personalAnnounceUrl(origin, passkey));
    await this.#repository.recordDownload(user.id, id, new Date(now).toISOString());
    return { filename: torrentFilename(row.name), bytes };
  }

  /** The personal announce URL (creates the passkey on first need). */
  async announceUrlFor(user: AuthUser, origin: string): Promise<string> {
    return personalAnnounceUrl(origin, await this.#passkeys.forUser(user.id));
  }

  /**
   * After a committed change: every instance's announce path forgets what it
   * knew of the torrents (so a frozen or removed torrent is refused at once),
   * then the swarm of `dropped` goes. The change is published first and
   * whatever the swarm store does: a store that fails (Redis away) leaves those
   * peers to expire, and their announces are refused meanwhile.
   */
  async #changed(dropped?: number): Promise<void> {
    await this.#changes.publish(TORRENTS_TOPIC);
    if (dropped === undefined) return;
    try {
      await this.#swarm.dropSwarm(dropped);
    } catch (error) {
      this.#log.warn({ err: error, torrentId: dropped }, "dropping a torrent's swarm failed; its peers expire instead");
    }
  }

  async #topicFor(topicId: number, viewer: AuthUser): Promise<TopicWithAuthor> {
    try {
      return await this.#topics.getTopic(topicId, viewer);
    } catch (error) {
      if (error instanceof ModelNotFoundError) throw ValidationError.field('topic_id', t('validation.selected', { field: fieldName('topic_id') }));
      throw error;
    }
  }

  /**
   * The torrent, if the viewer may read its forum and see its topic (the
   * forum's rules: docs/access.md, canSee): 404 when the forum does not exist
   * for the viewer, 403 when it exists but may not be read.
   */
  async #visible(id: number, viewer: AuthUser | null): Promise<{ row: TorrentRow; permissions: ReaderPermissions }> {
    const [row, permissions] = await Promise.all([this.#repository.find(id), this.#topics.access.of(viewer)]);
    if (row === undefined || !permissions.may(row.forum_id, 'view')) throw new ModelNotFoundError('Torrent', id);
    if (!permissions.may(row.forum_id, 'read')) throw new ApiError('FORBIDDEN', t('access.read_needed'));
    if (!canSee(topicOf(row), viewer, row.forum_id)) throw new ModelNotFoundError('Torrent', id);
    return { row, permissions };
  }

  async #withSwarm(rows: TorrentRow[]): Promise<TorrentView[]> {
    if (rows.length === 0) return [];
    const counts = await this.#swarm.counts(
      rows.map((row) => row.id),
      msNow(this.#clock),
    );
    return rows.map((row, index) => ({ ...row, seeders: counts[index]?.complete ?? 0, leechers: counts[index]?.incomplete ?? 0 }));
  }
}

export function announceUrl(origin: string): string {
  return `${origin}/bt/announce.php`;
}

export function personalAnnounceUrl(origin: string, passkey: string): string {
  return `${announceUrl(origin)}?uk=${passkey}`;
}

/** A file name from the torrent's name: no path separators or control characters, ends in .torrent. */
export function torrentFilename(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are what this replaces
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return `${cleaned === '' ? 'download' : cleaned}.torrent`;
}

/**
 * The duplicate's topic is named only to an uploader who may see it (a hidden
 * or held topic's title, or one in a forum they may not read, is not theirs to read).
 */
function duplicateError(existing: TorrentRow, origin: string, uploader: AuthUser, permissions: ReaderPermissions): ValidationError {
  if (!permissions.may(existing.forum_id, 'read') || !canSee(topicOf(existing), uploader, existing.forum_id))
    return ValidationError.field('file', t('tracker.duplicate_unlisted'));
  const link = `${origin}${topicPath({ id: existing.topic_id, title: existing.topic_title })}`;
  return ValidationError.field('file', t('tracker.duplicate', { link }));
}

function topicOf(row: TorrentRow): { status: TorrentRow['topic_status']; author_id: number | null; hidden_at: string | null } {
  return { status: row.topic_status, author_id: row.topic_author_id, hidden_at: row.topic_hidden_at };
}

/** A published topic that is not hidden: what everyone may read. */
function isPublic(row: TorrentRow): boolean {
  return row.topic_status === 'published' && row.topic_hidden_at === null;
}

function compareBy(sort: TorrentSort, order: 'asc' | 'desc'): (a: TorrentRow, b: TorrentRow) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const byKey =
      sort === 'size'
        ? a.size - b.size
        : sort === 'completed'
          ? a.completed_count - b.completed_count
          : sort === 'name'
            ? a.name < b.name
              ? -1
              : a.name > b.name
                ? 1
                : 0
            : a.registered_at < b.registered_at
              ? -1
              : a.registered_at > b.registered_at
                ? 1
                : 0;
    return sign * byKey || sign * (a.id - b.id);
  };
}
