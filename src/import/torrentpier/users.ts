// bb_users (with bb_bt_users and bb_banlist) → users, passkeys and the
// tracker's per-user figures. Ids stay. Names and e-mail addresses are
// decoded from the HTML entities TorrentPier stored them with; password
// hashes move as they are (bcrypt `$2y$` and the pre-2.4 md5(md5()) are
// verified at login and rehashed on the first success, auth/passwords.ts);
// the plaintext temporary password (user_newpasswd) is never read.
import type mysql from 'mysql2/promise';
import type { Insertable } from 'kysely';
import type { Role, TrackerUserStatsTable, UsersTable, UserStatus } from '../../db/schema.ts';
import { isPasskeyShape } from '../../tracker/passkeys.ts';
import { usernameSkeleton } from '../../db/username-skeleton.ts';
import { emailKey, usernameKey } from '../../users/repository.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import { readQueryBatches, tableColumns } from './source.ts';
import { decodeEntities, firstTime } from './text.ts';

export interface UpstreamUser {
  user_id: number;
  user_active: number;
  username: string;
  user_password: string;
  user_regdate: number;
  user_level: number;
  user_email: string;
  user_sig: string;
  user_points: number;
  /** Bit field of member settings and admin prohibitions (see USER_NOTIFY_PM). */
  user_opt: number;
  /** Moderates some forum upstream (a bb_auth_access entry with AUTH_MOD for one of their groups: grants.ts). */
  forum_moderator: boolean;
  /** From bb_banlist. */
  banned: boolean;
  /** The ban's reason (`bb_banlist.ban_reason`, 2.4.0 and later), when banned. */
  ban_reason: string | null;
  /** bb_bt_users; null when the user never had a passkey generated. */
  tracker: { auth_key: string; up: string[]; down: string } | null;
}

export interface MappedUser {
  user: Insertable<UsersTable> & { id: number };
  passkey: string | null;
  stats: Insertable<TrackerUserStatsTable> | null;
}

/** Stored when the upstream hash is in no form we verify: no password matches it, the member resets it by e-mail. */
export const UNUSABLE_PASSWORD = '!imported-without-usable-password';

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;
const DOUBLE_MD5 = /^[0-9a-f]{32}$/;

/** user_opt bit 6, `user_notify_pm`: the member wanted an e-mail about each new private message. */
export const USER_NOTIFY_PM = 1 << 6;

/** user_opt bit 4, `user_viewonline`: the member kept out of who is online. */
export const USER_HIDE_ONLINE = 1 << 4;

/**
 * user_level: 1 ADMIN; everything else a member. Upstream sets 2 (MOD) for
 * whoever moderates a forum through a bb_auth_access entry of one of their
 * groups (`update_user_level`), and that moderation moves as grants that
 * moderate (grants.ts): such a member moderates those forums here too. A MOD
 * that no entry names (a level set by hand) moderated no forum upstream:
 * auth() reads moderation only from the entries, and the next
 * update_user_level resets the level. A global moderator here would pass
 * every forum's `private` and `moderators` levels, more than they had, so
 * they are a member too (docs/migrating-from-torrentpier.md).
 */
export function roleOf(level: number): Role {
  return level === 1 ? 'admin' : 'user';
}

function statusOf(row: UpstreamUser): UserStatus {
  if (row.banned) return 'banned';
  return row.user_active === 1 ? 'active' : 'pending';
}

/** Sum of BIGINT UNSIGNED byte counts (strings), as a number the target stores. */
function bytes(values: string[]): { value: number; clamped: boolean } {
  const total = values.reduce((sum, v) => sum + (/^\d+$/.test(v) ? BigInt(v) : 0n), 0n);
  return total > BigInt(Number.MAX_SAFE_INTEGER) ? { value: Number.MAX_SAFE_INTEGER, clamped: true } : { value: Number(total), clamped: false };
}

/**
 * One upstream user as our rows, before uniqueness across users is settled
 * (`settleUnique`). Guest (-1), the bot (-746) and any id below 1 are the
 * upstream's system accounts, not members.
 */
export function mapUser(row: UpstreamUser, now: string): Mapped<MappedUser> {
  if (row.user_id < 1) return skip('upstream system account (guest or bot), not a member');
  const notes: string[] = [];
  if (row.user_level === 2) {
    notes.push(
      row.forum_moderator
        ? 'user_level MOD from moderating forums: a member who moderates those forums (grants that moderate)'
        : 'user_level MOD without a forum to moderate (upstream it gave no forum rights): a member',
    );
  }
  let username = decodeEntities(row.username).trim();
  if (username === '') {
    username = `user-${row.user_id}`;
    notes.push('empty user name replaced by user-<id>');
  }
  let email = decodeEntities(row.user_email).trim();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
    email = placeholderEmail(row.user_id);
    notes.push('no usable e-mail address: a placeholder @imported.invalid address was set');
  }
  let passwordHash = row.user_password;
  if (!BCRYPT.test(passwordHash) && !DOUBLE_MD5.test(passwordHash)) {
    passwordHash = UNUSABLE_PASSWORD;
    notes.push('password hash in no known form: the member must reset the password by e-mail');
  }
  const created = firstTime(now, row.user_regdate);
  let stats: Insertable<TrackerUserStatsTable> | null = null;
  let points = Math.round(Number(row.user_points) * 100);
  if (!Number.isFinite(points) || points < 0) {
    if (points < 0) notes.push('negative bonus points set to 0');
    points = 0;
  }
  let passkey: string | null = null;
  if (row.tracker !== null || points > 0) {
    // Upstream's ratio counts release and only-seeder upload on top of the total (get_bt_ratio): keep the ratio members had.
    const up = bytes(row.tracker?.up ?? []);
    const down = bytes(row.tracker === null ? [] : [row.tracker.down]);
    if (up.clamped || down.clamped) notes.push('transfer total above 2^53 bytes clamped');
    stats = { user_id: row.user_id, uploaded: up.value, downloaded: down.value, bonus_points: points, updated_at: now };
  }
  if (row.tracker !== null) {
    if (isPasskeyShape(row.tracker.auth_key)) passkey = row.tracker.auth_key;
    else if (row.tracker.auth_key !== '') notes.push('passkey not 20 letters and digits: not carried over (a new one is made on first need)');
  }
  return keep(
    {
      user: {
        id: row.user_id,
        username,
        username_key: usernameKey(username),
        username_skeleton: usernameSkeleton(username),
        // Set on every row: a batch's insert leaves no column to its default (SQLite has none in VALUES).
        username_lookalike: false,
        email,
        email_key: emailKey(email),
        password_hash: passwordHash,
        role: roleOf(row.user_level),
        status: statusOf(row),
        signature: decodeEntities(row.user_sig ?? ''),
        ban_reason: row.banned ? row.ban_reason : null,
        message_mails: (row.user_opt & USER_NOTIFY_PM) !== 0,
        hide_online: (row.user_opt & USER_HIDE_ONLINE) !== 0,
        created_at: created,
        updated_at: created,
      },
      passkey,
      stats,
    },
    notes,
  );
}

export function placeholderEmail(id: number): string {
  return `user-${id}@imported.invalid`;
}

/** The keys already held: lower-cased names, skeletons (what names look like) and addresses. */
export interface TakenKeys {
  names: Set<string>;
  skeletons: Set<string>;
  emails: Set<string>;
}

/**
 * Names and e-mail addresses are unique here ignoring case (NFKC, lower
 * case); upstream compared them with MySQL's collation, which lets a few
 * through that clash here. The later user gets a changed name or a
 * placeholder address, and the report says so. A name that only looks like
 * an earlier one (the same skeleton: `Аdmin` with a Cyrillic А after `admin`)
 * is kept, so its member logs in as before, and marked as a look-alike
 * (docs/members.md, "Look-alike names"): new names cannot look like it.
 */
export function settleUnique(mapped: MappedUser, taken: TakenKeys): string[] {
  const notes: string[] = [];
  const user = mapped.user;
  if (taken.names.has(user.username_key)) {
    let candidate = `${user.username} (${user.id})`;
    for (let n = 2; taken.names.has(usernameKey(candidate)); n++) candidate = `${user.username} (${user.id}-${n})`;
    user.username = candidate;
    user.username_key = usernameKey(candidate);
    user.username_skeleton = usernameSkeleton(candidate);
    notes.push('user name clashes with an earlier one ignoring case: renamed to "name (id)"');
  }
  if (taken.skeletons.has(user.username_skeleton)) {
    user.username_lookalike = true;
    notes.push('user name looks like an earlier one (confusable characters): kept, marked as a look-alike');
  }
  if (taken.emails.has(user.email_key)) {
    user.email = placeholderEmail(user.id);
    user.email_key = emailKey(user.email);
    notes.push('e-mail address already used by an earlier user: a placeholder @imported.invalid address was set');
  }
  taken.names.add(user.username_key);
  taken.skeletons.add(user.username_skeleton);
  taken.emails.add(user.email_key);
  return notes;
}

function upstreamUser(row: mysql.RowDataPacket, banned: ReadonlyMap<number, string | null>, forumModerators: ReadonlySet<number>): UpstreamUser {
  const id = int(row['user_id']);
  return {
    user_id: id,
    user_active: int(row['user_active']),
    username: String(row['username'] ?? ''),
    user_password: String(row['user_password'] ?? ''),
    user_regdate: int(row['user_regdate']),
    user_level: int(row['user_level']),
    user_email: String(row['user_email'] ?? ''),
    user_sig: String(row['user_sig'] ?? ''),
    user_points: Number(row['user_points'] ?? 0),
    user_opt: int(row['user_opt']),
    forum_moderator: forumModerators.has(id),
    banned: banned.has(id),
    ban_reason: banned.get(id) ?? null,
    tracker:
      row['bt_user_id'] === null || row['bt_user_id'] === undefined
        ? null
        : {
            auth_key: String(row['auth_key'] ?? ''),
            up: [row['u_up_total'], row['u_up_release'], row['u_up_bonus']].map((v) => String(v ?? '0')),
            down: String(row['u_down_total'] ?? '0'),
          },
  };
}

/**
 * The keys of this batch already held by users imported before it, asked of
 * the target rather than kept in memory (memory stays flat however many
 * members the board has); settleUnique adds the batch's own as it goes.
 */
async function takenKeys(ctx: ImportContext, batch: readonly MappedUser[]): Promise<TakenKeys> {
  const names = new Set<string>();
  const skeletons = new Set<string>();
  const emails = new Set<string>();
  for (const part of chunks(batch, 2000)) {
    const rows = await ctx.target.db
      .selectFrom('users')
      .select(['username_key', 'username_skeleton', 'email_key'])
      .where((eb) =>
        eb.or([
          eb(
            'username_key',
            'in',
            part.map((m) => m.user.username_key),
          ),
          eb(
            'username_skeleton',
            'in',
            part.map((m) => m.user.username_skeleton),
          ),
          eb(
            'email_key',
            'in',
            part.map((m) => m.user.email_key),
          ),
        ]),
      )
      .execute();
    for (const row of rows) {
      names.add(row.username_key);
      skeletons.add(row.username_skeleton);
      emails.add(row.email_key);
    }
  }
  return { names, skeletons, emails };
}

/** User ids with a ban and its reason (2.4.0 and later keep only user bans, with a reason; older IP and e-mail bans have ban_userid 0). */
async function readBans(ctx: ImportContext): Promise<Map<number, string | null>> {
  const withReason = (await tableColumns(ctx.source, 'bb_banlist')).has('ban_reason');
  const [rows] = await ctx.source.query<mysql.RowDataPacket[]>(`SELECT ban_id, ban_userid${withReason ? ', ban_reason' : ''} FROM bb_banlist ORDER BY ban_id`);
  const banned = new Map<number, string | null>();
  ctx.report.table('bb_banlist');
  for (const row of rows) {
    ctx.report.read('bb_banlist');
    const id = int(row['ban_userid']);
    if (id > 0 && banned.has(id)) ctx.report.skipped('bb_banlist', 'a second ban of the same user', int(row['ban_id']));
    else if (id > 0) banned.set(id, withReason ? decodeEntities(String(row['ban_reason'] ?? '')).trim() || null : null);
    else ctx.report.skipped('bb_banlist', 'an IP or e-mail ban: only bans of member accounts move', int(row['ban_id']));
  }
  return banned;
}

/** `forumModerators`: the upstream users some forum's moderation entry names (grants.ts readAccess). */
export async function importUsers(ctx: ImportContext, total: number, forumModerators: ReadonlySet<number>): Promise<void> {
  const banned = await readBans(ctx);
  const { report, target } = ctx;
  report.table('bb_users');
  report.table('bb_bt_users');
  ctx.progress.start('bb_users', total);
  const batches = readQueryBatches(ctx.source, {
    select:
      'SELECT u.user_id, u.user_active, u.username, u.user_password, u.user_regdate, u.user_level, u.user_email, u.user_sig, u.user_points, u.user_opt,' +
      ' b.user_id AS bt_user_id, b.auth_key, b.u_up_total, b.u_up_release, b.u_up_bonus, b.u_down_total' +
      ' FROM bb_users u LEFT JOIN bb_bt_users b ON b.user_id = u.user_id',
    key: 'u.user_id',
    keyAlias: 'user_id',
    batchSize: ctx.batchSize,
  });
  for await (const batch of batches) {
    const accepted: MappedUser[] = [];
    for (const raw of batch) {
      const upstream = upstreamUser(raw, banned, forumModerators);
      report.read('bb_users');
      if (upstream.tracker !== null) report.read('bb_bt_users');
      const mapped = mapUser(upstream, ctx.now);
      if (!mapped.ok) {
        report.skipped('bb_users', mapped.reason, upstream.user_id);
        if (upstream.tracker !== null) report.skipped('bb_bt_users', 'belongs to an upstream system account', upstream.user_id);
        continue;
      }
      for (const note of mapped.notes) report.note('bb_users', note, upstream.user_id);
      accepted.push(mapped.row);
    }
    const taken = await takenKeys(ctx, accepted);
    for (const m of accepted) for (const note of settleUnique(m, taken)) report.note('bb_users', note, m.user.id);
    await target.db.transaction().execute(async (trx) => {
      for (const part of chunks(accepted, 500)) {
        await trx
          .insertInto('users')
          .values(part.map((m) => m.user))
          .execute();
        const passkeys = part.filter((m) => m.passkey !== null).map((m) => ({ user_id: m.user.id, passkey: m.passkey!, created_at: ctx.now }));
        if (passkeys.length > 0) await trx.insertInto('passkeys').values(passkeys).execute();
        const stats = part.flatMap((m) => (m.stats === null ? [] : [m.stats]));
        if (stats.length > 0) await trx.insertInto('tracker_user_stats').values(stats).execute();
      }
    });
    for (const m of accepted) {
      ctx.imported.users.add(m.user.id);
      report.imported('bb_users');
    }
    for (const raw of batch) {
      if (raw['bt_user_id'] !== null && raw['bt_user_id'] !== undefined && ctx.imported.users.has(int(raw['user_id']))) report.imported('bb_bt_users');
    }
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
  for (const id of banned.keys()) {
    if (ctx.imported.users.has(id)) report.imported('bb_banlist');
    else report.skipped('bb_banlist', 'the banned user does not exist upstream', id);
  }
  await countOrphanTrackerUsers(ctx);
}

/** bb_bt_users rows of users that do not exist (no foreign keys upstream): counted, never imported. */
async function countOrphanTrackerUsers(ctx: ImportContext): Promise<void> {
  const [rows] = await ctx.source.query<mysql.RowDataPacket[]>(
    'SELECT b.user_id FROM bb_bt_users b LEFT JOIN bb_users u ON u.user_id = b.user_id WHERE u.user_id IS NULL ORDER BY b.user_id',
  );
  for (const row of rows) {
    ctx.report.read('bb_bt_users');
    ctx.report.skipped('bb_bt_users', 'tracker figures of a user that does not exist upstream', int(row['user_id']));
  }
}
