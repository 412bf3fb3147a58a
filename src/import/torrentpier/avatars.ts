// bb_users.avatar_ext_id and the avatar files → members' avatars. Upstream
// keeps no file name: the file is where its get_avatar_path() puts it, under
// the avatars folder (--avatars-dir: 2.x `data/avatars`,
// $bb_cfg['avatars']['upload_path']; 3.x `storage/app/public/avatars`,
// config avatars.user.upload_path), at
// `{floor(id/10000)}/{id%100}/{id}.{ext}` with the extension from the
// file_id_ext map. Each file goes through the upload's own code
// (users/avatars/avatars.ts storeAvatar: checked by content, limited in bytes
// and pixels, stored as a 160×160 WebP named by its content), so an imported
// avatar meets exactly the rules an upload meets. A file that is missing,
// unreadable or refused leaves the member without an avatar, with the reason
// in the report; it never stops the import. Files are stored by content, so
// an import run again (into a new database, as a failed one is restarted)
// finds them stored and writes none twice.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { AVATAR_RULES } from '../../users/avatars/avatar-image.ts';
import { storeAvatar } from '../../users/avatars/avatars.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readBatches, type UpstreamVersion } from './source.ts';

/** The report's line for avatars (ids in it are user ids). */
export const AVATARS = 'avatars';

export const NO_AVATARS_DIR_REASON = 'no --avatars-dir given: the avatar files were not read';

/** user_opt bit 2, `dis_avatar`: an admin forbade the member an avatar, and upstream showed none. */
export const DIS_AVATAR = 1 << 2;

/** file_id_ext (2.4.13 library/config.php); 3.0's TorrentPier\Data\FileExtensions adds 14. */
const FILE_ID_EXT: Readonly<Record<number, string>> = {
  1: 'gif',
  2: 'gz',
  3: 'jpg',
  4: 'png',
  5: 'rar',
  6: 'tar',
  8: 'torrent',
  9: 'zip',
  10: '7z',
  11: 'bmp',
  12: 'webp',
  13: 'avif',
};
const FILE_ID_EXT_30: Readonly<Record<number, string>> = { ...FILE_ID_EXT, 14: 'm3u' };

/** Files decoded at once: libvips works on libuv's thread pool, so a few at a time keep the cores busy. */
const AT_ONCE = 4;

export interface UpstreamAvatar {
  user_id: number;
  /** 0: no avatar. */
  avatar_ext_id: number;
  user_opt: number;
}

/** get_path_from_id(): the file's path inside the avatars folder; an extension id the map lacks gives a name without one, as upstream. */
export function avatarFilePath(version: UpstreamVersion, userId: number, extId: number): string {
  const ext = (version === '3.0' ? FILE_ID_EXT_30 : FILE_ID_EXT)[extId];
  return `${Math.floor(userId / 10000)}/${userId % 100}/${userId}${ext === undefined ? '' : `.${ext}`}`;
}

/** Where an upstream avatar's file is, or why the member gets none. */
export function mapAvatar(row: UpstreamAvatar, version: UpstreamVersion, users: IdSet): Mapped<string> {
  if (!users.has(row.user_id)) return skip('its member was not imported');
  if ((row.user_opt & DIS_AVATAR) !== 0) return skip('an admin had forbidden the member an avatar (user_opt dis_avatar): upstream showed none');
  return keep(avatarFilePath(version, row.user_id, row.avatar_ext_id));
}

/** Who had an avatar upstream, each member's file stored and set here; `avatarsDir` null: none read, one report line says so. */
export async function importAvatars(ctx: ImportContext, avatarsDir: string | null, folder: string, total: number): Promise<void> {
  const { report } = ctx;
  report.table(AVATARS);
  ctx.progress.start(AVATARS, total);
  const batches = readBatches(ctx.source, { table: 'bb_users', key: ['user_id'], columns: ['avatar_ext_id', 'user_opt'], batchSize: ctx.batchSize });
  for await (const batch of batches) {
    const files: { userId: number; path: string }[] = [];
    for (const raw of batch) {
      const row: UpstreamAvatar = { user_id: int(raw['user_id']), avatar_ext_id: int(raw['avatar_ext_id']), user_opt: int(raw['user_opt']) };
      if (row.avatar_ext_id === 0) continue;
      report.read(AVATARS);
      if (avatarsDir === null) {
        report.skipped(AVATARS, NO_AVATARS_DIR_REASON, row.user_id);
        continue;
      }
      const mapped = mapAvatar(row, ctx.version, ctx.imported.users);
      if (mapped.ok) files.push({ userId: row.user_id, path: join(avatarsDir, mapped.row) });
      else report.skipped(AVATARS, mapped.reason, row.user_id);
    }
    const stored: { userId: number; name: string }[] = [];
    for (const group of chunks(files, AT_ONCE)) {
      const results = await Promise.all(group.map((file) => storeFile(file.path, folder)));
      group.forEach((file, n) => {
        const result = results[n]!;
        if (result.ok) stored.push({ userId: file.userId, name: result.name });
        else report.skipped(AVATARS, result.reason, file.userId);
      });
    }
    if (stored.length > 0) {
      await ctx.target.db.transaction().execute(async (trx) => {
        for (const { userId, name } of stored) await trx.updateTable('users').set({ avatar: name }).where('id', '=', userId).execute();
      });
    }
    report.imported(AVATARS, stored.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
}

type StoredFile = { ok: true; name: string } | { ok: false; reason: string };

async function storeFile(path: string, folder: string): Promise<StoredFile> {
  let bytes: Buffer;
  try {
    // One byte over the limit is enough for the upload's check to call it too large, as the upload route reads it.
    bytes = await readAtMost(path, AVATAR_RULES.maxBytes + 1);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, reason: code === 'ENOENT' ? 'its file is not in --avatars-dir' : `its file cannot be read under --avatars-dir (${code})` };
  }
  const stored = await storeAvatar(folder, bytes);
  return stored.ok ? stored : { ok: false, reason: `its file is refused: ${stored.message}` };
}

/** The file's first `limit` bytes (all of a smaller file); a folder or other non-file is an EISDIR/ENOTFILE error. */
async function readAtMost(path: string, limit: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a file`), { code: stat.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
    const buffer = Buffer.alloc(Math.min(stat.size, limit));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await file.close();
  }
}
