// The whole TorrentPier import, in dependency order: users (with passkeys,
// transfer totals, bonus points and bans) and their avatars, forums with their
// levels, groups and their members, the grants of forums to groups and members
// (moderators among them), topics, posts, watched
// topics, private messages (the sender's copies merged), torrents, smilies,
// censor words. The target is the service's own
// database, opened and migrated the way the server does it, and must be empty.
import mysql from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import { isoNow, systemClock } from '../../clock.ts';
import { ConfigError, type Config } from '../../config.ts';
import { readCatalog } from '../../db/copy/catalog.ts';
import { moveSequences } from '../../db/copy/copy.ts';
import { countRows as countTargetRows } from '../../db/copy/scan.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { markAllPostsForIndexing } from '../../db/search-backfill.ts';
import { ImageStore } from '../../emoji/images/store.ts';
import { createEmojiServices } from '../../emoji/services.ts';
import { SearchRepository } from '../../forum/search/repository.ts';
import { ensureWritableFolder } from '../../uploads/content-files.ts';
import { avatarFolder } from '../../users/avatars/avatars.ts';
import { WordFiltersRepository } from '../../word-filters/repository.ts';
import { WordFiltersService } from '../../word-filters/service.ts';
import { importAvatars } from './avatars.ts';
import { importCensor } from './censor.ts';
import type { ImportContext } from './context.ts';
import { importForums } from './forums.ts';
import { IdSet } from './id-set.ts';
import { importGrants, readAccess } from './grants.ts';
import { importGroups } from './groups.ts';
import { importPosts } from './posts.ts';
import { importPrivateMessages } from './private-messages.ts';
import { Progress, type ProgressSink } from './progress.ts';
import { ImportReport } from './report.ts';
import { importSmilies } from './smilies.ts';
import { countRows, detectVersion, sourceOptions, type UpstreamVersion } from './source.ts';
import { importTopics } from './topics.ts';
import { importTorrents } from './torrents.ts';
import { importUsers } from './users.ts';
import { importWatchlist } from './watchlist.ts';
import { importThanks } from './thanks.ts';
import { importPolls } from './polls.ts';
import { importRanks } from './ranks.ts';

/** The import was not started; the message says what to fix. */
export class ImportRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefused';
  }
}

export interface ImportOptions {
  /** `mysql://user:pass@host[:port]/db[?socket=…]` */
  from: string;
  /** Folder of the upstream site (holding data/uploads or storage/…, and the smilies); null: no files. */
  files: string | null;
  /** The upstream's avatars folder (2.x data/avatars, 3.x storage/app/public/avatars); null or left out: avatars are not read. */
  avatarsDir?: string | null;
  /** The service's configuration: DATABASE_URL names the target, UPLOAD_DIR takes the smiley images and avatars. */
  config: Config;
  log: Logger;
  progress?: ProgressSink;
  batchSize?: number;
  clock?: Clock;
}

export const DEFAULT_BATCH_SIZE = 5000;

export async function importTorrentPier(options: ImportOptions): Promise<ImportReport> {
  let source: mysql.Connection;
  try {
    source = await mysql.createConnection(sourceOptions(options.from));
  } catch (error) {
    throw new ImportRefused(`cannot connect to the TorrentPier database: ${error instanceof Error ? error.message : String(error)}`);
  }
  const target = openDatabase(options.config.database, options.log);
  try {
    let version: UpstreamVersion;
    try {
      version = await detectVersion(source);
    } catch (error) {
      throw new ImportRefused(error instanceof Error ? error.message : String(error));
    }
    const avatarsDir = options.avatarsDir ?? null;
    const avatars = avatarFolder(options.config.uploadDir);
    if (avatarsDir !== null) await refuseUnlessWritable(avatars);
    await refuseUnlessEmpty(target, 'before its migrations');
    await migrateToLatest(target, options.log);
    await refuseUnlessEmpty(target, 'after its migrations');
    const clock = options.clock ?? systemClock;
    const report = new ImportReport();
    const ctx: ImportContext = {
      source,
      version,
      target,
      files: options.files,
      report,
      progress: new Progress(options.progress ?? (() => {})),
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      now: isoNow(clock),
      imported: { users: new IdSet(), forums: new IdSet(), topics: new IdSet(), groups: new IdSet() },
    };
    options.progress?.(`TorrentPier ${version}.x database; importing into ${target.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}.`);
    // Who moderates which forum is in members' notes: read first, written once the forums and groups are.
    const access = await readAccess(ctx);
    const members = await countRows(source, 'bb_users');
    await importUsers(ctx, members, access.moderators);
    await importAvatars(ctx, avatarsDir, avatars, members);
    await importRanks(ctx);
    await importForums(ctx);
    await importGroups(ctx, access);
    await importGrants(ctx, access);
    await importTopics(ctx, await countRows(source, 'bb_topics'));
    await importPosts(ctx, await countRows(source, 'bb_posts'));
    await importWatchlist(ctx, await countRows(source, 'bb_topics_watch'));
    await importThanks(ctx);
    await importPolls(ctx, { votes: await countRows(source, 'bb_poll_votes'), voters: await countRows(source, 'bb_poll_users') });
    await importPrivateMessages(ctx, await countRows(source, 'bb_privmsgs'));
    await importTorrents(ctx, await countRows(source, 'bb_bt_torrents'));
    await indexForSearch(ctx);

    const emoji = createEmojiServices(target, clock);
    // The catalog the server would import at its first start: done here, since the smilies make the catalog non-empty.
    if (options.config.emojiCatalog === 'unicode') await emoji.unicodeImport.importIfEmpty(options.log);
    const images = new ImageStore(options.config.uploadDir);
    await images.init();
    await importSmilies(ctx, emoji, images);
    await importCensor(ctx, new WordFiltersService(target.db, target.dialect, new WordFiltersRepository(target.db, target.dialect), target.changes, clock));

    if (target.dialect === 'postgres') await moveSequences(target.db, await readCatalog(target.db, target.dialect));
    return report;
  } finally {
    await target.close().catch(() => {});
    await source.end().catch(() => {});
  }
}

/** The imported posts indexed for search here, so that search finds them from the first start. */
async function indexForSearch(ctx: ImportContext): Promise<void> {
  const index = new SearchRepository(ctx.target.db, ctx.target.dialect);
  await markAllPostsForIndexing(ctx.target.db);
  ctx.progress.start('search index', await countTargetRows(ctx.target.db, 'posts'));
  for (let covered = await index.backfill(ctx.batchSize); covered > 0; covered = await index.backfill(ctx.batchSize)) ctx.progress.advance(covered);
  ctx.progress.finish();
}

/** The avatars' folder under UPLOAD_DIR is checked before anything is written, so a wrong UPLOAD_DIR is a refusal, not a half import. */
async function refuseUnlessWritable(folder: string): Promise<void> {
  try {
    await ensureWritableFolder(folder);
  } catch (error) {
    if (error instanceof ConfigError) throw new ImportRefused(error.message);
    throw error;
  }
}

async function refuseUnlessEmpty(target: DatabaseHandle, when: string): Promise<void> {
  const filled: string[] = [];
  for (const table of await readCatalog(target.db, target.dialect)) {
    const rows = await countTargetRows(target.db, table.name);
    if (rows > 0) filled.push(`${table.name} (${rows} rows)`);
  }
  if (filled.length > 0) {
    throw new ImportRefused(
      `the target database is not empty ${when}: ${filled.join(', ')}. Import into a new, empty database (the service fills one at its first start, so import before that).`,
    );
  }
}
