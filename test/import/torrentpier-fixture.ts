// Our own stand-in for a TorrentPier database, built from the schema facts
// (/work/shared/spec/torrentpier-schema.md): the CREATE TABLEs of the tables
// the importer reads, in the 2.4.x variant (install/sql/mysql.sql, MyISAM,
// posts in bb_posts_text, torrents behind bb_attachments_desc) and the 3.0.x
// variant (InnoDB, bb_post_texts, torrents stored per topic, NULL hashes),
// and a deterministic generator of rows with the upstream's storage quirks:
// HTML-escaped names and titles, BBCode escaped with ENT_NOQUOTES, bcrypt
// `$2y$` and md5(md5()) password hashes, -1 for guests and deleted users,
// the sender's SENT copy of a read PM, info hashes right-trimmed of 0x20,
// avatar files where get_avatar_path() keeps them (one missing, one corrupt),
// and the access model: forum levels, groups, personal groups and grants.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import bcrypt from 'bcryptjs';
import type mysql from 'mysql2/promise';
import { decode, encode, isDict } from '../../src/tracker/bencode.ts';
import { png } from '../helpers/images.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

export type TorrentPierVersion = '2.4' | '3.0';

/** CREATE TABLE statements for one upstream version (SQL24 types). */
export function torrentPierSchema(version: TorrentPierVersion): string[] {
  const engine = version === '2.4' ? 'MyISAM' : 'InnoDB';
  const tail = `ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;
  const stamps = version === '3.0' ? ', created_at TIMESTAMP NULL DEFAULT NULL, updated_at TIMESTAMP NULL DEFAULT NULL' : '';
  const hashNull = version === '3.0' ? 'NULL DEFAULT NULL' : "NOT NULL DEFAULT ''";
  const tables = [
    `CREATE TABLE bb_users (
      user_id MEDIUMINT(8) NOT NULL AUTO_INCREMENT, user_active TINYINT(1) NOT NULL DEFAULT 1,
      username VARCHAR(255) NOT NULL DEFAULT '', user_password VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
      user_session_time INT(11) NOT NULL DEFAULT 0, user_lastvisit INT(11) NOT NULL DEFAULT 0,
      user_last_ip VARCHAR(42) NOT NULL DEFAULT '0', user_regdate INT(11) NOT NULL DEFAULT 0, user_reg_ip VARCHAR(42) NOT NULL DEFAULT '0',
      user_level TINYINT(4) NOT NULL DEFAULT 0, user_posts MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      user_timezone DECIMAL(5,2) NOT NULL DEFAULT 0.00, user_lang VARCHAR(255) NOT NULL DEFAULT 'en',
      user_new_privmsg SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0, user_unread_privmsg SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      user_last_privmsg INT(11) NOT NULL DEFAULT 0, user_opt INT(11) NOT NULL DEFAULT 0, user_rank INT(11) NOT NULL DEFAULT 0,
      avatar_ext_id TINYINT(4) NOT NULL DEFAULT 0, user_gender TINYINT(1) NOT NULL DEFAULT 0, user_birthday DATE NOT NULL DEFAULT '1900-01-01',
      user_email VARCHAR(255) NOT NULL DEFAULT '',
      ${version === '2.4' ? "user_skype VARCHAR(32) NOT NULL DEFAULT '', user_icq VARCHAR(15) NOT NULL DEFAULT ''," : ''}
      user_twitter VARCHAR(15) NOT NULL DEFAULT '', user_website VARCHAR(100) NOT NULL DEFAULT '',
      user_from VARCHAR(100) NOT NULL DEFAULT '', user_sig TEXT NOT NULL, user_occ VARCHAR(100) NOT NULL DEFAULT '',
      user_interests VARCHAR(255) NOT NULL DEFAULT '', user_actkey VARCHAR(255) NOT NULL DEFAULT '',
      user_newpasswd VARCHAR(255) NOT NULL DEFAULT '', autologin_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
      user_newest_pm_id MEDIUMINT(8) NOT NULL DEFAULT 0, user_points FLOAT(16,2) NOT NULL DEFAULT 0.00
      ${version === '3.0' ? ', totp_secret VARCHAR(255) NULL DEFAULT NULL, totp_enabled TINYINT(1) NOT NULL DEFAULT 0, user_actkey_time INT(11) NOT NULL DEFAULT 0' : ''}${stamps},
      PRIMARY KEY (user_id), KEY username (username(10)), KEY user_email (user_email(10)), KEY user_level (user_level)
    ) ${tail}`,
    `CREATE TABLE bb_banlist (
      ban_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, ban_userid MEDIUMINT(8) NOT NULL DEFAULT 0,
      ban_reason VARCHAR(255) NOT NULL DEFAULT '', PRIMARY KEY (ban_id, ban_userid)
    ) ${tail}`,
    `CREATE TABLE bb_categories (
      cat_id SMALLINT(5) UNSIGNED NOT NULL AUTO_INCREMENT, cat_title VARCHAR(100) NOT NULL DEFAULT '',
      cat_order SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0${stamps}, PRIMARY KEY (cat_id), KEY cat_order (cat_order)
    ) ${tail}`,
    `CREATE TABLE bb_forums (
      forum_id SMALLINT(5) UNSIGNED NOT NULL AUTO_INCREMENT, cat_id SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      forum_name VARCHAR(150) NOT NULL DEFAULT '', forum_desc TEXT NOT NULL, forum_status TINYINT(4) NOT NULL DEFAULT 0,
      forum_order SMALLINT(5) UNSIGNED NOT NULL DEFAULT 1, forum_posts MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      forum_topics MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, forum_last_post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      forum_tpl_id SMALLINT(6) NOT NULL DEFAULT 0, prune_days SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      auth_view TINYINT(2) NOT NULL DEFAULT 0, auth_read TINYINT(2) NOT NULL DEFAULT 0, auth_post TINYINT(2) NOT NULL DEFAULT 0,
      auth_reply TINYINT(2) NOT NULL DEFAULT 0, auth_edit TINYINT(2) NOT NULL DEFAULT 0, auth_delete TINYINT(2) NOT NULL DEFAULT 0,
      auth_sticky TINYINT(2) NOT NULL DEFAULT 0, auth_announce TINYINT(2) NOT NULL DEFAULT 0, auth_vote TINYINT(2) NOT NULL DEFAULT 0,
      auth_pollcreate TINYINT(2) NOT NULL DEFAULT 0, auth_attachments TINYINT(2) NOT NULL DEFAULT 0, auth_download TINYINT(2) NOT NULL DEFAULT 0,
      allow_reg_tracker TINYINT(1) NOT NULL DEFAULT 0, allow_porno_topic TINYINT(1) NOT NULL DEFAULT 0,
      self_moderated TINYINT(1) NOT NULL DEFAULT 0, forum_parent SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      show_on_index TINYINT(1) NOT NULL DEFAULT 1, forum_display_sort TINYINT(1) NOT NULL DEFAULT 0,
      forum_display_order TINYINT(1) NOT NULL DEFAULT 0
      ${version === '3.0' ? ', allow_anonymous TINYINT(1) NOT NULL DEFAULT 0' : ''}${stamps},
      PRIMARY KEY (forum_id), KEY forums_order (forum_order), KEY cat_id (cat_id)
    ) ${tail}`,
    `CREATE TABLE bb_topics (
      topic_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, forum_id SMALLINT(8) UNSIGNED NOT NULL DEFAULT 0,
      topic_title VARCHAR(250) NOT NULL DEFAULT '', topic_poster MEDIUMINT(8) NOT NULL DEFAULT 0, topic_time INT(11) NOT NULL DEFAULT 0,
      topic_views MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, topic_replies MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      topic_status TINYINT(3) NOT NULL DEFAULT 0, topic_vote TINYINT(1) NOT NULL DEFAULT 0, topic_type TINYINT(3) NOT NULL DEFAULT 0,
      topic_first_post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, topic_last_post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      topic_moved_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      ${version === '2.4' ? 'topic_attachment TINYINT(1) NOT NULL DEFAULT 0,' : ''}
      topic_dl_type TINYINT(1) NOT NULL DEFAULT 0, topic_last_post_time INT(11) NOT NULL DEFAULT 0,
      topic_show_first_post TINYINT(1) UNSIGNED NOT NULL DEFAULT 0, topic_allow_robots TINYINT(1) UNSIGNED NOT NULL DEFAULT 1
      ${version === '3.0' ? ', attach_ext_id TINYINT(3) UNSIGNED NOT NULL DEFAULT 0, attach_filesize BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, download_count MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, tracker_status TINYINT(1) NOT NULL DEFAULT 0' : ''}${stamps},
      PRIMARY KEY (topic_id), KEY forum_id (forum_id), KEY topic_last_post_id (topic_last_post_id)
    ) ${tail}`,
    `CREATE TABLE bb_posts (
      post_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, topic_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      forum_id SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0, poster_id MEDIUMINT(8) NOT NULL DEFAULT 0, post_time INT(11) NOT NULL DEFAULT 0,
      poster_ip VARCHAR(42) NOT NULL DEFAULT '0', poster_rg_id MEDIUMINT(8) NOT NULL DEFAULT 0, attach_rg_sig TINYINT(4) NOT NULL DEFAULT 0,
      post_username VARCHAR(25) NOT NULL DEFAULT '', post_edit_time INT(11) NOT NULL DEFAULT 0,
      post_edit_count SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      ${version === '2.4' ? 'post_attachment TINYINT(1) NOT NULL DEFAULT 0,' : 'post_anonymous TINYINT(1) NOT NULL DEFAULT 0,'}
      user_post TINYINT(1) NOT NULL DEFAULT 1, mc_comment TEXT NOT NULL, mc_type TINYINT(1) NOT NULL DEFAULT 0,
      mc_user_id MEDIUMINT(8) NOT NULL DEFAULT 0${stamps},
      PRIMARY KEY (post_id), KEY topic_id (topic_id), KEY poster_id (poster_id), KEY post_time (post_time)
    ) ${tail}`,
    `CREATE TABLE ${version === '2.4' ? 'bb_posts_text' : 'bb_post_texts'} (
      post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, post_text MEDIUMTEXT NOT NULL${stamps}, PRIMARY KEY (post_id)
    ) ${tail}`,
    `CREATE TABLE bb_privmsgs (
      privmsgs_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, privmsgs_type TINYINT(4) NOT NULL DEFAULT 0,
      privmsgs_subject VARCHAR(255) NOT NULL DEFAULT '0', privmsgs_from_userid MEDIUMINT(8) NOT NULL DEFAULT 0,
      privmsgs_to_userid MEDIUMINT(8) NOT NULL DEFAULT 0, privmsgs_date INT(11) NOT NULL DEFAULT 0,
      privmsgs_ip VARCHAR(42) NOT NULL DEFAULT '0', PRIMARY KEY (privmsgs_id)
    ) ${tail}`,
    `CREATE TABLE bb_privmsgs_text (
      privmsgs_text_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, privmsgs_text TEXT NOT NULL, PRIMARY KEY (privmsgs_text_id)
    ) ${tail}`,
    `CREATE TABLE bb_smilies (
      smilies_id SMALLINT(5) UNSIGNED NOT NULL AUTO_INCREMENT, code VARCHAR(50) NOT NULL DEFAULT '',
      smile_url VARCHAR(100) NOT NULL DEFAULT '', emoticon VARCHAR(75) NOT NULL DEFAULT '', PRIMARY KEY (smilies_id)
    ) ${tail}`,
    `CREATE TABLE bb_words (
      word_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, word CHAR(100) NOT NULL DEFAULT '',
      replacement CHAR(100) NOT NULL DEFAULT '', PRIMARY KEY (word_id)
    ) ${tail}`,
    `CREATE TABLE bb_ranks (
      rank_id SMALLINT(5) UNSIGNED NOT NULL AUTO_INCREMENT, rank_title VARCHAR(50) NOT NULL DEFAULT '',
      rank_image VARCHAR(255) NOT NULL DEFAULT '', rank_style VARCHAR(255) NOT NULL DEFAULT '', PRIMARY KEY (rank_id)
    ) ${tail}`,
    `CREATE TABLE bb_poll_votes (
      topic_id INT(10) UNSIGNED NOT NULL, vote_id TINYINT(4) UNSIGNED NOT NULL, vote_text VARCHAR(255) NOT NULL,
      vote_result MEDIUMINT(8) UNSIGNED NOT NULL, PRIMARY KEY (topic_id, vote_id)
    ) ${tail}`,
    `CREATE TABLE bb_poll_users (
      topic_id INT(10) UNSIGNED NOT NULL, user_id INT(11) NOT NULL, vote_ip VARCHAR(42) NOT NULL DEFAULT '0',
      vote_dt INT(11) NOT NULL DEFAULT 0, PRIMARY KEY (topic_id, user_id)
    ) ${tail}`,
    `CREATE TABLE bb_thx (
      topic_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, user_id MEDIUMINT(8) NOT NULL DEFAULT 0,
      time INT(11) NOT NULL DEFAULT 0, PRIMARY KEY (topic_id, user_id)
    ) ${tail}`,
    `CREATE TABLE bb_topics_watch (
      topic_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, user_id MEDIUMINT(8) NOT NULL DEFAULT 0,
      notify_status TINYINT(1) NOT NULL DEFAULT 0, PRIMARY KEY (topic_id, user_id), KEY user_id (user_id)
    ) ${tail}`,
    `CREATE TABLE bb_bt_torrents (
      info_hash VARBINARY(20) ${hashNull}, info_hash_v2 VARBINARY(32) ${hashNull},
      ${version === '2.4' ? 'post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,' : ''}
      poster_id MEDIUMINT(9) NOT NULL DEFAULT 0, topic_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      forum_id SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      ${version === '2.4' ? 'attach_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,' : ''}
      size BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, reg_time INT(11) NOT NULL DEFAULT 0,
      call_seed_time INT(11) NOT NULL DEFAULT 0, complete_count MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
      seeder_last_seen INT(11) NOT NULL DEFAULT 0, tor_status TINYINT(4) NOT NULL DEFAULT 0,
      checked_user_id MEDIUMINT(8) NOT NULL DEFAULT 0, checked_time INT(11) NOT NULL DEFAULT 0,
      tor_type TINYINT(1) NOT NULL DEFAULT 0, speed_up INT(11) NOT NULL DEFAULT 0, speed_down INT(11) NOT NULL DEFAULT 0,
      last_seeder_id MEDIUMINT(8) NOT NULL DEFAULT 0,
      PRIMARY KEY (topic_id)${version === '2.4' ? ', UNIQUE KEY post_id (post_id), UNIQUE KEY attach_id (attach_id)' : ', KEY info_hash (info_hash), KEY info_hash_v2 (info_hash_v2)'},
      KEY reg_time (reg_time), KEY forum_id (forum_id), KEY poster_id (poster_id)
    ) ${tail}`,
    `CREATE TABLE bb_bt_users (
      user_id MEDIUMINT(9) NOT NULL DEFAULT 0, auth_key CHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
      u_up_total BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, u_down_total BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      u_up_release BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, u_up_bonus BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      up_today BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, down_today BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      up_release_today BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, up_bonus_today BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      points_today FLOAT(16,2) UNSIGNED NOT NULL DEFAULT 0.00, up_yesterday BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      down_yesterday BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, up_release_yesterday BIGINT(20) UNSIGNED NOT NULL DEFAULT 0,
      up_bonus_yesterday BIGINT(20) UNSIGNED NOT NULL DEFAULT 0, points_yesterday FLOAT(16,2) UNSIGNED NOT NULL DEFAULT 0.00,
      ratio_nulled TINYINT(1) NOT NULL DEFAULT 0, PRIMARY KEY (user_id), UNIQUE KEY auth_key (auth_key)
    ) ${tail}`,
    `CREATE TABLE bb_config (
      config_name VARCHAR(155) NOT NULL DEFAULT '', config_value TEXT NOT NULL, PRIMARY KEY (config_name)
    ) ${tail}`,
    `CREATE TABLE bb_groups (
      group_id MEDIUMINT(8) NOT NULL AUTO_INCREMENT, avatar_ext_id INT(15) NOT NULL DEFAULT 0,
      group_time INT(11) NOT NULL DEFAULT 0, mod_time INT(11) NOT NULL DEFAULT 0, group_type TINYINT(4) NOT NULL DEFAULT 1,
      release_group TINYINT(4) NOT NULL DEFAULT 0, group_name VARCHAR(40) NOT NULL DEFAULT '', group_description TEXT NOT NULL,
      group_signature TEXT NOT NULL, group_moderator MEDIUMINT(8) NOT NULL DEFAULT 0, group_single_user TINYINT(1) NOT NULL DEFAULT 1${stamps},
      PRIMARY KEY (group_id), KEY group_single_user (group_single_user)
    ) ${tail}`,
    `CREATE TABLE bb_user_group (
      group_id MEDIUMINT(8) NOT NULL DEFAULT 0, user_id MEDIUMINT(8) NOT NULL DEFAULT 0,
      user_pending TINYINT(1) NOT NULL DEFAULT 0, user_time INT(11) NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, user_id), KEY user_id (user_id)
    ) ${tail}`,
    `CREATE TABLE bb_auth_access (
      group_id MEDIUMINT(8) NOT NULL DEFAULT 0, forum_id SMALLINT(5) UNSIGNED NOT NULL DEFAULT 0,
      forum_perm INT(11) NOT NULL DEFAULT 0, PRIMARY KEY (group_id, forum_id), KEY forum_id (forum_id)
    ) ${tail}`,
  ];
  if (version === '2.4') {
    tables.push(
      `CREATE TABLE bb_attachments (
        attach_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0, post_id MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
        user_id_1 MEDIUMINT(8) NOT NULL DEFAULT 0, PRIMARY KEY (attach_id, post_id)
      ) ${tail}`,
      `CREATE TABLE bb_attachments_desc (
        attach_id MEDIUMINT(8) UNSIGNED NOT NULL AUTO_INCREMENT, physical_filename VARCHAR(255) NOT NULL DEFAULT '',
        real_filename VARCHAR(255) NOT NULL DEFAULT '', download_count MEDIUMINT(8) UNSIGNED NOT NULL DEFAULT 0,
        comment VARCHAR(255) NOT NULL DEFAULT '', extension VARCHAR(100) NOT NULL DEFAULT '',
        mimetype VARCHAR(100) NOT NULL DEFAULT '', filesize INT(20) NOT NULL DEFAULT 0, filetime INT(11) NOT NULL DEFAULT 0,
        thumbnail TINYINT(1) NOT NULL DEFAULT 0, tracker_status TINYINT(1) NOT NULL DEFAULT 0,
        PRIMARY KEY (attach_id), KEY filetime (filetime), KEY filesize (filesize)
      ) ${tail}`,
      `CREATE TABLE bb_attachments_config (
        config_name VARCHAR(155) NOT NULL DEFAULT '', config_value VARCHAR(255) NOT NULL DEFAULT '', PRIMARY KEY (config_name)
      ) ${tail}`,
    );
  }
  return tables;
}

/** PHP `htmlspecialchars($s)` with ENT_QUOTES, as `clean_username`/`clean_title` store names and titles. */
export function phpEscapeQuotes(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** `prepare_message()`: trailing spaces stripped, 3+ newlines collapsed, then `htmlCHR(ENT_NOQUOTES, double_encode=false)`. */
export function phpPrepareMessage(text: string): string {
  const cleaned = text
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return cleaned
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A post source that uses every BBCode tag TorrentPier knows, plus characters that get escaped. */
export const EVERY_TAG_POST = [
  '[b]bold[/b] [i]italic[/i] [u]under[/u] [s]strike[/s] [del]gone[/del] [sup]up[/sup] [sub]down[/sub]',
  '[indent]indented[/indent] [pre]pre  formatted[/pre] [nfo]nfo art[/nfo] [code]if (a < b && c > d) {}[/code]',
  '[tab]tabbed [br] line [hr] rule [clear]',
  '[quote]plain quote[/quote] [quote="Ann & <Bob>"]named quote[/quote]',
  '[spoiler]hidden[/spoiler] [spoiler="Title \'quoted\'"]hidden too[/spoiler]',
  '[list][*]one[*]two[/list] [list=a][*]a[/list] [list=A][*]A[/list] [list=i][*]i[/list] [list=I][*]I[/list] [list=1][*=3]three[/list]',
  '[color=#ff0000]red[/color] [color=blue]blue[/color] [size=18]big[/size] [align=center]centred[/align]',
  '[font=Arial]arial[/font] [font="Times New Roman"]times[/font] [acronym="Hyper Text"]HTML[/acronym]',
  '[box]box[/box] [box=red]red box[/box] [box=#000,#fff]two colours[/box]',
  '[url]https://example.org/a?b=1&c=2[/url] [url=https://example.org/]link text[/url] [url=viewtopic.php?t=1]local[/url]',
  '[url=#part2]jump[/url] [name=part2] [email]someone@example.org[/email]',
  '[img]https://example.org/pic.png[/img] [img=left]https://example.org/pic.jpg[/img] [img=right]//example.org/p.webp[/img] [img=center]https://example.org/p.gif[/img]',
  '[qpost=1] smilies :aa: :ab: and entities: 5 < 6 & "quotes" \'apos\' &copy; Fish & Chips',
].join('\n');

export interface FixtureUser {
  id: number;
  /** The name as typed (the database holds it HTML-escaped). */
  name: string;
  email: string;
  password: string;
  scheme: 'bcrypt' | 'md5md5';
  level: number;
  active: boolean;
  banned: boolean;
  passkey: string | null;
}

export interface FixtureTorrent {
  topicId: number;
  /** 2.x attachment id (`dl.php?id=`); null on 3.x. */
  attachId: number | null;
  bytes: Buffer;
  infoHashV1: Buffer | null;
  infoHashV2: Buffer | null;
  /** The v1 hash ends in 0x20, so the stored value is shorter (2.x quirk). */
  trimmed: boolean;
  /** Path of the stored file relative to the `--files` folder. */
  file: string;
}

/** An upstream avatar: `png` a real picture; `missing` named by avatar_ext_id but without a file; `corrupt` not a picture; `forbidden` a real file of a member with user_opt dis_avatar. */
export interface FixtureAvatar {
  userId: number;
  kind: 'png' | 'missing' | 'corrupt' | 'forbidden';
  /** The file as written (null: none). */
  bytes: Buffer | null;
}

/** Where each version keeps avatars, relative to the `--files` folder: 2.x `data/avatars`, 3.x `storage/app/public/avatars`. */
export function avatarsFolderOf(version: TorrentPierVersion): string {
  return version === '2.4' ? join('data', 'avatars') : join('storage', 'app', 'public', 'avatars');
}

export interface FixtureSummary {
  version: TorrentPierVersion;
  users: FixtureUser[];
  avatars: FixtureAvatar[];
  /** The forums holding topics (the access part adds two more, without topics). */
  forumIds: number[];
  /** Groups, memberships and per-forum permissions, and what they must become (null: too few users or forums to make them). */
  access: FixtureAccess | null;
  topicIds: number[];
  postIds: number[];
  torrents: FixtureTorrent[];
  /** Polls as they must be imported: topic 3 running, topic 4 finished (topic 5 has leftover rows of a deleted poll). */
  polls: FixturePoll[];
  /** Rows written per upstream table. */
  rows: Record<string, number>;
}

export interface FixturePoll {
  topicId: number;
  question: string;
  options: Array<{ text: string; votes: number }>;
  closed: boolean;
  /** The voters who were imported (GONE_USER_ID's vote is skipped). */
  voters: number[];
}

export interface FixtureOptions {
  users?: number;
  categories?: number;
  forumsPerCategory?: number;
  topicsPerForum?: number;
  postsPerTopic?: number;
  torrents?: number;
  pms?: number;
  /** Password hashing cost for the `$2y$` users (the upstream uses 10 or 12; tests use 4 for speed). */
  bcryptCost?: number;
  /** Rows per INSERT. */
  batch?: number;
}

const BASE_TIME = 1_600_000_000;

/** A user id no bb_users row has (a deleted account still named by its messages). */
export const GONE_USER_ID = 777_777;

/** Deterministic 20-character passkey from `[0-9a-zA-Z]`, as `make_rand_str(20)`. */
function passkeyFor(id: number): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const digest = createHash('sha256').update(`passkey-${id}`).digest();
  let key = '';
  for (let i = 0; i < 20; i++) key += alphabet[digest[i]! % alphabet.length];
  return key;
}

function infoHashes(bytes: Buffer): { v1: Buffer | null; v2: Buffer | null } {
  const top = decode(bytes);
  if (!isDict(top)) throw new Error('torrent is not a dictionary');
  const info = top.get('info');
  if (!isDict(info)) throw new Error('torrent has no info');
  const encoded = encode(info);
  const v2 = info.has('meta version');
  const v1 = info.has('pieces');
  return {
    v1: v1 ? createHash('sha1').update(encoded).digest() : null,
    v2: v2 ? createHash('sha256').update(encoded).digest() : null,
  };
}

/** Multi-row INSERTs; rows that set different columns (the seed users) go in statements of their own, the rest keep their defaults. */
async function insertRows(conn: mysql.Connection, table: string, rows: Record<string, unknown>[], batch: number): Promise<void> {
  let start = 0;
  while (start < rows.length) {
    const columns = Object.keys(rows[start]!);
    const signature = columns.join(',');
    let end = start + 1;
    while (end < rows.length && end - start < batch && Object.keys(rows[end]!).join(',') === signature) end++;
    const values = rows.slice(start, end).map((row) => columns.map((c) => row[c]));
    await conn.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ?`, [values]);
    start = end;
  }
}

/**
 * Creates the upstream tables in the connection's current database and fills
 * them; the .torrent files are written under `filesDir` at the path the
 * upstream version keeps them (2.x `data/uploads/<physical_filename>`,
 * 3.x `storage/app/private/uploads/{floor(id/10000)}/{id%100}/{id}.torrent`).
 */
export async function createTorrentPierFixture(
  conn: mysql.Connection,
  version: TorrentPierVersion,
  filesDir: string,
  options: FixtureOptions = {},
): Promise<FixtureSummary> {
  const o = {
    users: 12,
    categories: 2,
    forumsPerCategory: 2,
    topicsPerForum: 3,
    postsPerTopic: 4,
    torrents: 4,
    pms: 6,
    bcryptCost: 4,
    batch: 500,
    ...options,
  };
  for (const sql of torrentPierSchema(version)) await conn.query(sql);
  const rows: Record<string, number> = {};
  const put = async (table: string, list: Record<string, unknown>[]) => {
    rows[table] = (rows[table] ?? 0) + list.length;
    if (list.length > 0) await insertRows(conn, table, list, o.batch);
  };

  // Users: the seed rows (-1 Guest, -746 bot, 2 admin) and generated ones, both password schemes.
  const users: FixtureUser[] = [];
  const userRows: Record<string, unknown>[] = [];
  const seedHash = bcrypt.hashSync('unusable', o.bcryptCost).replace(/^\$2b\$/, '$2y$');
  for (const [id, name] of [
    [-1, 'Guest'],
    [-746, 'bot'],
  ] as const) {
    userRows.push({ user_id: id, user_active: 0, username: name, user_password: seedHash, user_sig: '', user_regdate: BASE_TIME });
  }
  const names = ['admin', 'Ann & <Bob>', "O'Brien", 'Jörg "the" Müller', 'Модератор', 'plain_user'];
  // Avatars by user index: file_id_ext 4 png, 3 jpg, 1 gif.
  const avatarKinds: ReadonlyMap<number, { kind: FixtureAvatar['kind']; ext: [number, string] }> = new Map([
    [1, { kind: 'png', ext: [4, 'png'] }],
    [2, { kind: 'missing', ext: [3, 'jpg'] }],
    [4, { kind: 'corrupt', ext: [1, 'gif'] }],
    [5, { kind: 'forbidden', ext: [4, 'png'] }],
  ] as const);
  const avatars: FixtureAvatar[] = [];
  for (let n = 0; n < o.users; n++) {
    const id = n + 2;
    const name = n < names.length ? names[n]! : `user${id}`;
    const password = `pw-${id}-secret`;
    const scheme = n % 2 === 0 ? 'bcrypt' : 'md5md5';
    const hash =
      scheme === 'bcrypt'
        ? bcrypt.hashSync(password, o.bcryptCost).replace(/^\$2b\$/, '$2y$')
        : createHash('md5').update(createHash('md5').update(password).digest('hex')).digest('hex');
    // Two MODs: one who moderates forums (bb_auth_access, below) and one whose level says so alone.
    const level = n === 0 ? 1 : n === 4 || n === 8 ? 2 : n === 5 ? 20 : 0;
    const active = n !== 7;
    const banned = n === 3;
    const email = n === 1 ? 'ann&bob@example.org' : `user${id}@example.org`;
    const passkey = n % 3 === 2 ? null : passkeyFor(id);
    users.push({ id, name, email, password, scheme, level, active, banned, passkey });
    const avatar = avatarKinds.get(n);
    if (avatar !== undefined) {
      const bytes =
        avatar.kind === 'missing'
          ? null
          : avatar.kind === 'corrupt'
            ? Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 0xa5)])
            : png(48, 32, (x, y) => [x * 5, y * 7, 128, 255]);
      if (bytes !== null) {
        // get_path_from_id(): {floor(id/10000)}/{id%100}/{id}.{ext}
        const path = join(filesDir, avatarsFolderOf(version), String(Math.floor(id / 10000)), String(id % 100), `${id}.${avatar.ext[1]}`);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, bytes);
      }
      avatars.push({ userId: id, kind: avatar.kind, bytes });
    }
    userRows.push({
      user_id: id,
      user_active: active ? 1 : 0,
      username: phpEscapeQuotes(name).slice(0, 255),
      user_password: hash,
      user_regdate: BASE_TIME + id * 60,
      user_lastvisit: BASE_TIME + id * 120,
      user_level: level,
      user_email: phpEscapeQuotes(email),
      user_sig: phpPrepareMessage(`[i]sig of ${name}[/i] & more`),
      user_points: id * 1.25,
      // user_notify_pm (bit 6) for every third member; dis_avatar (bit 2), an admin's prohibition, for the forbidden avatar.
      user_opt: (id % 3 === 0 ? 1 << 6 : 0) | (avatar?.kind === 'forbidden' ? 1 << 2 : 0),
      avatar_ext_id: avatar?.ext[0] ?? 0,
      // The first generated member holds the "Release team" rank; the second a rank that does not exist.
      user_rank: n === 0 ? 2 : n === 1 ? 9 : 0,
    });
  }
  await put('bb_users', userRows);
  await put('bb_ranks', [
    { rank_id: 1, rank_title: 'Administrator', rank_image: 'styles/images/ranks/admin.png', rank_style: 'colorAdmin' },
    { rank_id: 2, rank_title: phpEscapeQuotes('Release team & "friends"'), rank_image: '', rank_style: '' },
  ]);
  await put(
    'bb_banlist',
    users.filter((u) => u.banned).map((u) => ({ ban_userid: u.id, ban_reason: 'spam & <abuse>' })),
  );
  await put(
    'bb_bt_users',
    users
      .filter((u) => u.passkey !== null)
      .map((u) => ({
        user_id: u.id,
        auth_key: u.passkey,
        u_up_total: u.id * 1_000_000_000,
        u_down_total: u.id * 400_000_000,
        u_up_release: u.id * 1000,
        u_up_bonus: u.id * 10,
        points_today: 1.5,
        points_yesterday: 2.25,
        ratio_nulled: u.id % 2,
      })),
  );

  // Categories in reverse id order so that order, not id, decides; forums ordered inside each.
  const forumIds: number[] = [];
  const catRows: Record<string, unknown>[] = [];
  const forumRows: Record<string, unknown>[] = [];
  let forumId = 0;
  for (let c = 1; c <= o.categories; c++) {
    catRows.push({ cat_id: c, cat_title: phpEscapeQuotes(`Category ${c} & co`), cat_order: (o.categories - c + 1) * 10 });
    for (let f = 0; f < o.forumsPerCategory; f++) {
      forumId++;
      forumIds.push(forumId);
      forumRows.push({
        forum_id: forumId,
        cat_id: c,
        forum_name: phpEscapeQuotes(`Forum ${forumId} <releases>`),
        forum_desc: `Description of forum ${forumId} &amp; more`,
        forum_status: forumId % 5 === 0 ? 1 : 0,
        forum_order: (o.forumsPerCategory - f) * 10,
        // The category's other forums are subforums of its first, as boards nest them.
        forum_parent: f === 0 ? 0 : forumId - f,
        allow_reg_tracker: 1,
        // Forum 2 is open to all, guests too, except downloading: members only. The others have the installer's defaults.
        ...(forumId === 2 ? { ...authLevels(AUTH.all), auth_download: AUTH.reg } : INSTALLER_LEVELS),
      });
    }
  }
  await put('bb_categories', catRows);
  await put('bb_forums', forumRows);
  const access = await putForumAccess(put, users, forumIds);

  // Topics and posts: posters cycle through users, guests (-1 with a name) and deleted users (-1, no name).
  const topicIds: number[] = [];
  const postIds: number[] = [];
  let topicId = 0;
  let postId = 0;
  const topicRows: Record<string, unknown>[] = [];
  const postRows: Record<string, unknown>[] = [];
  const textRows: Record<string, unknown>[] = [];
  const firstPosts = new Map<number, number>();
  for (const fid of forumIds) {
    for (let t = 0; t < o.topicsPerForum; t++) {
      topicId++;
      topicIds.push(topicId);
      const topicTime = BASE_TIME + topicId * 3600;
      const poster = users[topicId % users.length]!.id;
      let first = 0;
      let last = 0;
      for (let p = 0; p < o.postsPerTopic; p++) {
        postId++;
        postIds.push(postId);
        if (p === 0) first = postId;
        last = postId;
        const who = p === 0 ? poster : p % 4 === 1 ? -1 : users[(postId * 7) % users.length]!.id;
        const guestName = p % 4 === 1 && p % 8 === 1 ? 'Visitor <guest>' : '';
        postRows.push({
          post_id: postId,
          topic_id: topicId,
          forum_id: fid,
          poster_id: who,
          post_time: topicTime + p * 60,
          poster_ip: '7f000001',
          post_username: guestName,
          post_edit_time: p === 2 ? topicTime + 999 : 0,
          post_edit_count: p === 2 ? 1 : 0,
          // One moderator's warning (mc_type 3), by the first generated member, stored as upstream stores post text.
          mc_comment: postId === 3 ? phpPrepareMessage('Please read the [b]rules[/b] & seed') : '',
          mc_type: postId === 3 ? 3 : 0,
          mc_user_id: postId === 3 ? users.find((u) => u.id > 0)!.id : 0,
        });
        const source = postId === 1 ? EVERY_TAG_POST : `Post ${postId} in topic ${topicId}: [b]hello[/b] & <world> :aa:`;
        textRows.push({ post_id: postId, post_text: phpPrepareMessage(source) });
      }
      firstPosts.set(topicId, first);
      topicRows.push({
        topic_id: topicId,
        forum_id: fid,
        topic_title: phpEscapeQuotes(`Topic ${topicId}: "quotes" & <tags>`),
        topic_poster: poster,
        topic_time: topicTime,
        topic_views: topicId * 3,
        topic_replies: o.postsPerTopic - 1,
        topic_status: topicId % 7 === 0 ? 1 : 0,
        topic_type: topicId === 1 ? 2 : topicId === 2 ? 1 : 0,
        topic_first_post_id: first,
        topic_last_post_id: last,
        topic_last_post_time: topicTime + (o.postsPerTopic - 1) * 60,
        topic_dl_type: topicId <= o.torrents ? 1 : 0,
        // A running poll, a finished one, and a deleted one whose rows stayed behind.
        topic_vote: topicId === 3 ? 1 : topicId === 4 ? 2 : 0,
      });
    }
  }
  await put('bb_topics', topicRows);
  await put('bb_posts', postRows);
  await put(version === '2.4' ? 'bb_posts_text' : 'bb_post_texts', textRows);

  await put(
    'bb_topics_watch',
    users.slice(0, 4).flatMap((u, i) =>
      topicIds.slice(i, i + 2).map((tid) => ({
        topic_id: tid,
        user_id: u.id,
        notify_status: (tid + i) % 2,
      })),
    ),
  );

  // Thanks for the first topics (a release and a discussion alike: upstream thanked topics), and one from a member not imported.
  await put('bb_thx', [
    ...users
      .filter((u) => u.id > 0)
      .slice(0, 3)
      .flatMap((u, i) => topicIds.slice(0, 2).map((tid) => ({ topic_id: tid, user_id: u.id, time: 1_600_100_000 + i * 60 }))),
    { topic_id: topicIds[0] ?? 1, user_id: 999_999, time: 1_600_100_000 },
  ]);

  // Polls: vote_id 0 is the question, the answers keep their totals; voters are recorded without their answers.
  const polls: FixturePoll[] = [];
  if (topicIds.length >= 5 && users.length >= 4) {
    const voters = users.filter((u) => u.id > 0).slice(0, 4);
    polls.push(
      {
        topicId: 3,
        question: 'Best codec & "container"?',
        options: [
          { text: 'x264 <fast>', votes: 5 },
          { text: 'x265', votes: 2 },
          { text: 'AV1', votes: 0 },
        ],
        closed: false,
        voters: voters.slice(0, 3).map((u) => u.id),
      },
      {
        topicId: 4,
        question: 'Finished?',
        options: [
          { text: 'Yes', votes: 1 },
          { text: 'No', votes: 0 },
        ],
        closed: true,
        voters: [voters[3]!.id],
      },
    );
    const leftover = { topicId: 5, question: 'Deleted', options: [{ text: 'A', votes: 1 }], closed: false, voters: [] };
    await put(
      'bb_poll_votes',
      [...polls, leftover].flatMap((poll) => [
        { topic_id: poll.topicId, vote_id: 0, vote_text: phpEscapeQuotes(poll.question), vote_result: 0 },
        ...poll.options.map((option, index) => ({
          topic_id: poll.topicId,
          vote_id: index + 1,
          vote_text: phpEscapeQuotes(option.text),
          vote_result: option.votes,
        })),
      ]),
    );
    await put('bb_poll_users', [
      ...polls.flatMap((poll) => poll.voters.map((userId) => ({ topic_id: poll.topicId, user_id: userId, vote_ip: '7f000001', vote_dt: BASE_TIME + 7200 }))),
      { topic_id: 3, user_id: GONE_USER_ID, vote_ip: '7f000001', vote_dt: BASE_TIME + 7200 },
    ]);
  }

  // Private messages: each read message also has the sender's SENT copy (a new id, same text).
  const pmRows: Record<string, unknown>[] = [];
  const pmTextRows: Record<string, unknown>[] = [];
  let pmId = 0;
  for (let m = 0; m < o.pms; m++) {
    const from = users[m % users.length]!.id;
    const to = users[(m + 1) % users.length]!.id;
    const date = BASE_TIME + 50_000 + m;
    const subject = phpEscapeQuotes(`Hello #${m} & "friends"`);
    const text = phpPrepareMessage(`[b]PM ${m}[/b] <3 & bye`);
    const read = m % 2 === 0;
    pmId++;
    pmRows.push({
      privmsgs_id: pmId,
      privmsgs_type: read ? 0 : 1,
      privmsgs_subject: subject,
      privmsgs_from_userid: from,
      privmsgs_to_userid: to,
      privmsgs_date: date,
    });
    pmTextRows.push({ privmsgs_text_id: pmId, privmsgs_text: text });
    if (read) {
      pmId++;
      pmRows.push({ privmsgs_id: pmId, privmsgs_type: 2, privmsgs_subject: subject, privmsgs_from_userid: from, privmsgs_to_userid: to, privmsgs_date: date });
      pmTextRows.push({ privmsgs_text_id: pmId, privmsgs_text: text });
    }
  }
  // The other shapes of a mailbox: a saved message whose sender deleted their copy, a SENT copy whose
  // recipient deleted theirs, a read message to an account that is gone (nobody keeps it), and an
  // unread one from an account that is gone.
  const extra: Array<[type: number, from: number, to: number]> = [
    [3, users[0]!.id, users[1]!.id],
    [2, users[2]!.id, users[3]!.id],
    [0, users[0]!.id, GONE_USER_ID],
    [5, GONE_USER_ID, users[1]!.id],
  ];
  for (const [type, from, to] of extra) {
    pmId++;
    const subject = phpEscapeQuotes(`Mailbox shape ${type}`);
    pmRows.push({
      privmsgs_id: pmId,
      privmsgs_type: type,
      privmsgs_subject: subject,
      privmsgs_from_userid: from,
      privmsgs_to_userid: to,
      privmsgs_date: BASE_TIME + 60_000 + pmId,
    });
    pmTextRows.push({ privmsgs_text_id: pmId, privmsgs_text: phpPrepareMessage(`Shape ${type} text`) });
  }
  await put('bb_privmsgs', pmRows);
  await put('bb_privmsgs_text', pmTextRows);

  const smilies = [
    [':aa:', 'aa.gif', 'Smile'],
    [':ab:', 'ab.gif', 'Wink & grin'],
    [':cd:', 'cd.gif', 'Cool'],
  ] as const;
  await put(
    'bb_smilies',
    smilies.map(([code, url, title]) => ({ code, smile_url: url, emoticon: title })),
  );
  await put(
    'bb_words',
    [
      ['fool', 'f**l'],
      ['spam*', '[censored]'],
      ['*bad*', 'good'],
    ].map(([word, replacement]) => ({ word, replacement })),
  );

  const smiliesPath = version === '2.4' ? 'styles/images/smiles' : 'assets/images/smiles';
  await put('bb_config', [
    { config_name: 'smilies_path', config_value: smiliesPath },
    { config_name: 'use_word_censor', config_value: '1' },
  ]);
  for (const [, url] of smilies) {
    const path = join(filesDir, smiliesPath, url);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'));
  }

  // Torrents: v1, v2 and hybrid; the first is a v1 whose hash ends in 0x20 (trimmed when stored on 2.x).
  const torrents: FixtureTorrent[] = [];
  const torrentRows: Record<string, unknown>[] = [];
  const attachRows: Record<string, unknown>[] = [];
  const attachDescRows: Record<string, unknown>[] = [];
  const kinds = ['v1', 'v1', 'v2', 'hybrid'] as const;
  for (let n = 0; n < o.torrents; n++) {
    const tid = topicIds[n]!;
    const kind = kinds[n % kinds.length]!;
    let bytes: Buffer;
    let hashes: { v1: Buffer | null; v2: Buffer | null };
    let attempt = 0;
    for (;;) {
      bytes = makeTorrent({ version: kind, name: `release-${tid}-${attempt}`, files: Buffer.alloc(20_000 + tid, tid) });
      hashes = infoHashes(bytes);
      if (n !== 0 || hashes.v1![19] === 0x20) break;
      attempt++;
    }
    const trimmed = hashes.v1 !== null && hashes.v1[hashes.v1.length - 1] === 0x20;
    const stored = (hash: Buffer | null) => {
      if (hash === null) return version === '2.4' ? Buffer.alloc(0) : null;
      if (version === '3.0') return hash;
      let end = hash.length;
      while (end > 0 && hash[end - 1] === 0x20) end--;
      return hash.subarray(0, end);
    };
    const attachId = version === '2.4' ? 100 + n * 3 : null;
    const file =
      version === '2.4'
        ? join('data', 'uploads', `${BASE_TIME + n}${createHash('md5').update(`release-${tid}.torrent`).digest('hex')}`)
        : join('storage', 'app', 'private', 'uploads', String(Math.floor(tid / 10000)), String(tid % 100), `${tid}.torrent`);
    mkdirSync(dirname(join(filesDir, file)), { recursive: true });
    writeFileSync(join(filesDir, file), bytes);
    torrents.push({ topicId: tid, attachId, bytes, infoHashV1: hashes.v1, infoHashV2: hashes.v2, trimmed, file });
    const poster = topicRows[n]!['topic_poster'];
    torrentRows.push({
      info_hash: stored(hashes.v1),
      info_hash_v2: stored(hashes.v2),
      poster_id: poster,
      topic_id: tid,
      forum_id: topicRows[n]!['forum_id'],
      size: 20_000 + tid,
      reg_time: BASE_TIME + tid * 3600 + 5,
      complete_count: tid * 2,
      tor_status: [2, 0, 5, 8][n % 4],
      checked_user_id: 2,
      checked_time: BASE_TIME + tid * 3600 + 90,
      tor_type: n % 3,
      ...(version === '2.4' ? { post_id: firstPosts.get(tid), attach_id: attachId } : {}),
    });
    if (version === '2.4') {
      attachRows.push({ attach_id: attachId, post_id: firstPosts.get(tid), user_id_1: poster });
      attachDescRows.push({
        attach_id: attachId,
        physical_filename: file.split('/').pop(),
        real_filename: `release-${tid}.torrent`,
        download_count: tid,
        extension: 'torrent',
        mimetype: 'application/x-bittorrent',
        filesize: bytes.length,
        filetime: BASE_TIME + tid * 3600,
        tracker_status: 1,
      });
    } else {
      await conn.query('UPDATE bb_topics SET attach_ext_id = 8, attach_filesize = ?, download_count = ?, tracker_status = 1 WHERE topic_id = ?', [
        bytes.length,
        tid,
        tid,
      ]);
    }
  }
  await put('bb_bt_torrents', torrentRows);
  if (version === '2.4') {
    await put('bb_attachments', attachRows);
    await put('bb_attachments_desc', attachDescRows);
    await put('bb_attachments_config', [{ config_name: 'upload_dir', config_value: 'data/uploads' }]);
  }
  return { version, users, avatars, forumIds, access, topicIds, postIds, torrents, polls, rows };
}

/** bb_forums.auth_* values: AUTH_ALL 0, AUTH_REG 1, AUTH_ACL 2 (private), AUTH_MOD 3, AUTH_ADMIN 5. */
const AUTH = { all: 0, reg: 1, acl: 2, mod: 3, admin: 5 } as const;

const AUTH_FIELDS = [
  'auth_view',
  'auth_read',
  'auth_post',
  'auth_reply',
  'auth_edit',
  'auth_delete',
  'auth_sticky',
  'auth_announce',
  'auth_vote',
  'auth_pollcreate',
  'auth_attachments',
  'auth_download',
] as const;

function authLevels(value: number): Record<(typeof AUTH_FIELDS)[number], number> {
  return Object.fromEntries(AUTH_FIELDS.map((field) => [field, value])) as Record<(typeof AUTH_FIELDS)[number], number>;
}

/** A new forum's levels in the upstream installer: view and read by all, sticky and announce by moderators, the rest by members. */
const INSTALLER_LEVELS = { ...authLevels(AUTH.reg), auth_view: AUTH.all, auth_read: AUTH.all, auth_sticky: AUTH.mod, auth_announce: AUTH.mod };

/** bb_auth_access.forum_perm bits (1 << bit): VIEW 1, READ 2, MOD 3, POST 4, REPLY 5, DOWNLOAD 13. */
const PERM = { view: 1 << 1, read: 1 << 2, mod: 1 << 3, post: 1 << 4, reply: 1 << 5, download: 1 << 13 };

type Level = 'all' | 'members' | 'private' | 'moderators' | 'admins';
type Action = 'view' | 'read' | 'post' | 'reply' | 'edit' | 'delete' | 'pin' | 'announce' | 'vote' | 'poll_create' | 'upload' | 'download';

/** What the import must make of the fixture's groups, memberships, levels and grants (written out by hand, not computed). */
export interface FixtureAccess {
  /** The team forum: view and read private, granted to the hidden Team group (view, read) and one member (view, read, post, reply). */
  teamForumId: number;
  /** Every forum's levels, by forum id (forum 2: everything `all` but download, `members`). */
  levels: Record<number, Record<Action, Level>>;
  groups: Array<{ id: number; name: string; description: string; type: 'open' | 'closed' | 'hidden' }>;
  members: Array<{ groupId: number; userId: number; role: 'member' | 'leader'; status: 'accepted' | 'pending' }>;
  grants: Array<{ forumId: number; groupId: number | null; userId: number | null; actions: Action[]; moderate: boolean }>;
  /** Users who play a part: the Team group's member, someone outside every group, a pending Team request, the personal grantee, and the forum moderators. */
  people: { teamMember: number; outsider: number; teamRequest: number; grantee: number; viaGroupModerator: number; personalModerator: number };
  /** Upstream users some bb_auth_access entry makes a forum moderator (their user_level MOD is noted as such). */
  forumModerators: number[];
  /** [read, imported, skipped] per upstream table. */
  counts: Record<'bb_groups' | 'bb_user_group' | 'bb_auth_access', [number, number, number]>;
}

const INSTALLER: Record<Action, Level> = OPEN_LEVELS;

/**
 * TorrentPier's access model as boards use it: forum levels (the installer's,
 * a forum open to guests but for downloading, a team-only forum, one with
 * values that are no level), groups of every type (a closed one with a
 * pending request, a hidden team, an open one whose name clashes ignoring
 * case and whose leader is no member, one of an unknown type), personal
 * groups, and bb_auth_access entries: moderation through personal and real
 * groups, plain grants, and entries of forums, groups or members that are
 * gone. Needs twelve users and four forums; fewer make none.
 */
async function putForumAccess(
  put: (table: string, list: Record<string, unknown>[]) => Promise<void>,
  users: readonly FixtureUser[],
  forumIds: readonly number[],
): Promise<FixtureAccess | null> {
  if (users.length < 12 || forumIds.length !== 4) return null;
  const [admin, mod, member, other, pending, lonely, outsider, requester] = [
    users[0]!,
    users[4]!,
    users[5]!,
    users[6]!,
    users[7]!,
    users[9]!,
    users[10]!,
    users[11]!,
  ];
  const [f1, f2, f3, f4] = forumIds as [number, number, number, number];
  const [team, odd] = [5, 6];
  // The team forum is a subforum of forum 3 and the odd one of forum 1, so the index's top level stays as it was.
  await put('bb_forums', [
    {
      forum_id: team,
      cat_id: 2,
      forum_name: 'Team room',
      forum_desc: '',
      forum_order: 30,
      forum_parent: f3,
      // The installer's "Private [Hidden]": every action private but sticky and announce (moderators).
      ...authLevels(AUTH.acl),
      auth_sticky: AUTH.mod,
      auth_announce: AUTH.mod,
    },
    {
      forum_id: odd,
      cat_id: 1,
      forum_name: 'Odd levels',
      forum_desc: '',
      // Locked too: only its moderators posted, replied, edited or deleted there.
      forum_status: 1,
      forum_order: 30,
      forum_parent: f1,
      ...INSTALLER_LEVELS,
      auth_post: 4,
      auth_edit: -1,
      auth_download: 9,
    },
  ]);
  const group = (id: number, name: string, type: number, leader: number, description = '') => ({
    group_id: id,
    group_type: type,
    group_name: name,
    group_description: description,
    group_signature: '',
    group_moderator: leader,
    group_single_user: 0,
    group_time: BASE_TIME + id,
    mod_time: BASE_TIME + id * 2,
  });
  const personal = (id: number, owner: number) => ({ ...group(id, '', 0, owner), group_single_user: 1 });
  await put('bb_groups', [
    personal(1, mod.id),
    group(2, phpEscapeQuotes('Release team & checkers'), 1, member.id),
    personal(3, admin.id),
    group(4, 'Waiting room', 1, lonely.id),
    group(5, 'Team', 2, member.id, 'Staff &amp; helpers'),
    group(6, 'RELEASE TEAM &amp; CHECKERS', 0, outsider.id),
    group(7, 'Odd type', 7, admin.id),
    personal(8, other.id),
    personal(9, GONE_USER_ID),
    personal(10, mod.id),
    // Leaders who are no member: one of a group that holds a grant, one whose account is gone.
    group(11, 'Archive keepers', 1, users[2]!.id),
    group(12, 'Ghosts', 0, GONE_USER_ID),
  ]);
  await put('bb_user_group', [
    { group_id: 1, user_id: mod.id, user_pending: 0 },
    { group_id: 2, user_id: mod.id, user_pending: 0 },
    { group_id: 2, user_id: member.id, user_pending: 0 },
    { group_id: 2, user_id: other.id, user_pending: 0 },
    { group_id: 2, user_id: pending.id, user_pending: 1 },
    { group_id: 3, user_id: admin.id, user_pending: 0 },
    { group_id: 4, user_id: lonely.id, user_pending: 1 },
    { group_id: 5, user_id: member.id, user_pending: 0 },
    { group_id: 5, user_id: requester.id, user_pending: 1 },
    { group_id: 5, user_id: GONE_USER_ID, user_pending: 0 },
    { group_id: 7, user_id: admin.id, user_pending: 0 },
    { group_id: 8, user_id: other.id, user_pending: 0 },
    { group_id: 9, user_id: GONE_USER_ID, user_pending: 0 },
    { group_id: 10, user_id: mod.id, user_pending: 0 },
  ]);
  await put('bb_auth_access', [
    { group_id: 1, forum_id: f2, forum_perm: PERM.view | PERM.read | PERM.mod },
    { group_id: 1, forum_id: f3, forum_perm: PERM.mod },
    { group_id: 2, forum_id: f1, forum_perm: 0 },
    { group_id: 2, forum_id: f3, forum_perm: PERM.mod | PERM.post },
    { group_id: 2, forum_id: f4, forum_perm: PERM.read },
    { group_id: 2, forum_id: 99, forum_perm: PERM.mod },
    { group_id: 3, forum_id: f1, forum_perm: PERM.mod },
    { group_id: 4, forum_id: f1, forum_perm: PERM.mod },
    { group_id: 5, forum_id: team, forum_perm: PERM.view | PERM.read },
    // Bit 0 and bit 20 name no permission.
    { group_id: 8, forum_id: f2, forum_perm: PERM.download | 1 | (1 << 20) },
    { group_id: 8, forum_id: team, forum_perm: PERM.view | PERM.read | PERM.post | PERM.reply },
    { group_id: 9, forum_id: team, forum_perm: PERM.view | PERM.read },
    // The MOD's second personal group: merged with the first one's entry for the same forum.
    { group_id: 10, forum_id: f2, forum_perm: PERM.download },
    { group_id: 11, forum_id: f4, forum_perm: PERM.view | PERM.read },
    { group_id: 77, forum_id: f1, forum_perm: PERM.mod },
  ]);
  const publicForum = {
    ...INSTALLER,
    view: 'all',
    read: 'all',
    post: 'all',
    reply: 'all',
    edit: 'all',
    delete: 'all',
    pin: 'all',
    announce: 'all',
    vote: 'all',
    poll_create: 'all',
    upload: 'all',
  } as const;
  return {
    teamForumId: team,
    levels: {
      [f1]: INSTALLER,
      [f2]: { ...publicForum, download: 'members' },
      [f3]: INSTALLER,
      [f4]: INSTALLER,
      [team]: {
        view: 'private',
        read: 'private',
        post: 'private',
        reply: 'private',
        edit: 'private',
        delete: 'private',
        pin: 'moderators',
        announce: 'moderators',
        vote: 'private',
        poll_create: 'private',
        upload: 'private',
        download: 'private',
      },
      [odd]: { ...INSTALLER, post: 'admins', edit: 'admins', download: 'admins', reply: 'moderators', delete: 'moderators', upload: 'moderators' },
    },
    groups: [
      { id: 2, name: 'Release team & checkers', description: '', type: 'closed' },
      { id: 4, name: 'Waiting room', description: '', type: 'closed' },
      { id: 5, name: 'Team', description: 'Staff & helpers', type: 'hidden' },
      { id: 6, name: 'RELEASE TEAM & CHECKERS (6)', description: '', type: 'open' },
      { id: 7, name: 'Odd type', description: '', type: 'hidden' },
      { id: 11, name: 'Archive keepers', description: '', type: 'closed' },
      { id: 12, name: 'Ghosts', description: '', type: 'open' },
    ],
    members: [
      { groupId: 2, userId: mod.id, role: 'member', status: 'accepted' },
      { groupId: 2, userId: member.id, role: 'leader', status: 'accepted' },
      { groupId: 2, userId: other.id, role: 'member', status: 'accepted' },
      { groupId: 2, userId: pending.id, role: 'member', status: 'pending' },
      // Its leader's own request is pending and the group moderates forum 1: accepting it would open that.
      { groupId: 4, userId: lonely.id, role: 'member', status: 'pending' },
      { groupId: 5, userId: member.id, role: 'leader', status: 'accepted' },
      { groupId: 5, userId: requester.id, role: 'member', status: 'pending' },
      // No member upstream, and the group holds no grant: added as its leader.
      { groupId: 6, userId: outsider.id, role: 'leader', status: 'accepted' },
      { groupId: 7, userId: admin.id, role: 'leader', status: 'accepted' },
    ],
    grants: [
      { forumId: f1, groupId: 4, userId: null, actions: [], moderate: true },
      { forumId: f1, groupId: null, userId: admin.id, actions: [], moderate: true },
      { forumId: f2, groupId: null, userId: mod.id, actions: ['view', 'read', 'download'], moderate: true },
      { forumId: f2, groupId: null, userId: other.id, actions: ['download'], moderate: false },
      { forumId: f3, groupId: 2, userId: null, actions: ['post'], moderate: true },
      { forumId: f3, groupId: null, userId: mod.id, actions: [], moderate: true },
      { forumId: f4, groupId: 2, userId: null, actions: ['read'], moderate: false },
      { forumId: f4, groupId: 11, userId: null, actions: ['view', 'read'], moderate: false },
      { forumId: team, groupId: 5, userId: null, actions: ['view', 'read'], moderate: false },
      { forumId: team, groupId: null, userId: other.id, actions: ['view', 'read', 'post', 'reply'], moderate: false },
    ],
    people: {
      teamMember: member.id,
      outsider: outsider.id,
      teamRequest: requester.id,
      grantee: other.id,
      viaGroupModerator: member.id,
      personalModerator: mod.id,
    },
    forumModerators: [admin.id, mod.id, member.id, other.id].sort((a, b) => a - b),
    counts: { bb_groups: [12, 7, 5], bb_user_group: [14, 8, 6], bb_auth_access: [15, 11, 4] },
  };
}
