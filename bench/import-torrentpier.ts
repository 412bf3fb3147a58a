// `npm run bench import`: a generated TorrentPier 2.4.x forum (100,000 users,
// 1,000,000 posts, 50,000 torrents at BENCH_IMPORT_SCALE=1) written straight
// into a private MariaDB with multi-row INSERTs, then imported into a fresh
// SQLite file by the same code as `npm run import:torrentpier`. Generation and
// import are timed apart; the import's peak RSS is sampled to show that
// memory stays flat. Target: the import in under 10 minutes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type mysql from 'mysql2/promise';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { importTorrentPier } from '../src/import/torrentpier/importer.ts';
import { encode } from '../src/tracker/bencode.ts';
import { startPrivateMariaDb } from '../test/import/mariadb.ts';
import { phpEscapeQuotes, phpPrepareMessage, torrentPierSchema } from '../test/import/torrentpier-fixture.ts';

const BASE_TIME = 1_500_000_000;
const ROWS_PER_INSERT = 2000;

interface Sizes {
  users: number;
  forums: number;
  topics: number;
  posts: number;
  torrents: number;
  /** Private messages; every other one read, so with the sender's SENT copy too. */
  pms: number;
}

function sizes(): Sizes {
  const scale = Number(process.env['BENCH_IMPORT_SCALE'] ?? '1');
  if (!(scale > 0 && scale <= 1)) throw new Error('BENCH_IMPORT_SCALE must be in (0, 1]');
  const users = Math.round(100_000 * scale);
  const posts = Math.round(1_000_000 * scale);
  const torrents = Math.round(50_000 * scale);
  // 10 posts per topic on average; every torrent sits on a topic of its own.
  return { users, forums: 50, topics: Math.max(torrents, Math.round(posts / 10)), posts, torrents, pms: Math.round(200_000 * scale) };
}

async function insert(conn: mysql.Connection, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  if (rows.length > 0) await conn.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ?`, [rows]);
}

/** Rows made by `make(i)` for i in [from, to), inserted ROWS_PER_INSERT at a time. */
async function fill(conn: mysql.Connection, table: string, columns: string[], count: number, make: (i: number) => unknown[]): Promise<void> {
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(count, start + ROWS_PER_INSERT); i++) rows.push(make(i));
    await insert(conn, table, columns, rows);
  }
}

const TEXTS = [
  'Thanks for the release! [b]Seeding[/b] now & forever :aa:',
  '[quote="someone"]Is there a <better> version?[/quote]\nNot yet, wait for the remux.',
  'Screens: [img]https://example.org/s.png[/img]\n\n[spoiler="Tech info"][code]Video: 1920x1080 & 24 fps[/code][/spoiler]',
  '[list][*]one[*]two[*]three[/list] [url=https://example.org/]homepage[/url]',
];

/** A small valid v1 .torrent whose info dictionary is unique to `n`, and its info hash as 2.x stores it (right-trimmed of 0x20). */
function torrentFile(n: number): { bytes: Buffer; storedHash: Buffer } {
  const pieceLength = 1 << 20;
  const pieces = 64 + (n % 200);
  const info = { name: `Release ${n}`, 'piece length': pieceLength, length: pieces * pieceLength - 1000, pieces: randomBytes(pieces * 20) };
  const hash = createHash('sha1').update(encode(info)).digest();
  let end = hash.length;
  while (end > 0 && hash[end - 1] === 0x20) end--;
  return { bytes: encode({ announce: 'http://tracker.example/bt/announce.php', 'creation date': BASE_TIME + n, info }), storedHash: hash.subarray(0, end) };
}

async function generate(conn: mysql.Connection, files: string, s: Sizes): Promise<void> {
  for (const sql of torrentPierSchema('2.4')) await conn.query(sql);
  // Hashes cost nothing to make here: md5(md5()) as pre-2.4 boards hold them, one shared bcrypt hash for the rest.
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const bcryptHash = '$2y$10$QeekUGqdfMO0db30ixPmOerpVRGRsQTY3LIpmDLnGJhS.uD9SmUDK';
  await fill(
    conn,
    'bb_users',
    ['user_id', 'user_active', 'username', 'user_password', 'user_regdate', 'user_level', 'user_email', 'user_sig', 'user_points'],
    s.users,
    (i) => {
      const id = i + 2;
      return [
        id,
        1,
        phpEscapeQuotes(`member <${id}>`),
        i % 2 === 0 ? bcryptHash : md5(md5(`pw${id}`)),
        BASE_TIME + id,
        i === 0 ? 1 : 0,
        `m${id}@example.org`,
        '',
        (id % 1000) / 4,
      ];
    },
  );
  const passkey = (id: number) =>
    createHash('sha256')
      .update(String(id))
      .digest('base64')
      .replace(/[^A-Za-z0-9]/g, 'x')
      .slice(0, 20);
  await fill(conn, 'bb_bt_users', ['user_id', 'auth_key', 'u_up_total', 'u_down_total'], Math.floor(s.users / 2), (i) => {
    const id = i * 2 + 2;
    return [id, passkey(id), id * 1_000_000, id * 500_000];
  });
  await insert(
    conn,
    'bb_categories',
    ['cat_id', 'cat_title', 'cat_order'],
    [1, 2, 3, 4, 5].map((c) => [c, `Category ${c}`, c * 10]),
  );
  await fill(conn, 'bb_forums', ['forum_id', 'cat_id', 'forum_name', 'forum_desc', 'forum_order'], s.forums, (i) => [
    i + 1,
    (i % 5) + 1,
    `Forum ${i + 1}`,
    '',
    i,
  ]);
  const postsPer = Math.floor(s.posts / s.topics);
  const extra = s.posts - postsPer * s.topics;
  const firstPost = (t: number) => t * postsPer + Math.min(t, extra) + 1;
  await fill(
    conn,
    'bb_topics',
    ['topic_id', 'forum_id', 'topic_title', 'topic_poster', 'topic_time', 'topic_replies', 'topic_first_post_id', 'topic_last_post_time'],
    s.topics,
    (t) => [
      t + 1,
      (t % s.forums) + 1,
      phpEscapeQuotes(`Release "${t + 1}" & more`),
      (t % s.users) + 2,
      BASE_TIME + t * 60,
      postsPer - 1,
      firstPost(t),
      BASE_TIME + t * 60 + 3600,
    ],
  );
  // Posts in topic order, so that post ids grow with topics as on a real board.
  let topic = 0;
  await fill(conn, 'bb_posts', ['post_id', 'topic_id', 'forum_id', 'poster_id', 'post_time', 'mc_comment'], s.posts, (i) => {
    while (topic + 1 < s.topics && i + 1 >= firstPost(topic + 1)) topic++;
    return [i + 1, topic + 1, (topic % s.forums) + 1, i % 17 === 0 ? -1 : ((i * 7) % s.users) + 2, BASE_TIME + topic * 60 + (i % 50), ''];
  });
  const prepared = TEXTS.map(phpPrepareMessage);
  await fill(conn, 'bb_posts_text', ['post_id', 'post_text'], s.posts, (i) => [i + 1, `${prepared[i % prepared.length]} #${i + 1}`]);
  await fill(conn, 'bb_topics_watch', ['topic_id', 'user_id', 'notify_status'], Math.min(s.topics, s.users), (i) => [i + 1, i + 2, 0]);
  // Message m has id 2m+1 in the recipient's mailbox (READ when m is even, else NEW) and, when read, its SENT copy 2m+2.
  const pmColumns = ['privmsgs_id', 'privmsgs_type', 'privmsgs_subject', 'privmsgs_from_userid', 'privmsgs_to_userid', 'privmsgs_date'];
  const pm = (m: number, id: number, type: number) => [
    id,
    type,
    phpEscapeQuotes(`About "${m % 500}"`),
    (m % s.users) + 2,
    ((m * 7 + 1) % s.users) + 2,
    BASE_TIME + m * 30,
  ];
  const copies = (m: number) => (m % 2 === 0 ? [pm(m, 2 * m + 1, 0), pm(m, 2 * m + 2, 2)] : [pm(m, 2 * m + 1, 1)]);
  for (let start = 0; start < s.pms; start += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, s.pms - start) }, (_, k) => copies(start + k)).flat();
    await insert(conn, 'bb_privmsgs', pmColumns, rows);
    await insert(
      conn,
      'bb_privmsgs_text',
      ['privmsgs_text_id', 'privmsgs_text'],
      rows.map((row) => [row[0], `${prepared[Number(row[0]) % prepared.length]}`]),
    );
  }

  const uploads = join(files, 'data', 'uploads');
  mkdirSync(uploads, { recursive: true });
  await insert(conn, 'bb_attachments_config', ['config_name', 'config_value'], [['upload_dir', 'data/uploads']]);
  for (let start = 0; start < s.torrents; start += ROWS_PER_INSERT) {
    const torrents: unknown[][] = [];
    const desc: unknown[][] = [];
    const attach: unknown[][] = [];
    for (let n = start; n < Math.min(s.torrents, start + ROWS_PER_INSERT); n++) {
      const topicId = n + 1;
      const { bytes, storedHash } = torrentFile(n);
      const name = `${BASE_TIME + n}${md5(String(n))}`;
      writeFileSync(join(uploads, name), bytes);
      const attachId = 1000 + n;
      torrents.push([storedHash, topicId, firstPost(n), (n % s.users) + 2, (n % s.forums) + 1, attachId, 1 << 30, BASE_TIME + n * 60, n % 13, n % 3]);
      desc.push([attachId, name, `release-${topicId}.torrent`, 'torrent', bytes.length, 1]);
      attach.push([attachId, firstPost(n), (n % s.users) + 2]);
    }
    await insert(
      conn,
      'bb_bt_torrents',
      ['info_hash', 'topic_id', 'post_id', 'poster_id', 'forum_id', 'attach_id', 'size', 'reg_time', 'tor_status', 'tor_type'],
      torrents,
    );
    await insert(conn, 'bb_attachments_desc', ['attach_id', 'physical_filename', 'real_filename', 'extension', 'filesize', 'tracker_status'], desc);
    await insert(conn, 'bb_attachments', ['attach_id', 'post_id', 'user_id_1'], attach);
  }
}

export async function importBench(): Promise<void> {
  const s = sizes();
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const server = await startPrivateMariaDb();
  try {
    const admin = await server.connect();
    await admin.query('CREATE DATABASE tp CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await admin.end();
    const conn = await server.connect('tp');
    const files = join(dir, 'site');
    let started = performance.now();
    await generate(conn, files, s);
    await conn.end();
    const generation = (performance.now() - started) / 1000;
    process.stderr.write(
      `generated ${s.users} users, ${s.topics} topics, ${s.posts} posts, ${s.torrents} torrents, ${s.pms} private messages in ${generation.toFixed(1)} s\n`,
    );

    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'forum.db')}`,
      EMOJI_CATALOG: 'none',
      UPLOAD_DIR: join(dir, 'uploads'),
      LOG_LEVEL: 'silent',
    });
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
    started = performance.now();
    const report = await importTorrentPier({
      from: server.url('tp'),
      files,
      config,
      log: pino({ level: 'silent' }),
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    process.stdout.write(report.format());
    const rows = report.tables().reduce((sum, t) => sum + t.read, 0);
    console.log(`\n### TorrentPier import (scale ${process.env['BENCH_IMPORT_SCALE'] ?? '1'}): target < 600 s on SQLite\n`);
    console.log('| step | rows | seconds | rows/s |');
    console.log('| --- | ---: | ---: | ---: |');
    console.log(
      `| generate upstream (MariaDB, multi-row INSERTs, .torrent files) | ${s.users + s.topics + s.posts * 2 + s.torrents * 3 + s.pms * 3} | ${generation.toFixed(1)} | — |`,
    );
    console.log(`| import into SQLite | ${rows} | ${seconds.toFixed(1)} | ${Math.round(rows / seconds)} |`);
    console.log(`\nPeak RSS during the import: ${(peak / 1024 / 1024).toFixed(0)} MiB.`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
