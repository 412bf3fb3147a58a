// The TorrentPier import end to end: the 2.4.x and 3.0.x fixtures on a
// private MariaDB imported into each configured database (SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set), every row checked against the
// fixture, then the real app started on the result: members log in with
// their old passwords, old links land on the new pages, avatars show as an
// upload would, and an old passkey's announce of an imported torrent is
// answered with its swarm.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeHTML } from 'entities';
import pino from 'pino';
import sharp from 'sharp';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { AVATARS, NO_AVATARS_DIR_REASON } from '../../src/import/torrentpier/avatars.ts';
import { ImportRefused, importTorrentPier } from '../../src/import/torrentpier/importer.ts';
import { CHILD_PROCESS_MS } from '../helpers/processes.ts';
import { PERSONAL_GROUP_REASON } from '../../src/import/torrentpier/groups.ts';
import { ACCESS_ACTIONS, actionsOf } from '../../src/forum/permissions.ts';
import { MERGED_REASON, NOBODY_KEEPS_REASON } from '../../src/import/torrentpier/private-messages.ts';
import type { ImportReport, TableReport } from '../../src/import/torrentpier/report.ts';
import { SMILIES_CATEGORY } from '../../src/import/torrentpier/smilies.ts';
import { UNUSABLE_PASSWORD } from '../../src/import/torrentpier/users.ts';
import { isDict } from '../../src/tracker/bencode.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';
import { announceUrl, field, peerId } from '../helpers/tracker.ts';
import { decode } from '../../src/tracker/bencode.ts';
import { dom } from '../helpers/dom.ts';
import { mariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from './mariadb.ts';
import { AVATAR_SIZE } from '../../src/users/avatars/avatar-image.ts';
import {
  EVERY_TAG_POST,
  avatarsFolderOf,
  createTorrentPierFixture,
  GONE_USER_ID,
  phpPrepareMessage,
  type FixtureSummary,
  type TorrentPierVersion,
} from './torrentpier-fixture.ts';

const silent = pino({ level: 'silent' });
const CLASH_ID = 500;
/** A member whose name only looks like an earlier one's: `Аdmin`, with a Cyrillic А. */
const LOOKALIKE_ID = 502;
const CLI = join(import.meta.dirname, '../../src/import/torrentpier/cli.ts');

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, timeout: CHILD_PROCESS_MS }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

function table(report: ImportReport, name: string): TableReport {
  const found = report.tables().find((t) => t.table === name);
  assert.ok(found, `the report has a line for ${name}`);
  return found;
}

describe('TorrentPier import', { skip: !mariaDbAvailable() && 'mariadb-server is not installed' }, () => {
  let server: PrivateMariaDb;
  let files: string;
  const fixtures = new Map<TorrentPierVersion, FixtureSummary>();

  before(async () => {
    server = await startPrivateMariaDb();
    files = mkdtempSync(join(tmpdir(), 'tp-import-files-'));
    const admin = await server.connect();
    await admin.query('CREATE DATABASE tp24; CREATE DATABASE tp30');
    await admin.end();
    for (const version of ['2.4', '3.0'] as const) {
      const db = version === '2.4' ? 'tp24' : 'tp30';
      const conn = await server.connect(db);
      fixtures.set(version, await createTorrentPierFixture(conn, version, join(files, db)));
      // A member whose name and e-mail clash, ignoring case, with earlier ones in other batches (MySQL's collation let them in).
      await conn.query(
        "INSERT INTO bb_users (user_id, username, user_password, user_email, user_sig, user_regdate) VALUES (?, 'ADMIN', ?, 'User4@Example.org', '', 1600000000)",
        [CLASH_ID, 'f'.repeat(32)],
      );
      await conn.query(
        "INSERT INTO bb_users (user_id, username, user_password, user_email, user_sig, user_regdate) VALUES (?, '\u0410dmin', ?, 'lookalike@example.org', '', 1600000000)",
        [LOOKALIKE_ID, 'f'.repeat(32)],
      );
      await conn.end();
    }
  });
  after(async () => {
    await server?.stop();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it('runs as `npm run import:torrentpier`: progress on stderr, the report on stdout, exit 0; then refuses the filled target (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-import-cli-'));
    try {
      const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'forum.db')}`, UPLOAD_DIR: join(dir, 'uploads'), EMOJI_CATALOG: 'none' };
      const args = [CLI, '--from', server.url('tp30'), '--files', join(files, 'tp30'), '--batch-size', '5'];
      const first = await run(args, env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^Import finished in/);
      assert.match(first.stdout, /bb_posts\s+48\s+48\s+0/);
      assert.match(first.stdout, /bb_users: 1 imported with a change: user name clashes with an earlier one ignoring case/);
      assert.match(first.stderr, /TorrentPier 3\.0\.x database; importing into SQLite\./);
      assert.match(first.stderr, /bb_posts: 48 rows in/);
      // Without --avatars-dir: one line says why every avatar stayed behind.
      assert.match(first.stderr, /No --avatars-dir folder: avatars will not be read/);
      assert.ok(first.stdout.includes(`\n  avatars: 4 skipped: ${NO_AVATARS_DIR_REASON} (id 3, 4, 6, 7)\n`), first.stdout);
      const again = await run(args, env);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /Import refused: the target database is not empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes --avatars-dir; run again into a new database (a restarted import), it stores no avatar file twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-import-avatars-'));
    try {
      const avatarFiles = () => readdirSync(join(dir, 'uploads', 'avatars')).sort();
      const importInto = (db: string) =>
        run([CLI, '--from', server.url('tp24'), '--files', join(files, 'tp24'), `--avatars-dir=${join(files, 'tp24', avatarsFolderOf('2.4'))}`], {
          ...process.env,
          DATABASE_URL: `sqlite:${join(dir, db)}`,
          UPLOAD_DIR: join(dir, 'uploads'),
          EMOJI_CATALOG: 'none',
        });
      const first = await importInto('first.db');
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /\n {2}avatars\s+4\s+1\s+3\n/);
      assert.doesNotMatch(first.stderr, /No --avatars-dir/);
      const stored = avatarFiles();
      assert.equal(stored.length, 1);
      assert.match(stored[0]!, /^[0-9a-f]{32}\.webp$/);
      const second = await importInto('second.db');
      assert.equal(second.code, 0, second.stderr);
      assert.deepEqual(avatarFiles(), stored, 'the same file, no temporary left behind');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad arguments and an unreachable source with exit code 2', async () => {
    const env = { ...process.env, DATABASE_URL: 'sqlite::memory:' };
    const missing = await run([CLI], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--from is required\nusage: npm run import:torrentpier/);
    assert.equal((await run([CLI, '--from', server.url('tp24'), '--batch-size', '0'], env)).code, 2);
    assert.equal((await run([CLI, '--from', server.url('tp24'), '--files', '/nonexistent/folder'], env)).code, 2);
    const noAvatars = await run([CLI, '--from', server.url('tp24'), '--avatars-dir', '/nonexistent/avatars'], env);
    assert.equal(noAvatars.code, 2);
    assert.match(noAvatars.stderr, /--avatars-dir \/nonexistent\/avatars is not a folder/);
    const unreachable = await run([CLI, '--from', 'mysql://root@localhost/tp?socket=%2Fnonexistent.sock'], env);
    assert.equal(unreachable.code, 2);
    assert.match(unreachable.stderr, /Import refused: cannot connect to the TorrentPier database/);
  });

  for (const version of ['2.4', '3.0'] as const) {
    for (const kind of databaseKinds()) {
      describe(`${version}.x into ${kind}`, () => {
        let database: TestDatabase;
        let uploads: string;
        let config: Config;
        let report: ImportReport;
        let built: BuiltApp;
        let fixture: FixtureSummary;
        const lines: string[] = [];
        const source = () => server.url(version === '2.4' ? 'tp24' : 'tp30');

        before(async () => {
          fixture = fixtures.get(version)!;
          database = await createTestDatabase(kind, { sqliteFile: true });
          uploads = mkdtempSync(join(tmpdir(), 'tp-import-uploads-'));
          config = testConfig(database, { UPLOAD_DIR: uploads });
          const filesDir = join(files, version === '2.4' ? 'tp24' : 'tp30');
          report = await importTorrentPier({
            from: source(),
            files: filesDir,
            avatarsDir: join(filesDir, avatarsFolderOf(version)),
            config,
            log: silent,
            batchSize: 7,
            progress: (line) => lines.push(line),
          });
          built = await buildApp(config, { logger: silent });
        });
        after(async () => {
          await built?.app.close();
          await database?.drop();
          if (uploads) rmSync(uploads, { recursive: true, force: true });
        });

        it('reports every table with its counts, the system accounts and merged message copies skipped with their reasons', () => {
          const users = table(report, 'bb_users');
          // The fixture's members, the name clash and the look-alike; the guest and the bot are read and skipped.
          assert.equal(users.read, fixture.users.length + 4);
          assert.equal(users.imported, fixture.users.length + 2);
          assert.deepEqual(
            users.skips.map((s) => s.count),
            [2],
          );
          const pms = table(report, 'bb_privmsgs');
          assert.equal(pms.read, fixture.rows['bb_privmsgs']);
          // Six fixture messages (three read, each with a SENT copy) and four other mailbox shapes, one kept by nobody.
          assert.equal(pms.imported, 9);
          assert.deepEqual(
            pms.skips.map((s) => [s.reason, s.count]),
            [
              [MERGED_REASON, 3],
              [NOBODY_KEEPS_REASON, 1],
            ],
          );
          for (const t of report.tables()) assert.equal(t.read, t.imported + t.skipped, `${t.table}: read = imported + skipped`);
          assert.equal(table(report, 'bb_posts').imported, fixture.postIds.length);
          assert.equal(table(report, 'bb_bt_torrents').imported, fixture.torrents.length);
          assert.match(report.format(), /bb_privmsgs: 3 skipped: the sender's copy of a message: merged into that message/);
          assert.ok(
            lines.some((line) => line.startsWith('bb_posts: ')),
            'progress names each table',
          );
        });

        it('moves users with decoded names and e-mails, roles, bans, hashes as they were, passkeys and tracker figures', async () => {
          const db = built.database.db;
          const rows = await db.selectFrom('users').selectAll().orderBy('id').execute();
          assert.deepEqual(
            rows.map((r) => r.id),
            [...fixture.users.map((u) => u.id), CLASH_ID, LOOKALIKE_ID],
          );
          const clash = rows.find((r) => r.id === CLASH_ID)!;
          assert.equal(clash.username, `ADMIN (${CLASH_ID})`, 'renamed: "admin" came first');
          assert.equal(clash.email, `user-${CLASH_ID}@imported.invalid`, 'user4@example.org came first');
          // Only looks like "admin": kept as it was, so its member logs in with it, and marked (docs/members.md, "Look-alike names").
          const lookalike = rows.find((r) => r.id === LOOKALIKE_ID)!;
          assert.deepEqual([lookalike.username, Boolean(lookalike.username_lookalike)], ['\u0410dmin', true]);
          assert.equal(lookalike.username_skeleton, rows.find((r) => r.username === 'admin')!.username_skeleton);
          assert.equal(rows.filter((r) => Boolean(r.username_lookalike)).length, 1);
          // The clashes, the look-alike, and the two MODs: one who moderates forums, one whose level alone says so.
          assert.equal(table(report, 'bb_users').notes.length, 5);
          for (const u of fixture.users) {
            const row = rows.find((r) => r.id === u.id)!;
            assert.equal(row.username, u.name);
            assert.equal(row.email, u.email);
            // A MOD moderates through grants (below); a MOD that no entry names moderated nothing upstream: both are members.
            assert.equal(row.role, u.level === 1 ? 'admin' : 'user');
            assert.equal(row.status, u.banned ? 'banned' : u.active ? 'active' : 'pending');
            assert.equal(row.ban_reason, u.banned ? 'spam & <abuse>' : null, 'the ban keeps its reason, without an end');
            assert.equal(row.banned_until, null);
            assert.notEqual(row.password_hash, UNUSABLE_PASSWORD);
            assert.match(row.password_hash, u.scheme === 'bcrypt' ? /^\$2y\$/ : /^[0-9a-f]{32}$/);
            assert.equal(row.signature, `[i]sig of ${u.name}[/i] & more`);
          }
          const passkeys = await db.selectFrom('passkeys').selectAll().orderBy('user_id').execute();
          assert.deepEqual(
            passkeys.map((p) => [p.user_id, p.passkey]),
            fixture.users.filter((u) => u.passkey !== null).map((u) => [u.id, u.passkey]),
          );
          const stats = await db.selectFrom('tracker_user_stats').selectAll().where('user_id', '=', 3).executeTakeFirstOrThrow();
          // Upstream's ratio counts release and bonus upload on top of the total.
          assert.equal(stats.uploaded, 3 * 1_000_000_000 + 3 * 1000 + 3 * 10);
          assert.equal(stats.downloaded, 3 * 400_000_000);
          assert.equal(stats.bonus_points, 375, 'user_points 3.75 in hundredths');
        });

        it('gives members their avatars as an upload would, and leaves a missing, corrupt or forbidden one behind with its reason', async () => {
          const avatars = table(report, AVATARS);
          assert.deepEqual([avatars.read, avatars.imported, avatars.skipped], [fixture.avatars.length, 1, 3]);
          const idOf = (kind: string) => String(fixture.avatars.find((a) => a.kind === kind)!.userId);
          const reasons = Object.fromEntries(avatars.skips.map((s) => [s.examples.join(','), s.reason]));
          assert.equal(reasons[idOf('missing')], 'its file is not in --avatars-dir');
          assert.match(reasons[idOf('corrupt')]!, /^its file is refused: (The file is not an image this forum can read|The image is damaged)/);
          assert.match(reasons[idOf('forbidden')]!, /dis_avatar/);

          const rows = await built.database.db.selectFrom('users').select(['id', 'avatar']).where('avatar', 'is not', null).execute();
          const shown = fixture.avatars.find((a) => a.kind === 'png')!;
          assert.deepEqual(
            rows.map((r) => r.id),
            [shown.userId],
          );
          assert.match(rows[0]!.avatar!, /^[0-9a-f]{32}\.webp$/);
          const name = fixture.users.find((u) => u.id === shown.userId)!.name;
          const member = (await built.app.inject({ method: 'GET', url: `/api/members?search=${encodeURIComponent(name)}` })).json().data[0];
          assert.equal(member.avatar_url, `/avatars/${rows[0]!.avatar}`);
          const file = await built.app.inject({ method: 'GET', url: member.avatar_url });
          assert.equal(file.statusCode, 200);
          const stored = await sharp(file.rawPayload).metadata();
          assert.deepEqual([stored.format, stored.width, stored.height], ['webp', AVATAR_SIZE, AVATAR_SIZE]);
        });

        it('keeps forums in the board order, topics and posts with their ids, decoded text, and guests without an author', async () => {
          const db = built.database.db;
          const forums = await db.selectFrom('forums').selectAll().orderBy('display_order').execute();
          // Categories are numbered in reverse (category 2 first); forums inside a category by forum_order, also reversed.
          assert.deepEqual(
            forums.map((f) => f.id),
            [4, 3, 5, 2, 1, 6],
          );
          assert.deepEqual(
            Object.fromEntries(forums.map((f) => [f.id, f.parent_id])),
            { 1: null, 2: 1, 3: null, 4: 3, 5: 3, 6: 1 },
            'subforums stay in their forum',
          );
          assert.equal(forums[0]!.name, 'Forum 4 <releases>');
          // Categories keep their ids, decoded titles and order; top-level forums are in theirs, subforums in their parent's.
          const categories = await db.selectFrom('categories').selectAll().orderBy('id').execute();
          assert.deepEqual(
            categories.map((c) => [c.id, c.title, c.display_order]),
            [
              [1, 'Category 1 & co', 20],
              [2, 'Category 2 & co', 10],
            ],
          );
          assert.deepEqual(Object.fromEntries(forums.map((f) => [f.id, f.category_id])), { 1: 1, 2: null, 3: 2, 4: null, 5: null, 6: null });
          const index = dom((await built.app.inject({ method: 'GET', url: '/' })).body);
          assert.deepEqual(index.texts('main section.category h2'), ['Category 2 & co', 'Category 1 & co'], 'the index heads them in the old order');
          assert.deepEqual(index.texts('main section.category table.forums tbody td:first-child > a'), ['Forum 3 <releases>', 'Forum 1 <releases>']);
          // Asked by the admin, who views every forum (the team forum is not for guests).
          const admin = await built.services.auth.issueToken(await built.services.users.get(fixture.users[0]!.id));
          const listed = (await built.app.inject({ method: 'GET', url: '/api/categories', headers: { authorization: `Bearer ${admin.token}` } })).json()
            .data as Array<{
            id: number;
            forums: Array<{ id: number }>;
          }>;
          assert.deepEqual(
            listed.map((c) => [c.id, c.forums.map((f) => f.id)]),
            [
              [2, [3, 4, 5]],
              [1, [1, 2, 6]],
            ],
          );
          const categoriesLine = table(report, 'bb_categories');
          assert.deepEqual([categoriesLine.read, categoriesLine.imported, categoriesLine.skipped], [2, 2, 0]);
          assert.equal(forums[0]!.description, 'Description of forum 4 & more');
          const topics = await db.selectFrom('topics').selectAll().orderBy('id').execute();
          assert.deepEqual(
            topics.map((t) => t.id),
            fixture.topicIds,
          );
          assert.equal(topics[0]!.title, 'Topic 1: "quotes" & <tags>');
          // Topic 1 was an announcement and topic 2 a sticky; every seventh was locked.
          assert.deepEqual(
            topics.filter((t) => Boolean(t.announced)).map((t) => t.id),
            [1],
          );
          assert.deepEqual(
            topics.filter((t) => Boolean(t.pinned)).map((t) => t.id),
            [2],
          );
          assert.deepEqual(table(report, 'bb_topics').notes, [], 'an announcement moves as one: nothing to note');
          assert.deepEqual(
            topics.filter((t) => Boolean(t.locked)).map((t) => t.id),
            fixture.topicIds.filter((id) => id % 7 === 0),
          );
          assert.equal(topics[0]!.posts_count, 4);
          assert.equal(topics[0]!.views_count, 3);
          assert.equal(
            forums.reduce((sum, f) => sum + f.posts_count, 0),
            fixture.postIds.length,
          );
          const posts = await db.selectFrom('posts').selectAll().orderBy('id').execute();
          assert.deepEqual(
            posts.map((p) => p.id),
            fixture.postIds,
          );
          assert.equal(posts[0]!.body, decodeHTML(phpPrepareMessage(EVERY_TAG_POST)));
          assert.match(posts[0]!.body, /\[code\]if \(a < b && c > d\) \{\}\[\/code\]/);
          assert.match(posts[0]!.body, /© Fish & Chips/);
          assert.equal(posts[1]!.author_id, null, 'a guest post (poster -1) has no author');
          assert.equal(posts[1]!.guest_name, 'Visitor <guest>', 'and shows the name the guest gave');
          assert.equal(posts[0]!.guest_name, null);
          assert.equal(posts[0]!.created_at, new Date((1_600_000_000 + 3600) * 1000).toISOString());
          const commented = posts.filter((p) => p.mod_comment !== null);
          assert.deepEqual(
            commented.map((p) => [p.id, p.mod_comment, p.mod_comment_kind, p.mod_comment_by]),
            [[3, 'Please read the [b]rules[/b] & seed', 'warning', fixture.users.find((u) => u.id > 0)!.id]],
          );
          const watch = await db.selectFrom('watchlist').selectAll().execute();
          assert.equal(watch.length, fixture.rows['bb_topics_watch']);
          const thanked = await db.selectFrom('thanks').selectAll().orderBy('topic_id').orderBy('created_at').execute();
          assert.equal(thanked.length, fixture.rows['bb_thx']! - 1, 'all but the one from a member who was not imported');
          assert.equal(thanked[0]!.created_at, new Date(1_600_100_000 * 1000).toISOString());
        });

        it('brings the ranks, all special, without their old images, and who holds them', async () => {
          const db = built.database.db;
          const ranks = await db.selectFrom('ranks').selectAll().orderBy('id').execute();
          assert.deepEqual(
            ranks.map((rank) => [rank.id, rank.title, rank.min_posts, rank.image_url]),
            [
              [1, 'Administrator', null, null],
              [2, 'Release team & "friends"', null, null],
            ],
          );
          const holders = await db.selectFrom('users').select(['id', 'rank_id']).where('rank_id', 'is not', null).execute();
          assert.deepEqual(
            holders.map((holder) => [holder.id, holder.rank_id]),
            [[2, 2]],
            'a rank that does not exist upstream is not given',
          );
        });

        it('brings the polls with their totals and voters: a finished one closed, a deleted one left out', async () => {
          const db = built.database.db;
          const polls = await db.selectFrom('polls').selectAll().orderBy('topic_id').execute();
          assert.deepEqual(
            polls.map((poll) => poll.topic_id),
            fixture.polls.map((poll) => poll.topicId),
            'the deleted poll (topic_vote 0) stays behind',
          );
          for (const [index, expected] of fixture.polls.entries()) {
            const poll = polls[index]!;
            assert.equal(poll.question, expected.question);
            assert.deepEqual([poll.max_choices, poll.results, Boolean(poll.allow_change)], [1, 'always', false]);
            assert.equal(poll.closed_at !== null, expected.closed);
            const topic = await db.selectFrom('topics').select('created_at').where('id', '=', expected.topicId).executeTakeFirstOrThrow();
            assert.equal(poll.ends_at, new Date(new Date(topic.created_at).getTime() + 180 * 86_400_000).toISOString(), 'upstream poll_max_days');
            const options = await db.selectFrom('poll_options').selectAll().where('poll_id', '=', poll.id).orderBy('position').execute();
            assert.deepEqual(
              options.map((option) => ({ text: option.text, votes: option.imported_votes })),
              expected.options,
            );
            const ballots = await db.selectFrom('poll_ballots').select('user_id').where('poll_id', '=', poll.id).orderBy('user_id').execute();
            assert.deepEqual(
              ballots.map((ballot) => ballot.user_id),
              [...expected.voters].sort((a, b) => a - b),
            );
          }
          // A voter's ballot stands without its answers: they have voted, and cannot again.
          const voter = fixture.polls[0]!.voters[0]!;
          const seen = await built.services.forum.polls.get(fixture.polls[0]!.topicId, null);
          assert.deepEqual(
            seen.options.map((option) => option.votes),
            fixture.polls[0]!.options.map((option) => option.votes),
          );
          assert.equal(seen.voters, fixture.polls[0]!.voters.length);
          const row = await db.selectFrom('users').selectAll().where('id', '=', voter).executeTakeFirstOrThrow();
          const asVoter = await built.services.forum.polls.get(fixture.polls[0]!.topicId, { id: row.id, name: row.username, email: row.email, role: row.role });
          assert.deepEqual(asVoter.myChoices, []);
        });

        it('brings the access model exactly: every forum level, the groups, members and requests, and the grants to groups and members', async () => {
          const access = fixture.access!;
          const db = built.database.db;
          const forums = await db.selectFrom('forums').selectAll().orderBy('id').execute();
          assert.deepEqual(
            Object.fromEntries(forums.map((f) => [f.id, Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, f[`level_${action}`]]))])),
            access.levels,
          );
          const groups = await db.selectFrom('user_groups').selectAll().orderBy('id').execute();
          assert.deepEqual(
            groups.map((g) => ({ id: g.id, name: g.name, description: g.description, type: g.type })),
            access.groups,
          );
          assert.deepEqual(
            groups.map((g) => g.name_key),
            access.groups.map((g) => g.name.toLowerCase()),
          );
          const members = await db.selectFrom('group_members').selectAll().orderBy('group_id').orderBy('user_id').execute();
          assert.deepEqual(
            members.map((m) => ({ groupId: m.group_id, userId: m.user_id, role: m.role, status: m.status })),
            access.members,
          );
          // Group grants before member grants in each forum (both databases order NULLs differently).
          const grants = (await db.selectFrom('forum_grants').selectAll().execute())
            .map((g) => ({ forumId: g.forum_id, groupId: g.group_id, userId: g.user_id, actions: actionsOf(g.actions), moderate: Boolean(g.moderate) }))
            .sort(
              (a, b) =>
                a.forumId - b.forumId || (a.groupId === null ? 1 : 0) - (b.groupId === null ? 1 : 0) || (a.groupId ?? a.userId!) - (b.groupId ?? b.userId!),
            );
          assert.deepEqual(grants, access.grants);

          for (const [name, counts] of Object.entries(access.counts)) {
            const line = table(report, name);
            assert.deepEqual([line.read, line.imported, line.skipped], counts, name);
          }
          const details = (name: string) => {
            const line = table(report, name);
            const pair = (text: string, examples: string[]): [string, string] => [text, examples.join(' ')];
            return { skips: line.skips.map((s) => pair(s.reason, s.examples)), notes: line.notes.map((n) => pair(n.note, n.examples)) };
          };
          assert.deepEqual(details('bb_forums').notes, [
            ['auth_post = 4 is no TorrentPier level (upstream lets nobody through, admins neither): admins only', '6'],
            ['auth_edit = -1 is no TorrentPier level (upstream lets nobody through, admins neither): admins only', '6'],
            ['auth_download = 9 is no TorrentPier level (upstream lets nobody through, admins neither): admins only', '6'],
            ['locked upstream: only its moderators posted, replied, edited or deleted there; post, reply, edit, delete and upload raised to moderators', '6'],
          ]);
          assert.deepEqual(details('bb_groups'), {
            skips: [[PERSONAL_GROUP_REASON, '1 3 8 9 10']],
            notes: [
              ['its name clashes with an earlier group ignoring case: renamed to "name (id)"', '6'],
              ['group_type = 7 is no TorrentPier group type: hidden (invitation only)', '7'],
              ['its leader (group_moderator) is no member upstream: added as its leader (the group holds no forum grant, so this opens nothing)', '6'],
              [
                'its leader (group_moderator) is no member upstream and the group holds forum grants: no leader here (making them one would give them the grants)',
                '11',
              ],
              ['its leader (group_moderator) does not exist upstream or was not imported: the group has no leader', '12'],
            ],
          });
          assert.deepEqual(details('bb_user_group'), {
            skips: [
              [
                "membership of a member's personal group: its grants are that member's own here",
                `1/${access.people.personalModerator} 3/2 8/${access.people.grantee} 9/${GONE_USER_ID} 10/${access.people.personalModerator}`,
              ],
              ['the member was not imported', `5/${GONE_USER_ID}`],
            ],
            notes: [
              [
                "the group's leader with a request pending upstream: kept as a request, so the group has no leader here (accepting it would give them the group's forum grants)",
                `4/${fixture.users[9]!.id}`,
              ],
            ],
          });
          assert.deepEqual(details('bb_auth_access'), {
            skips: [
              ['grants nothing: no permission bit is set', '2/1'],
              ['the forum does not exist upstream', '2/99'],
              ["the personal group's member was not imported", '9/5'],
              ['the group does not exist upstream', '77/1'],
            ],
            notes: [
              ['forum_perm bits that name no permission (bit 0, bits 14 and up) dropped', '8/2'],
              ['the same member and forum as an earlier entry: merged into one grant (upstream ORs them)', '10/2'],
            ],
          });

          // Both MODs are members: one moderates through grants, the other moderated nothing upstream.
          const mods = fixture.users.filter((u) => u.level === 2);
          const roles = await db
            .selectFrom('users')
            .select(['id', 'role'])
            .where(
              'id',
              'in',
              mods.map((u) => u.id),
            )
            .execute();
          assert.deepEqual(
            roles.map((r) => r.role),
            ['user', 'user'],
          );
          const userNotes = details('bb_users').notes;
          const modNotes = (id: number) =>
            userNotes.filter(([note, ids]) => note.startsWith('user_level MOD') && ids.split(' ').includes(String(id))).map(([note]) => note);
          assert.deepEqual(
            mods.map((u) => modNotes(u.id)),
            mods.map((u) => [
              access.forumModerators.includes(u.id)
                ? 'user_level MOD from moderating forums: a member who moderates those forums (grants that moderate)'
                : 'user_level MOD without a forum to moderate (upstream it gave no forum rights): a member',
            ]),
          );
          assert.deepEqual(
            mods.map((u) => access.forumModerators.includes(u.id)),
            [true, false],
            'one MOD of each kind',
          );

          // The forum page names the moderators, as upstream's did.
          const forumPage = await built.app.inject({ method: 'GET', url: '/viewforum.php?f=2' });
          const page = await built.app.inject({ method: 'GET', url: String(forumPage.headers.location) });
          assert.match(
            page.body,
            new RegExp(`<p class="moderators"><span class="muted">Moderators:</span> <a href="/profile/[^"]+\\.${access.people.personalModerator}/">`),
          );
        });

        it('closes the team forum to guests and outsiders and opens it to its group, through the one access rule', async () => {
          const access = fixture.access!;
          const { people, teamForumId: team } = access;
          const forumAccess = built.services.forum.access;
          // Who asks, as every request sees them: their role, accepted groups and moderated forums, read with their credentials.
          const readerOf = async (userId: number) => {
            const token = await built.services.auth.issueToken(await built.services.users.get(userId));
            return (await built.services.auth.authenticateToken(token.token))!.user;
          };
          const guest = await forumAccess.of(null);
          const outsider = await forumAccess.of(await readerOf(people.outsider));
          const requester = await forumAccess.of(await readerOf(people.teamRequest));
          const teamMember = await forumAccess.of(await readerOf(people.teamMember));
          const grantee = await forumAccess.of(await readerOf(people.grantee));
          const admin = await forumAccess.of(await readerOf(fixture.users[0]!.id));
          for (const [who, permissions] of [
            ['a guest', guest],
            ['a member outside the group', outsider],
            ['a member whose request is pending', requester],
          ] as const) {
            assert.deepEqual([permissions.may(team, 'view'), permissions.may(team, 'read')], [false, false], who);
          }
          assert.deepEqual(
            [teamMember.may(team, 'view'), teamMember.may(team, 'read'), teamMember.may(team, 'post')],
            [true, true, false],
            "the group's member",
          );
          assert.deepEqual(
            [grantee.may(team, 'view'), grantee.may(team, 'post'), grantee.may(team, 'reply'), grantee.may(team, 'edit')],
            [true, true, true, false],
            'the member with a grant of their own',
          );
          assert.equal(admin.may(team, 'read'), true);
          // Forum 2: everyone reads it, members only download.
          assert.deepEqual([guest.may(2, 'read'), guest.may(2, 'post'), guest.may(2, 'download'), outsider.may(2, 'download')], [true, true, false, true]);
          // Values that are no level: admins only; and the forum was locked: its moderators reply, members no longer.
          assert.deepEqual(
            [outsider.may(6, 'view'), outsider.may(6, 'post'), outsider.may(6, 'download'), outsider.may(6, 'reply'), admin.may(6, 'post')],
            [true, false, false, false, true],
          );
          // Moderation through a real group's grant and through a personal group's.
          const viaGroup = await readerOf(people.viaGroupModerator);
          assert.deepEqual(viaGroup.moderatedForums, [3]);
          assert.deepEqual([teamMember.moderates(3), teamMember.moderates(1)], [true, false]);
          const personal = await forumAccess.of(await readerOf(people.personalModerator));
          assert.deepEqual([personal.moderates(2), personal.moderates(3), personal.moderates(1)], [true, true, false]);
        });

        it('indexes the imported posts for search before the service starts', async () => {
          assert.ok(lines.some((line) => line.startsWith('search index: ')));
          const found = await built.app.inject({ method: 'GET', url: '/api/search?search=fish+chips' });
          assert.equal(found.statusCode, 200);
          assert.ok(
            found.json().data.some((result: { post_id: number }) => result.post_id === fixture.postIds[0]),
            'the post with "Fish & Chips" is found',
          );
        });

        it('moves private messages once each (the sender’s copy merged), with both folders, unread counts and the mail setting', async () => {
          const db = built.database.db;
          const messages = await db.selectFrom('private_messages').selectAll().orderBy('id').execute();
          assert.equal(messages.length, 9);
          const [first, second] = [fixture.users[0]!, fixture.users[1]!];
          // Message 0 was read: its inbox row (id 1) is kept and its SENT copy (id 2) gave the sender their side back.
          const read = messages.find((m) => m.id === 1)!;
          assert.equal(read.subject, 'Hello #0 & "friends"');
          assert.equal(read.body, '[b]PM 0[/b] <3 & bye');
          assert.deepEqual([read.sender_id, read.recipient_id, read.sender_deleted_at, read.recipient_deleted_at], [first.id, second.id, null, null]);
          assert.equal(read.read_at, read.created_at);
          assert.equal(
            messages.some((m) => m.id === 2),
            false,
            'the SENT copy is not a message of its own',
          );
          const unread = messages.find((m) => m.subject === 'Hello #1 & "friends"')!;
          assert.equal(unread.read_at, null);
          assert.deepEqual([unread.sender_deleted_at, unread.recipient_deleted_at], [null, null]);

          const shape = (type: number) => messages.find((m) => m.subject === `Mailbox shape ${type}`);
          assert.ok(shape(3)!.sender_deleted_at !== null && shape(3)!.recipient_deleted_at === null, 'saved by its recipient only');
          assert.ok(shape(2)!.sender_deleted_at === null && shape(2)!.recipient_deleted_at !== null, "in its sender's Sent folder only");
          assert.equal(shape(0), undefined, 'kept by nobody');
          assert.deepEqual([shape(5)!.sender_id, shape(5)!.recipient_id, shape(5)!.body], [null, second.id, 'Shape 5 text']);

          const counts = await db.selectFrom('users').select(['id', 'unread_messages', 'message_mails']).execute();
          for (const user of counts) {
            const expected = messages.filter((m) => m.recipient_id === user.id && m.read_at === null && m.recipient_deleted_at === null).length;
            assert.equal(user.unread_messages, expected, `unread of user ${user.id}`);
            assert.equal(Boolean(user.message_mails), user.id % 3 === 0, `mail setting of user ${user.id}`);
          }
          // The member reads it where they expect it: their Inbox through the API.
          const token = await built.services.auth.issueToken(await built.services.users.get(second.id));
          const inbox = await built.app.inject({ method: 'GET', url: '/api/messages?per_page=100', headers: { authorization: `Bearer ${token.token}` } });
          assert.equal(inbox.statusCode, 200);
          assert.ok(inbox.json().data.some((m: { id: number; sender: { id: number } | null }) => m.id === 1 && m.sender?.id === first.id));
        });

        it('keeps torrents byte for byte with the hashes clients seed (the short 2.x hash repaired), statuses and freeleech', async () => {
          const db = built.database.db;
          for (const [n, f] of fixture.torrents.entries()) {
            const row = await db.selectFrom('torrents').selectAll().where('id', '=', f.topicId).executeTakeFirstOrThrow();
            assert.equal(row.topic_id, f.topicId);
            assert.equal(row.info_hash_v1, f.infoHashV1?.toString('hex') ?? null);
            assert.equal(row.info_hash_v2, f.infoHashV2?.toString('hex') ?? null);
            assert.deepEqual(Buffer.from(row.metainfo), f.bytes);
            assert.equal(row.status, ['checked', 'not_checked', 'duplicate', 'doubtful'][n % 4]);
            assert.equal(row.freeleech, ['none', 'gold', 'silver'][n % 3]);
            assert.equal(row.completed_count, f.topicId * 2);
          }
          const quirk = table(report, 'bb_bt_torrents').notes.find((note) => note.note.startsWith('v1 info hash stored right-trimmed'));
          assert.equal(quirk !== undefined, version === '2.4', 'only 2.x stores the short hash');
          const mapped = await db.selectFrom('import_attachments').selectAll().orderBy('attach_id').execute();
          assert.deepEqual(
            mapped.map((m) => [m.attach_id, m.torrent_id]),
            fixture.torrents.filter((f) => f.attachId !== null).map((f) => [f.attachId, f.topicId]),
          );
        });

        it('turns smilies into image emojis under their codes and censor words into word filters', async () => {
          const db = built.database.db;
          const emojis = await db
            .selectFrom('emojis')
            .innerJoin('emoji_categories', 'emoji_categories.id', 'emojis.emoji_category_id')
            .select(['emoji_shortcode', 'emojis.title', 'image_url', 'emoji_categories.title as category'])
            .orderBy('emojis.display_order')
            .execute();
          assert.deepEqual(
            emojis.map((e) => [e.emoji_shortcode, e.title, e.category]),
            [
              [':aa:', 'Smile', SMILIES_CATEGORY],
              [':ab:', 'Wink & grin', SMILIES_CATEGORY],
              [':cd:', 'Cool', SMILIES_CATEGORY],
            ],
          );
          assert.match(emojis[0]!.image_url!, /^\/emojis\/custom\/[0-9a-f]{32}\.gif$/);
          const image = await built.app.inject({ method: 'GET', url: emojis[0]!.image_url! });
          assert.equal(image.statusCode, 200);
          const filters = await db.selectFrom('word_filters').selectAll().orderBy('id').execute();
          assert.deepEqual(
            filters.map((f) => [f.pattern, f.replacement, f.pattern_type, f.filter_type, Boolean(f.is_active)]),
            [
              ['fool', 'f**l', 'exact', 'replace', true],
              ['spam*', '[censored]', 'wildcard', 'replace', true],
              ['*bad*', 'good', 'wildcard', 'replace', true],
            ],
          );
        });

        it('lets members log in with their old bcrypt and md5(md5()) passwords and rehashes them; refuses banned and inactive ones', async () => {
          const login = (username: string, password: string) =>
            built.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, headers: { 'content-type': 'application/json' } });
          for (const scheme of ['bcrypt', 'md5md5'] as const) {
            const u = fixture.users.find((x) => x.scheme === scheme && x.active && !x.banned)!;
            assert.equal((await login(u.name, 'wrong password')).statusCode, 401);
            const ok = await login(u.name, u.password);
            assert.equal(ok.statusCode, 200, `${scheme}: ${ok.body}`);
            const row = await built.database.db.selectFrom('users').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
            assert.match(row.password_hash, /^scrypt\$/, 'rehashed on the first success');
            assert.equal((await login(u.name, u.password)).statusCode, 200);
          }
          const banned = fixture.users.find((x) => x.banned)!;
          const refused = await login(banned.name, banned.password);
          assert.equal(refused.statusCode, 403);
          assert.equal(refused.json().error.message, 'This account has been banned: spam & <abuse>.');
          const inactive = fixture.users.find((x) => !x.active)!;
          assert.equal((await login(inactive.name, inactive.password)).statusCode, 403);
        });

        it('answers old links: viewtopic.php?t=, viewtopic.php?p=, viewforum.php?f= and dl.php?id=', async () => {
          const get = (url: string) => built.app.inject({ method: 'GET', url });
          const topic = await get('/viewtopic.php?t=2');
          assert.equal(topic.statusCode, 301);
          assert.match(String(topic.headers.location), /^\/topic\/topic-2-quotes-tags\.2\/$/);
          const post = await get('/viewtopic.php?p=6');
          assert.equal(post.statusCode, 301);
          assert.equal(post.headers.location, '/topic/topic-2-quotes-tags.2/?post=6#post-6');
          const page = await get(String(post.headers.location).split('#')[0]!);
          assert.equal(page.statusCode, 200);
          assert.match(page.body, /id="post-6"/);
          assert.match(page.body, /<span class="muted">Visitor &lt;guest&gt;<\/span>/, 'a guest post shows its name as upstream did');
          const forum = await get('/viewforum.php?f=3');
          assert.equal(forum.statusCode, 301);
          assert.match(String(forum.headers.location), /^\/forum\/forum-3-releases\.3\/$/);
          assert.equal((await get('/viewtopic.php?p=999999')).statusCode, 404);
          const withAttachment = fixture.torrents.find((f) => f.attachId !== null);
          if (withAttachment) {
            const dl = await get(`/dl.php?id=${withAttachment.attachId}`);
            assert.equal(dl.statusCode, 301);
            assert.equal(dl.headers.location, `/tracker/download/${withAttachment.topicId}/`);
          }
          assert.equal((await get('/dl.php?id=99999')).statusCode, 404);
        });

        it('answers an old /bt/announce.php?uk= announce of an imported torrent with its swarm', async () => {
          const torrent = fixture.torrents[0]!;
          assert.equal(torrent.trimmed, true);
          const [seeder, leecher] = fixture.users.filter((u) => u.passkey !== null && u.active && !u.banned);
          const announce = async (passkey: string, left: number, port: number) => {
            const response = await built.app.inject({
              method: 'GET',
              url: announceUrl({ passkey, infoHash: torrent.infoHashV1!, peerId: peerId(), left, port, event: 'started' }),
              remoteAddress: '127.0.0.1',
            });
            const body = decode(response.rawPayload);
            assert.ok(isDict(body));
            return body;
          };
          const first = await announce(seeder!.passkey!, 0, 50001);
          assert.equal(field(first, 'failure reason'), undefined, String(field(first, 'failure reason')));
          const second = await announce(leecher!.passkey!, 1000, 50002);
          assert.equal(field(second, 'failure reason'), undefined, String(field(second, 'failure reason')));
          assert.equal(field(second, 'complete'), 1);
          const peers = field(second, 'peers');
          assert.ok(Buffer.isBuffer(peers) && peers.length === 6, 'the seeder is in the leecher’s peer list');
          assert.equal(peers.readUInt16BE(4), 50001);
        });

        it('leaves new ids past the imported ones (PostgreSQL sequences moved)', async () => {
          const db = built.database.db;
          const now = new Date().toISOString();
          const user = await built.services.users.create({
            username: 'newcomer',
            email: 'newcomer@example.test',
            password: 'a long new password',
            role: 'user',
            status: 'active',
          });
          assert.ok(user.id > CLASH_ID);
          const forum = await db.insertInto('forums').values({ name: 'New', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
          assert.ok(forum.id > Math.max(...Object.keys(fixture.access!.levels).map(Number)));
          const category = await built.services.forum.categories.create({ title: 'New', display_order: 0 });
          assert.ok(category.id > 2);
          const group = await db
            .insertInto('user_groups')
            .values({ name: 'New', name_key: 'new', type: 'open', created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          assert.ok(group.id > Math.max(...fixture.access!.groups.map((g) => g.id)));
          const topic = await db
            .insertInto('topics')
            .values({ forum_id: forum.id, title: 'New', author_id: user.id, status: 'published', last_post_at: now, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          assert.ok(topic.id > Math.max(...fixture.topicIds));
          const post = await db
            .insertInto('posts')
            .values({ topic_id: topic.id, author_id: user.id, body: 'x', status: 'published', held_by_filter_id: null, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          assert.ok(post.id > Math.max(...fixture.postIds));
        });

        it('refuses to import into a database that already has content', async () => {
          await assert.rejects(importTorrentPier({ from: source(), files: null, config, log: silent }), ImportRefused);
        });
      });
    }
  }
});
