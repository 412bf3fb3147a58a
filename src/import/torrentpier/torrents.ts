// bb_bt_torrents and the stored .torrent files → torrents (id = the topic id,
// as upstream's primary key), their files, status and freeleech, and on 2.x
// the attachment id that `dl.php?id=` used. The file is kept byte for byte
// (no private flag, no announce rewrite) and the hashes are computed from its
// info dictionary: they are the hashes clients already seed. That also
// repairs 2.x's short hashes (stored right-trimmed of 0x20 bytes).
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type mysql from 'mysql2/promise';
import type { Insertable } from 'kysely';
import type { TorrentFilesTable, TorrentStatusChangesTable, TorrentsTable } from '../../db/schema.ts';
import { MetainfoError, readTorrentAsIs, type Metainfo } from '../../tracker/metainfo.ts';
import type { Freeleech, TorrentStatus } from '../../tracker/torrents/statuses.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readQueryBatches, tableColumns, type UpstreamVersion } from './source.ts';
import { firstTime } from './text.ts';

/** Registered torrents may be larger than a new upload may be; this only guards memory. */
const MAX_TORRENT_BYTES = 64 * 1024 * 1024;

/** tor_status codes (library/defines.php) → our statuses; the meanings match one to one. */
export const STATUS_BY_CODE: Readonly<Record<number, TorrentStatus>> = {
  0: 'not_checked',
  1: 'closed',
  2: 'checked',
  3: 'needs_editing',
  4: 'not_fully_described',
  5: 'duplicate',
  6: 'closed_by_right_holder',
  7: 'absorbed',
  8: 'doubtful',
  9: 'being_checked',
  10: 'temporary',
  11: 'premoderation',
  12: 'replenished',
};

/** tor_type: 0 normal, 1 gold, 2 silver. */
export function freeleechOf(torType: number): Freeleech {
  return torType === 1 ? 'gold' : torType === 2 ? 'silver' : 'none';
}

export interface UpstreamTorrent {
  topic_id: number;
  poster_id: number;
  info_hash: Buffer | null;
  info_hash_v2: Buffer | null;
  /** 2.x only. */
  attach_id: number | null;
  reg_time: number;
  complete_count: number;
  tor_status: number;
  checked_user_id: number;
  checked_time: number;
  tor_type: number;
  /** 2.x: bb_attachments_desc.physical_filename. */
  physical_filename: string | null;
}

export interface ImportedTorrent {
  torrent: Insertable<TorrentsTable> & { id: number };
  files: Insertable<TorrentFilesTable>[];
  statusChange: Insertable<TorrentStatusChangesTable>;
  attachId: number | null;
}

/** Where upstream keeps the .torrent, relative to the --files folder; null when the row names no file. */
export function torrentFilePath(version: UpstreamVersion, uploadDir: string, row: UpstreamTorrent): string | null {
  if (version === '3.0') {
    const id = row.topic_id;
    return join('storage', 'app', 'private', 'uploads', String(Math.floor(id / 10000)), String(id % 100), `${id}.torrent`);
  }
  if (row.physical_filename === null || row.physical_filename === '') return null;
  // basename: a stored name never leads out of the upload folder.
  return join(uploadDir.replace(/^\/+/, ''), basename(row.physical_filename));
}

export type HashCheck = 'same' | 'repaired' | 'absent' | 'differs';

/** How the stored hash relates to the file's: equal, the 2.x right-trimmed form, not stored, or something else. */
export function compareStoredHash(stored: Buffer | null, fileHex: string | null): HashCheck {
  if (stored === null || stored.length === 0) return 'absent';
  if (fileHex === null) return 'differs';
  const file = Buffer.from(fileHex, 'hex');
  if (file.equals(stored)) return 'same';
  const rest = file.subarray(stored.length);
  if (stored.length < file.length && file.subarray(0, stored.length).equals(stored) && rest.every((byte) => byte === 0x20)) return 'repaired';
  return 'differs';
}

export type TorrentFile = { ok: true; bytes: Buffer } | { ok: false; reason: string };

export function mapTorrent(row: UpstreamTorrent, file: TorrentFile, known: { topics: IdSet; users: IdSet }, now: string): Mapped<ImportedTorrent> {
  if (!known.topics.has(row.topic_id)) return skip('its topic was not imported');
  if (!file.ok) return skip(file.reason);
  let facts: Metainfo;
  try {
    facts = readTorrentAsIs(file.bytes, { maxBytes: MAX_TORRENT_BYTES });
  } catch (error) {
    if (error instanceof MetainfoError) return skip(`the stored .torrent is refused: ${error.message}`);
    throw error;
  }
  const notes: string[] = [];
  for (const [label, stored, hex] of [
    ['v1', row.info_hash, facts.infoHashV1],
    ['v2', row.info_hash_v2, facts.infoHashV2],
  ] as const) {
    const check = compareStoredHash(stored, hex);
    if (check === 'repaired') notes.push(`${label} info hash stored right-trimmed of 0x20 bytes: repaired from the file`);
    if (check === 'differs') notes.push(`${label} info hash in the database differs from the file's: the file's is used`);
    if (check === 'absent' && hex !== null) notes.push(`${label} info hash not stored upstream: taken from the file`);
  }
  let status = STATUS_BY_CODE[row.tor_status];
  if (status === undefined) {
    status = 'not_checked';
    notes.push(`unknown tor_status ${row.tor_status}: imported as not checked`);
  }
  const registered = firstTime(now, row.reg_time);
  const changed = firstTime(registered, row.checked_time);
  const uploader = known.users.has(row.poster_id) ? row.poster_id : null;
  return keep(
    {
      torrent: {
        id: row.topic_id,
        topic_id: row.topic_id,
        uploader_id: uploader,
        info_hash_v1: facts.infoHashV1,
        info_hash_v2: facts.infoHashV2,
        info_hash_v2_short: facts.infoHashV2?.slice(0, 40) ?? null,
        name: facts.name,
        size: facts.size,
        piece_length: facts.pieceLength,
        piece_count: facts.pieceCount,
        files_count: facts.files.length,
        creation_date: facts.creationDate,
        metainfo: facts.torrent,
        status,
        freeleech: freeleechOf(row.tor_type),
        completed_count: Math.max(0, row.complete_count),
        registered_at: registered,
        status_changed_at: changed,
      },
      files: facts.files.map((f, position) => ({ torrent_id: row.topic_id, position, path: f.path, size: f.size })),
      statusChange: {
        torrent_id: row.topic_id,
        from_status: null,
        to_status: status,
        changed_by: known.users.has(row.checked_user_id) ? row.checked_user_id : uploader,
        changed_at: changed,
      },
      attachId: row.attach_id !== null && row.attach_id > 0 ? row.attach_id : null,
    },
    notes,
  );
}

function binary(value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'latin1');
}

function upstreamTorrent(row: mysql.RowDataPacket): UpstreamTorrent {
  const attach: unknown = row['attach_id'];
  const physical: unknown = row['physical_filename'];
  return {
    topic_id: int(row['topic_id']),
    poster_id: int(row['poster_id']),
    info_hash: binary(row['info_hash']),
    info_hash_v2: binary(row['info_hash_v2']),
    attach_id: attach === null || attach === undefined ? null : int(attach),
    reg_time: int(row['reg_time']),
    complete_count: int(row['complete_count']),
    tor_status: int(row['tor_status']),
    checked_user_id: int(row['checked_user_id']),
    checked_time: int(row['checked_time']),
    tor_type: int(row['tor_type']),
    physical_filename: physical === null || physical === undefined ? null : String(physical),
  };
}

async function loadFile(ctx: ImportContext, uploadDir: string, row: UpstreamTorrent): Promise<TorrentFile> {
  if (ctx.files === null) return { ok: false, reason: 'no --files folder given: the .torrent files were not read' };
  const path = torrentFilePath(ctx.version, uploadDir, row);
  if (path === null) return { ok: false, reason: 'no stored file is recorded for it (bb_attachments_desc)' };
  try {
    return { ok: true, bytes: await readFile(join(ctx.files, path)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, reason: `its .torrent file cannot be read (${code}) under --files` };
  }
}

/** 2.x's upload folder (bb_attachments_config.upload_dir), relative to the site root. */
async function uploadDirOf(ctx: ImportContext): Promise<string> {
  if (ctx.version !== '2.4') return '';
  try {
    const [rows] = await ctx.source.query<mysql.RowDataPacket[]>("SELECT config_value FROM bb_attachments_config WHERE config_name = 'upload_dir'");
    const value = rows[0]?.['config_value'];
    return typeof value === 'string' && value !== '' ? value : 'data/uploads';
  } catch {
    return 'data/uploads';
  }
}

export async function importTorrents(ctx: ImportContext, total: number): Promise<void> {
  const { report } = ctx;
  report.table('bb_bt_torrents');
  const uploadDir = await uploadDirOf(ctx);
  const columns = await tableColumns(ctx.source, 'bb_bt_torrents');
  // info_hash_v2 arrived in 2.4.0-beta2: older installs lack it.
  const v2 = columns.has('info_hash_v2') ? 't.info_hash_v2' : 'NULL AS info_hash_v2';
  const common = `t.topic_id, t.poster_id, t.info_hash, ${v2}, t.reg_time, t.complete_count, t.tor_status, t.checked_user_id, t.checked_time, t.tor_type`;
  const select =
    ctx.version === '2.4'
      ? `SELECT ${common}, t.attach_id, d.physical_filename FROM bb_bt_torrents t LEFT JOIN bb_attachments_desc d ON d.attach_id = t.attach_id`
      : `SELECT ${common} FROM bb_bt_torrents t`;
  ctx.progress.start('bb_bt_torrents', total);
  // Torrents carry their whole .torrent: smaller batches keep memory flat.
  const batchSize = Math.max(1, Math.min(ctx.batchSize, 500));
  for await (const batch of readQueryBatches(ctx.source, { select, key: 't.topic_id', keyAlias: 'topic_id', batchSize })) {
    const accepted: ImportedTorrent[] = [];
    for (const raw of batch) {
      const upstream = upstreamTorrent(raw);
      report.read('bb_bt_torrents');
      const mapped = mapTorrent(upstream, await loadFile(ctx, uploadDir, upstream), ctx.imported, ctx.now);
      if (!mapped.ok) {
        report.skipped('bb_bt_torrents', mapped.reason, upstream.topic_id);
        continue;
      }
      for (const note of mapped.notes) report.note('bb_bt_torrents', note, upstream.topic_id);
      accepted.push(mapped.row);
    }
    const unique = await withoutDuplicates(ctx, accepted);
    await writeTorrents(ctx, unique);
    report.imported('bb_bt_torrents', unique.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
}

/** The same torrent registered twice upstream (any equal hash) is imported once: the first, by topic id. */
async function withoutDuplicates(ctx: ImportContext, torrents: ImportedTorrent[]): Promise<ImportedTorrent[]> {
  if (torrents.length === 0) return [];
  const v1 = torrents.flatMap((t) => (t.torrent.info_hash_v1 ? [t.torrent.info_hash_v1] : []));
  const v2 = torrents.flatMap((t) => (t.torrent.info_hash_v2 ? [t.torrent.info_hash_v2] : []));
  const v2Short = torrents.flatMap((t) => (t.torrent.info_hash_v2_short ? [t.torrent.info_hash_v2_short] : []));
  const existing = await ctx.target.db
    .selectFrom('torrents')
    .select(['id', 'info_hash_v1', 'info_hash_v2', 'info_hash_v2_short'])
    .where((eb) =>
      eb.or([
        ...(v1.length > 0 ? [eb('info_hash_v1', 'in', v1)] : []),
        ...(v2.length > 0 ? [eb('info_hash_v2', 'in', v2)] : []),
        ...(v2Short.length > 0 ? [eb('info_hash_v2_short', 'in', v2Short)] : []),
      ]),
    )
    .execute();
  const owner = new Map<string, number>();
  for (const row of existing) {
    for (const [column, hash] of [
      ['v1', row.info_hash_v1],
      ['v2', row.info_hash_v2],
      ['v2s', row.info_hash_v2_short],
    ] as const) {
      if (hash !== null) owner.set(`${column}:${hash}`, row.id);
    }
  }
  const kept: ImportedTorrent[] = [];
  for (const t of torrents) {
    const keys = [
      t.torrent.info_hash_v1 ? `v1:${t.torrent.info_hash_v1}` : null,
      t.torrent.info_hash_v2 ? `v2:${t.torrent.info_hash_v2}` : null,
      t.torrent.info_hash_v2_short ? `v2s:${t.torrent.info_hash_v2_short}` : null,
    ].filter((key): key is string => key !== null);
    const clash = keys.map((key) => owner.get(key)).find((id) => id !== undefined);
    if (clash !== undefined) {
      ctx.report.skipped('bb_bt_torrents', `the same torrent (equal info hash) is already imported on topic ${clash}`, t.torrent.id);
      continue;
    }
    for (const key of keys) owner.set(key, t.torrent.id);
    kept.push(t);
  }
  return kept;
}

async function writeTorrents(ctx: ImportContext, torrents: ImportedTorrent[]): Promise<void> {
  if (torrents.length === 0) return;
  await ctx.target.db.transaction().execute(async (trx) => {
    // A handful per statement: each carries its whole .torrent.
    for (const part of chunks(torrents, 50)) {
      await trx
        .insertInto('torrents')
        .values(part.map((t) => t.torrent))
        .execute();
    }
    for (const part of chunks(
      torrents.flatMap((t) => t.files),
      1000,
    )) {
      await trx.insertInto('torrent_files').values(part).execute();
    }
    for (const part of chunks(
      torrents.map((t) => t.statusChange),
      1000,
    )) {
      await trx.insertInto('torrent_status_changes').values(part).execute();
    }
    const attachments = torrents.flatMap((t) => (t.attachId === null ? [] : [{ attach_id: t.attachId, torrent_id: t.torrent.id }]));
    for (const part of chunks(attachments, 1000)) await trx.insertInto('import_attachments').values(part).execute();
  });
}
