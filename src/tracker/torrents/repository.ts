// SQL of the torrent registry: torrents with their files and status history,
// .torrent downloads (the daily limit) and users' transfer totals.
import { setImmediate } from 'node:timers/promises';
import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { containsText, type Dialect } from '../../db/dialect.ts';
import type { ContentStatus, Database, TorrentsTable } from '../../db/schema.ts';
import { inForums } from '../../forum/permissions.ts';
import { prepare, preparedList, type PreparedQuery } from '../../db/prepared.ts';
import type { Freeleech, TorrentStatus } from './statuses.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A torrent as pages and the API show it (everything but the stored .torrent). */
export type TorrentRow = Omit<Selectable<TorrentsTable>, 'metainfo' | 'topic_visibility'> & {
  uploader_name: string | null;
  topic_title: string;
  topic_status: ContentStatus;
  topic_hidden_at: string | null;
  topic_author_id: number | null;
  forum_id: number;
  forum_name: string;
};

export interface TorrentFileRow {
  path: string;
  size: number;
}

export interface StatusChangeRow {
  id: number;
  from_status: TorrentStatus | null;
  to_status: TorrentStatus;
  changed_by: number | null;
  changed_by_name: string | null;
  changed_at: string;
}

export interface NewTorrent {
  topic_id: number;
  uploader_id: number;
  info_hash_v1: string | null;
  info_hash_v2: string | null;
  name: string;
  size: number;
  piece_length: number;
  piece_count: number;
  creation_date: string | null;
  metainfo: Buffer;
  status: TorrentStatus;
  files: TorrentFileRow[];
}

export interface TorrentFilters {
  /** Words that must all appear in the name (case-insensitive). */
  words: string[];
  forumId?: number | undefined;
  status?: TorrentStatus | undefined;
  uploaderId?: number | undefined;
  /** Release values its topic must have, each of one field (docs/release-templates.md). */
  release?: ReadonlyArray<{ fieldId: number; value: string }> | undefined;
  /** Torrents on topics only the author and moderators see are left out unless true. */
  includePendingTopics: boolean;
  /** The viewer's own pending topics stay visible to them. */
  viewerId: number | null;
  /** The forums the viewer may read (ReaderPermissions.readScope); null: every forum. */
  forumScope: readonly number[] | null;
}

export type SqlSort = 'registered' | 'size' | 'completed' | 'name';

const COLUMNS = [
  'torrents.id',
  'torrents.topic_id',
  'torrents.uploader_id',
  'torrents.info_hash_v1',
  'torrents.info_hash_v2',
  'torrents.info_hash_v2_short',
  'torrents.name',
  'torrents.size',
  'torrents.piece_length',
  'torrents.piece_count',
  'torrents.files_count',
  'torrents.creation_date',
  'torrents.status',
  'torrents.freeleech',
  'torrents.completed_count',
  'torrents.registered_at',
  'torrents.status_changed_at',
] as const;

const SORT_COLUMNS = { registered: 'torrents.registered_at', size: 'torrents.size', completed: 'torrents.completed_count', name: 'torrents.name' } as const;

/** Most torrents ranked in memory when a list is sorted or filtered by swarm counts. */
export const SWARM_SORT_LIMIT = 10_000;

export class TorrentsRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  // Every topic page asks whether its topic has a torrent: compiled once (db/prepared.ts).
  readonly #byTopic: PreparedQuery<{ topicId: number }, TorrentRow>;
  // Every release forum's page asks which of its topics have torrents.
  readonly #byTopics: (topicIds: readonly number[]) => Promise<TorrentRow[]>;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#byTopic = prepare(db, (slot) => this.#select(db).where('torrents.topic_id', '=', slot('topicId')));
    this.#byTopics = preparedList(db, (topicIds) => this.#select(db).where('torrents.topic_id', 'in', topicIds));
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  #select(db: Db = this.#db) {
    return db
      .selectFrom('torrents')
      .innerJoin('topics', 'topics.id', 'torrents.topic_id')
      .innerJoin('forums', 'forums.id', 'topics.forum_id')
      .leftJoin('users', 'users.id', 'torrents.uploader_id')
      .select([
        ...COLUMNS,
        'users.username as uploader_name',
        'topics.title as topic_title',
        'topics.status as topic_status',
        'topics.hidden_at as topic_hidden_at',
        'topics.author_id as topic_author_id',
        'topics.forum_id',
        'forums.name as forum_name',
      ]);
  }

  find(id: number, db: Db = this.#db): Promise<TorrentRow | undefined> {
    return this.#select(db).where('torrents.id', '=', id).executeTakeFirst();
  }

  async findByTopic(topicId: number, db: Db = this.#db): Promise<TorrentRow | undefined> {
    if (db === this.#db) return (await this.#byTopic({ topicId }))[0];
    return this.#select(db).where('torrents.topic_id', '=', topicId).executeTakeFirst();
  }

  /** A registered torrent with any of these hashes (v1 against v1, v2 against v2). */
  findByHashes(v1: string | null, v2: string | null, db: Db = this.#db): Promise<TorrentRow | undefined> {
    return this.#select(db)
      .where((eb) =>
        eb.or([
          ...(v1 !== null ? [eb('torrents.info_hash_v1', '=', v1)] : []),
          ...(v2 !== null ? [eb('torrents.info_hash_v2', '=', v2), eb('torrents.info_hash_v2_short', '=', v2.slice(0, 40))] : []),
        ]),
      )
      .executeTakeFirst();
  }

  /** The torrent a TorrentPier 2.x attachment id (`dl.php?id=`) became at import, if any. */
  async torrentOfAttachment(attachId: number): Promise<number | undefined> {
    const row = await this.#db.selectFrom('import_attachments').select('torrent_id').where('attach_id', '=', attachId).executeTakeFirst();
    return row?.torrent_id;
  }

  async metainfo(id: number): Promise<Buffer | undefined> {
    const row = await this.#db.selectFrom('torrents').select('metainfo').where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : Buffer.from(row.metainfo.buffer, row.metainfo.byteOffset, row.metainfo.byteLength);
  }

  async insert(torrent: NewTorrent, at: string, trx: Transaction<Database>): Promise<number> {
    const { id } = await trx
      .insertInto('torrents')
      .values({
        topic_id: torrent.topic_id,
        uploader_id: torrent.uploader_id,
        info_hash_v1: torrent.info_hash_v1,
        info_hash_v2: torrent.info_hash_v2,
        info_hash_v2_short: torrent.info_hash_v2?.slice(0, 40) ?? null,
        name: torrent.name,
        size: torrent.size,
        piece_length: torrent.piece_length,
        piece_count: torrent.piece_count,
        files_count: torrent.files.length,
        creation_date: torrent.creation_date,
        metainfo: torrent.metainfo,
        status: torrent.status,
        registered_at: at,
        status_changed_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // In chunks: a torrent may list thousands of files, and databases cap bound parameters. SQLite runs each
    // chunk on the event loop, so the loop turns between them (50,000 files at once held it for 0.1-0.3 s).
    for (let start = 0; start < torrent.files.length; start += 500) {
      if (start > 0) await setImmediate();
      await trx
        .insertInto('torrent_files')
        .values(torrent.files.slice(start, start + 500).map((file, index) => ({ torrent_id: id, position: start + index, path: file.path, size: file.size })))
        .execute();
    }
    await trx
      .insertInto('torrent_status_changes')
      .values({ torrent_id: id, from_status: null, to_status: torrent.status, changed_by: torrent.uploader_id, changed_at: at })
      .execute();
    return id;
  }

  files(id: number): Promise<TorrentFileRow[]> {
    return this.#db.selectFrom('torrent_files').select(['path', 'size']).where('torrent_id', '=', id).orderBy('position').execute();
  }

  history(id: number): Promise<StatusChangeRow[]> {
    return this.#db
      .selectFrom('torrent_status_changes')
      .leftJoin('users', 'users.id', 'torrent_status_changes.changed_by')
      .select(['torrent_status_changes.id', 'from_status', 'to_status', 'changed_by', 'users.username as changed_by_name', 'changed_at'])
      .where('torrent_id', '=', id)
      .orderBy('torrent_status_changes.id')
      .execute();
  }

  async changeStatus(id: number, from: TorrentStatus, to: TorrentStatus, by: number, at: string, trx: Transaction<Database>): Promise<void> {
    await trx.updateTable('torrents').set({ status: to, status_changed_at: at }).where('id', '=', id).execute();
    await trx.insertInto('torrent_status_changes').values({ torrent_id: id, from_status: from, to_status: to, changed_by: by, changed_at: at }).execute();
  }

  async setFreeleech(id: number, freeleech: Freeleech, trx: Transaction<Database>): Promise<void> {
    await trx.updateTable('torrents').set({ freeleech }).where('id', '=', id).execute();
  }

  async delete(id: number, db: Db = this.#db): Promise<boolean> {
    const result = await db.deleteFrom('torrents').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // Reads torrents alone: the topic's forum and who may see it are copied onto the row (migration 0033),
  // so a page of ids comes from the torrents_listing index without reading any topic.
  #filtered(filters: TorrentFilters) {
    let query = this.#db.selectFrom('torrents');
    for (const word of filters.words) query = query.where(containsText(this.#dialect, sql.ref<string>('torrents.name'), word));
    if (filters.forumScope !== null) query = query.where(inForums('torrents.forum_id', filters.forumScope));
    if (filters.forumId !== undefined) query = query.where('torrents.forum_id', '=', filters.forumId);
    if (filters.status !== undefined) query = query.where('torrents.status', '=', filters.status);
    if (filters.uploaderId !== undefined) query = query.where('torrents.uploader_id', '=', filters.uploaderId);
    for (const wanted of filters.release ?? []) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('release_values')
            .select('release_values.topic_id')
            .whereRef('release_values.topic_id', '=', 'torrents.topic_id')
            .where('release_values.field_id', '=', wanted.fieldId)
            .where('release_values.value', '=', wanted.value),
        ),
      );
    }
    if (!filters.includePendingTopics) query = query.where(seenBy(filters.viewerId));
    return query;
  }

  async count(filters: TorrentFilters): Promise<number> {
    const row = await this.#filtered(filters)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** A page of ids, sorted in SQL. */
  async pageIds(filters: TorrentFilters, sort: SqlSort, order: 'asc' | 'desc', offset: number, limit: number): Promise<number[]> {
    const rows = await this.#filtered(filters)
      .select('torrents.id')
      .orderBy(SORT_COLUMNS[sort], order)
      .orderBy('torrents.id', order)
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Every matching id (up to SWARM_SORT_LIMIT, newest first), for ranking by swarm counts. */
  async allIds(filters: TorrentFilters): Promise<number[]> {
    const rows = await this.#filtered(filters)
      .select('torrents.id')
      .orderBy('torrents.registered_at', 'desc')
      .orderBy('torrents.id', 'desc')
      .limit(SWARM_SORT_LIMIT)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * The torrents this user announced since `since` and did not stop, that `filters` let the viewer
   * see: seeding first, then leeching, the latest announce first in each.
   */
  async activeOf(userId: number, since: string, filters: TorrentFilters, limit: number): Promise<Array<{ row: TorrentRow; seeding: boolean }>> {
    const active = await this.#filtered(filters)
      .innerJoin('tracker_user_torrents as mine', 'mine.torrent_id', 'torrents.id')
      .where('mine.user_id', '=', userId)
      .where('mine.active', '=', true)
      .where('mine.last_announce_at', '>', since)
      .select(['torrents.id', 'mine.seeding'])
      .orderBy('mine.seeding', 'desc')
      .orderBy('mine.last_announce_at', 'desc')
      .limit(limit)
      .execute();
    const rows = await this.byIds(active.map((entry) => entry.id));
    const seeding = new Map(active.map((entry) => [entry.id, Boolean(entry.seeding)]));
    return rows.map((row) => ({ row, seeding: seeding.get(row.id)! }));
  }

  /** The torrents on these topics (at most one each), in no order. */
  byTopics(topicIds: readonly number[]): Promise<TorrentRow[]> {
    return this.#byTopics(topicIds);
  }

  /** Rows for these ids, in the order given. */
  async byIds(ids: readonly number[]): Promise<TorrentRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.#select().where('torrents.id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)).filter((row): row is TorrentRow => row !== undefined);
  }

  /** Distinct torrents this user downloaded since `since` (the daily limit counts each torrent once). */
  async downloadsSince(userId: number, since: string): Promise<{ count: number; oldest: string | null }> {
    const row = await this.#db
      .selectFrom('torrent_downloads')
      // A deleted torrent (torrent_id null) still counts, once per download.
      .select((eb) => [sql<number>`count(distinct coalesce(torrent_id, -id))`.as('count'), eb.fn.min<string>('downloaded_at').as('oldest')])
      .where('user_id', '=', userId)
      .where('downloaded_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest ?? null };
  }

  async hasDownloaded(userId: number, torrentId: number, since?: string): Promise<boolean> {
    let query = this.#db.selectFrom('torrent_downloads').select('id').where('user_id', '=', userId).where('torrent_id', '=', torrentId);
    if (since !== undefined) query = query.where('downloaded_at', '>', since);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  async recordDownload(userId: number, torrentId: number, at: string): Promise<void> {
    await this.#db.insertInto('torrent_downloads').values({ user_id: userId, torrent_id: torrentId, downloaded_at: at }).execute();
  }

  async transfer(userId: number): Promise<{ uploaded: number; downloaded: number }> {
    const row = await this.#db.selectFrom('tracker_user_stats').select(['uploaded', 'downloaded']).where('user_id', '=', userId).executeTakeFirst();
    return { uploaded: Number(row?.uploaded ?? 0), downloaded: Number(row?.downloaded ?? 0) };
  }
}

/**
 * The forum's one rule of who sees a topic (forum/repository.ts `visible`) on the torrent's copy of it:
 * published and shown, or the viewer's own held one.
 */
function seenBy(viewerId: number | null): RawBuilder<boolean> {
  const everyone = sql<boolean>`torrents.topic_visibility = 'everyone'`;
  if (viewerId === null) return everyone;
  return sql<boolean>`(${everyone} or (torrents.topic_visibility = 'author' and torrents.topic_author_id = ${viewerId}))`;
}
