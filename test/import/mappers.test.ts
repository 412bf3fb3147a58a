// The importer's mappers: pure functions from one upstream row to our rows
// (or the reason it stays behind), and the small helpers they share.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Role } from '../../src/db/schema.ts';
import {
  ACCESS_ACTIONS,
  ACCESS_LEVELS,
  AccessRules,
  actionMask,
  type AccessAction,
  type ForumLevels,
  type ForumRules,
  type Grant,
  type Reader,
  type ReaderPermissions,
} from '../../src/forum/permissions.ts';
import { avatarFilePath, DIS_AVATAR, mapAvatar } from '../../src/import/torrentpier/avatars.ts';
import { mapCensorWord } from '../../src/import/torrentpier/censor.ts';
import { AUTH_COLUMNS, levelColumns, mapCategory, mapForumLevels, orderForums, parentsOf } from '../../src/import/torrentpier/forums.ts';
import { IdSet } from '../../src/import/torrentpier/id-set.ts';
import { mapPost } from '../../src/import/torrentpier/posts.ts';
import { mapMessage, NO_TEXT_REASON, NOBODY_KEEPS_REASON, PM_TYPE, type UpstreamMessage } from '../../src/import/torrentpier/private-messages.ts';
import { ImportReport } from '../../src/import/torrentpier/report.ts';
import { decodeEntities, unixToIso } from '../../src/import/torrentpier/text.ts';
import { AUTH_MOD, flagSet, mapAuthEntry, PERM_BITS, permissionsOf, type UpstreamAccess } from '../../src/import/torrentpier/grants.ts';
import { GROUP_NAME_MAX, mapGroup, mapMembership, PERSONAL_GROUP_REASON, settleGroupName } from '../../src/import/torrentpier/groups.ts';
import { mapTopic } from '../../src/import/torrentpier/topics.ts';
import { compareStoredHash, freeleechOf, mapTorrent, STATUS_BY_CODE, torrentFilePath, type UpstreamTorrent } from '../../src/import/torrentpier/torrents.ts';
import { mapUser, roleOf, settleUnique, UNUSABLE_PASSWORD, USER_HIDE_ONLINE, USER_NOTIFY_PM, type UpstreamUser } from '../../src/import/torrentpier/users.ts';
import { mapWatch } from '../../src/import/torrentpier/watchlist.ts';
import { TORRENT_STATUSES } from '../../src/tracker/torrents/statuses.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const NOW = '2030-01-01T00:00:00.000Z';

function ids(...values: number[]): IdSet {
  const set = new IdSet();
  for (const v of values) set.add(v);
  return set;
}

const user = (over: Partial<UpstreamUser> = {}): UpstreamUser => ({
  user_id: 7,
  user_active: 1,
  username: 'Ann &amp; &lt;Bob&gt;',
  user_password: createHash('md5').update('x').digest('hex'),
  user_regdate: 1_600_000_000,
  user_level: 0,
  user_email: 'ann&amp;bob@example.org',
  user_sig: '[b]sig[/b] &amp; more',
  user_points: 12.34,
  user_opt: 0,
  forum_moderator: false,
  banned: false,
  ban_reason: null,
  tracker: null,
  ...over,
});

describe('text helpers', () => {
  it('decodes every HTML entity TorrentPier stored, named and numeric', () => {
    assert.equal(decodeEntities('a &amp; &lt;b&gt; &quot;q&quot; &#039;s&#039; &copy; &#x263A;'), 'a & <b> "q" \'s\' © ☺');
    assert.equal(decodeEntities('no entities'), 'no entities');
    assert.equal(decodeEntities('nul\u0000 &amp;\u0000'), 'nul &', 'NUL is dropped (PostgreSQL refuses it)');
  });
  it('turns Unix seconds into ISO timestamps and refuses 0', () => {
    assert.equal(unixToIso(1_600_000_000), '2020-09-13T12:26:40.000Z');
    assert.equal(unixToIso(0), null);
    assert.equal(unixToIso('abc'), null);
  });
});

describe('IdSet', () => {
  it('adds, answers and deletes ids across its growth', () => {
    const set = ids(0, 5, 16_777_215);
    assert.ok(set.has(5) && set.has(16_777_215) && set.has(0));
    assert.ok(!set.has(6) && !set.has(-1) && !set.has(1.5) && !set.has(99_999_999));
    set.add(5);
    assert.equal(set.size, 3);
    set.delete(5);
    assert.ok(!set.has(5));
    assert.equal(set.size, 2);
    assert.throws(() => set.add(-1), RangeError);
  });
});

describe('mapUser', () => {
  it('decodes the name, e-mail and signature, keeps the hash, converts points to hundredths', () => {
    const mapped = mapUser(user(), NOW);
    assert.ok(mapped.ok);
    assert.equal(mapped.row.user.username, 'Ann & <Bob>');
    assert.equal(mapped.row.user.email, 'ann&bob@example.org');
    assert.equal(mapped.row.user.signature, '[b]sig[/b] & more');
    assert.equal(mapped.row.user.password_hash, user().user_password);
    assert.equal(mapped.row.user.status, 'active');
    assert.equal(mapped.row.user.created_at, '2020-09-13T12:26:40.000Z');
    assert.equal(mapped.row.stats?.bonus_points, 1234);
    assert.equal(mapped.row.passkey, null);
    assert.deepEqual(mapped.notes, []);
  });
  it('keeps a member out of who is online when user_opt says so (bit 4), and their mail setting (bit 6)', () => {
    const hidden = mapUser(user({ user_opt: USER_HIDE_ONLINE }), NOW);
    assert.ok(hidden.ok);
    assert.equal(hidden.row.user.hide_online, true);
    assert.equal(hidden.row.user.message_mails, false);
    const shown = mapUser(user({ user_opt: USER_NOTIFY_PM }), NOW);
    assert.ok(shown.ok);
    assert.equal(shown.row.user.hide_online, false);
    assert.equal(shown.row.user.message_mails, true);
  });
  it('skips the guest and the bot', () => {
    assert.equal(mapUser(user({ user_id: -1 }), NOW).ok, false);
    assert.equal(mapUser(user({ user_id: -746 }), NOW).ok, false);
  });
  it('maps roles and statuses: banned beats inactive', () => {
    // Only admins keep a role: a MOD's moderation moves as grants that moderate (grants.ts), and a MOD
    // that no entry names moderated nothing upstream; a global moderator would pass every private forum.
    assert.deepEqual(
      [0, 1, 2, 20, 25].map((level) => roleOf(level)),
      ['user', 'admin', 'user', 'user', 'user'],
    );
    const moderator = mapUser(user({ user_level: 2, forum_moderator: true }), NOW);
    assert.ok(moderator.ok);
    assert.equal(moderator.row.user.role, 'user');
    assert.deepEqual(moderator.notes, ['user_level MOD from moderating forums: a member who moderates those forums (grants that moderate)']);
    const byHand = mapUser(user({ user_level: 2 }), NOW);
    assert.ok(byHand.ok);
    assert.equal(byHand.row.user.role, 'user');
    assert.deepEqual(byHand.notes, ['user_level MOD without a forum to moderate (upstream it gave no forum rights): a member']);
    const status = (over: Partial<UpstreamUser>) => {
      const m = mapUser(user(over), NOW);
      assert.ok(m.ok);
      return m.row.user.status;
    };
    assert.equal(status({ user_active: 0 }), 'pending');
    assert.equal(status({ user_active: 0, banned: true }), 'banned');
  });
  it('makes an unknown hash unusable (never a plaintext), and notes it', () => {
    const m = mapUser(user({ user_password: 'plain-text' }), NOW);
    assert.ok(m.ok);
    assert.equal(m.row.user.password_hash, UNUSABLE_PASSWORD);
    assert.match(m.notes.join(), /reset the password/);
    const bcrypt = mapUser(user({ user_password: '$2y$10$QeekUGqdfMO0db30ixPmOerpVRGRsQTY3LIpmDLnGJhS.uD9SmUDK' }), NOW);
    assert.ok(bcrypt.ok && bcrypt.row.user.password_hash.startsWith('$2y$'));
  });
  it('keeps a well-formed passkey and sums upload as upstream ratio does', () => {
    const m = mapUser(user({ tracker: { auth_key: 'aB3dE5gH7jK9mN1pQ3sT', up: ['100', '20', '3'], down: '50' } }), NOW);
    assert.ok(m.ok);
    assert.equal(m.row.passkey, 'aB3dE5gH7jK9mN1pQ3sT');
    assert.equal(m.row.stats?.uploaded, 123);
    assert.equal(m.row.stats?.downloaded, 50);
    const bad = mapUser(user({ tracker: { auth_key: 'short', up: [], down: '0' } }), NOW);
    assert.ok(bad.ok);
    assert.equal(bad.row.passkey, null);
    assert.match(bad.notes.join(), /passkey/);
  });
  it('gives a placeholder address when the e-mail is unusable', () => {
    const m = mapUser(user({ user_email: '' }), NOW);
    assert.ok(m.ok);
    assert.equal(m.row.user.email, 'user-7@imported.invalid');
  });
  it('renames a later user whose name clashes ignoring case, and replaces a reused e-mail address', () => {
    const taken = { names: new Set<string>(), skeletons: new Set<string>(), emails: new Set<string>() };
    const first = mapUser(user({ user_id: 1, username: 'Ann' }), NOW);
    const second = mapUser(user({ user_id: 2, username: 'ANN', user_email: 'ANN&amp;bob@example.org' }), NOW);
    assert.ok(first.ok && second.ok);
    assert.deepEqual(settleUnique(first.row, taken), []);
    assert.equal(settleUnique(second.row, taken).length, 2);
    assert.equal(second.row.user.username, 'ANN (2)');
    assert.equal(second.row.user.email, 'user-2@imported.invalid');
  });
  it('keeps a later name that only looks like an earlier one, marked as a look-alike (its member still logs in with it)', () => {
    const taken = { names: new Set<string>(), skeletons: new Set<string>(), emails: new Set<string>() };
    const names = ['admin', '\u0410dmin', 'admin\u034f', 'ad\u180bmin', 'moderator'];
    const mapped = names.map((username, i) => mapUser(user({ user_id: i + 1, username, user_email: `u${i}@example.org` }), NOW));
    const notes = mapped.map((m) => (m.ok ? settleUnique(m.row, taken) : ['skipped']));
    assert.deepEqual(
      mapped.map((m) => (m.ok ? [m.row.user.username, m.row.user.username_lookalike ?? false] : null)),
      names.map((name, i) => [name, i >= 1 && i <= 3]),
    );
    assert.deepEqual(notes[0], []);
    assert.match(notes[1]!.join(), /looks like an earlier one/);
    assert.deepEqual(notes[4], []);
  });
});

describe('orderForums', () => {
  it('numbers forums in the index order: categories by cat_order, forums by forum_order, orphans last', () => {
    const rows = orderForums(
      [
        { cat_id: 1, cat_order: 20 },
        { cat_id: 2, cat_order: 10 },
      ],
      [
        { forum_id: 1, cat_id: 1, forum_name: 'A', forum_desc: '', forum_order: 1, forum_status: 0, forum_parent: 0 },
        { forum_id: 2, cat_id: 2, forum_name: 'B &amp; C', forum_desc: 'd &lt;', forum_order: 5, forum_status: 0, forum_parent: 0 },
        { forum_id: 3, cat_id: 2, forum_name: 'C', forum_desc: '', forum_order: 2, forum_status: 0, forum_parent: 0 },
        { forum_id: 4, cat_id: 9, forum_name: 'D', forum_desc: '', forum_order: 0, forum_status: 0, forum_parent: 0 },
      ],
      new Map(),
      NOW,
    );
    assert.deepEqual(
      rows.map((r) => [r.id, r.display_order]),
      [
        [3, 0],
        [2, 1],
        [1, 2],
        [4, 3],
      ],
    );
    assert.equal(rows[1]!.name, 'B & C');
    assert.equal(rows[1]!.description, 'd <');
  });

  it("files each top-level forum in its cat_id's category, a subforum in none of its own, a missing category's forums in none", () => {
    const forum = (forum_id: number, cat_id: number, forum_parent = 0) => ({
      forum_id,
      cat_id,
      forum_name: `F${forum_id}`,
      forum_desc: '',
      forum_order: forum_id,
      forum_status: 0,
      forum_parent,
    });
    const rows = orderForums(
      [
        { cat_id: 1, cat_order: 1 },
        { cat_id: 2, cat_order: 2 },
      ],
      [forum(1, 1), forum(2, 1, 1), forum(3, 2), forum(4, 2, 1), forum(5, 7)],
      new Map([
        [2, 1],
        [4, 1],
      ]),
      NOW,
    );
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.category_id])), { 1: 1, 2: null, 3: 2, 4: null, 5: null });
  });
});

describe('mapCategory', () => {
  it('keeps the id, the order and the title decoded; an empty title gets one, with a note', () => {
    assert.deepEqual(mapCategory({ cat_id: 3, cat_title: 'Films &amp; &quot;Series&quot;', cat_order: 40 }, NOW), {
      row: { id: 3, title: 'Films & "Series"', display_order: 40, created_at: NOW, updated_at: NOW },
      notes: [],
    });
    for (const blank of ['', '   ', '\u200b']) {
      const mapped = mapCategory({ cat_id: 5, cat_title: blank, cat_order: 0 }, NOW);
      assert.equal(mapped.row.title, 'Category 5');
      assert.deepEqual(mapped.notes, ['its title is empty upstream: named “Category 5”']);
    }
  });
});

describe('parentsOf', () => {
  it('keeps subforums one level deep, lifts a deeper one to the top-level forum above, and drops missing parents', () => {
    const forum = (forum_id: number, forum_parent: number) => ({
      forum_id,
      cat_id: 1,
      forum_name: '',
      forum_desc: '',
      forum_order: 0,
      forum_status: 0,
      forum_parent,
    });
    const notes: Array<[number, string]> = [];
    const parents = parentsOf([forum(1, 0), forum(2, 1), forum(3, 2), forum(4, 99), forum(5, 6), forum(6, 5)], (id, reason) => notes.push([id, reason]));
    assert.deepEqual(
      [...parents],
      [
        [2, 1],
        [3, 1],
      ],
    );
    assert.deepEqual(
      notes.map(([id]) => id),
      [3, 4, 5, 6],
      'the lifted one, the orphan and the two in a loop are reported',
    );
  });
});

describe('mapForumLevels', () => {
  const codes = (value: number) => Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, value])) as Record<AccessAction, number>;
  it("maps TorrentPier's 0, 1, 2, 3, 5 to all, members, private, moderators, admins, column by column", () => {
    for (const [code, level] of [
      [0, 'all'],
      [1, 'members'],
      [2, 'private'],
      [3, 'moderators'],
      [5, 'admins'],
    ] as const) {
      const mapped = mapForumLevels(codes(code));
      assert.deepEqual(mapped.levels, Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, level])));
      assert.deepEqual(mapped.notes, []);
    }
    const mixed = mapForumLevels({ ...codes(1), view: 0, read: 0, pin: 3, announce: 3, download: 2 });
    assert.deepEqual(levelColumns(mixed.levels), {
      level_view: 'all',
      level_read: 'all',
      level_post: 'members',
      level_reply: 'members',
      level_edit: 'members',
      level_delete: 'members',
      level_pin: 'moderators',
      level_announce: 'moderators',
      level_vote: 'members',
      level_poll_create: 'members',
      level_upload: 'members',
      level_download: 'private',
    });
    assert.deepEqual([AUTH_COLUMNS.pin, AUTH_COLUMNS.poll_create, AUTH_COLUMNS.upload], ['auth_sticky', 'auth_pollcreate', 'auth_attachments']);
  });
  it('makes any other value (4, negative, unknown, not a number) admins only, the most closed, and says so', () => {
    const mapped = mapForumLevels({ ...codes(0), post: 4, edit: -1, download: 9, vote: Number.NaN });
    assert.deepEqual(
      [mapped.levels.post, mapped.levels.edit, mapped.levels.download, mapped.levels.vote, mapped.levels.read],
      ['admins', 'admins', 'admins', 'admins', 'all'],
    );
    assert.deepEqual(mapped.notes, [
      'auth_post = 4 is no TorrentPier level (upstream lets nobody through, admins neither): admins only',
      'auth_edit = -1 is no TorrentPier level (upstream lets nobody through, admins neither): admins only',
      'auth_vote = NaN is no TorrentPier level (upstream lets nobody through, admins neither): admins only',
      'auth_download = 9 is no TorrentPier level (upstream lets nobody through, admins neither): admins only',
    ]);
  });
  it("closes a locked forum's posting to its moderators, keeping what was more closed already", () => {
    const mapped = mapForumLevels({ ...codes(1), view: 0, read: 0, post: 5, edit: 2, delete: 3, vote: 1 }, true);
    assert.deepEqual(
      [mapped.levels.post, mapped.levels.reply, mapped.levels.edit, mapped.levels.delete, mapped.levels.upload, mapped.levels.vote, mapped.levels.read],
      ['admins', 'moderators', 'moderators', 'moderators', 'moderators', 'members', 'all'],
    );
    assert.deepEqual(mapped.notes, [
      'locked upstream: only its moderators posted, replied, edited or deleted there; post, reply, edit, delete and upload raised to moderators',
    ]);
  });
});

describe('permissionsOf, mapAuthEntry', () => {
  it("reads forum_perm's bits in TorrentPier's order into the actions' mask here", () => {
    const bit = (n: number) => 1 << n;
    assert.deepEqual(
      ACCESS_ACTIONS.map((action) => PERM_BITS[action]),
      [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    );
    for (const action of ACCESS_ACTIONS) {
      assert.deepEqual(permissionsOf(bit(PERM_BITS[action])), { actions: actionMask([action]), moderate: false, unknownBits: false }, action);
    }
    assert.deepEqual(permissionsOf(AUTH_MOD), { actions: 0, moderate: true, unknownBits: false });
    assert.deepEqual(permissionsOf(bit(1) | bit(2) | bit(8) | bit(12) | bit(13)), {
      actions: actionMask(['view', 'read', 'pin', 'upload', 'download']),
      moderate: false,
      unknownBits: false,
    });
    assert.deepEqual(permissionsOf(1 | bit(14) | bit(2)), { actions: actionMask(['read']), moderate: false, unknownBits: true });
  });
  it('reads user_pending and group_single_user as cleared only when they are 0: anything else is the closed reading', () => {
    assert.deepEqual([0, '0', 1, '1', 2, null, undefined, '', 'x'].map(flagSet), [false, false, true, true, true, true, true, true, true]);
  });

  const upstream: UpstreamAccess = {
    personal: new Map([
      [1, true],
      [2, false],
      [3, true],
      [4, true],
    ]),
    personalMembers: new Map([
      [1, [{ userId: 6, pending: false }]],
      [3, [{ userId: 9, pending: true }]],
      [
        4,
        [
          { userId: 10, pending: false },
          { userId: 11, pending: false },
        ],
      ],
    ]),
    forums: new Set([1, 2]),
  };
  const perm = (...actions: AccessAction[]) => actions.reduce((bits, action) => bits | (1 << PERM_BITS[action]), 0);
  it("grants a real group's entry to the group, and a personal group's to its accepted member", () => {
    const group = mapAuthEntry({ group_id: 2, forum_id: 1, forum_perm: AUTH_MOD | perm('view', 'read', 'post') }, upstream);
    assert.ok(group.ok);
    assert.deepEqual(
      [group.row, group.notes],
      [[{ forum_id: 1, group_id: 2, user_id: null, actions: actionMask(['view', 'read', 'post']), moderate: true }], []],
    );
    const personal = mapAuthEntry({ group_id: 1, forum_id: 2, forum_perm: perm('download') }, upstream);
    assert.ok(personal.ok);
    assert.deepEqual([personal.row, personal.notes], [[{ forum_id: 2, group_id: null, user_id: 6, actions: actionMask(['download']), moderate: false }], []]);
    const shared = mapAuthEntry({ group_id: 4, forum_id: 2, forum_perm: perm('read') | (1 << 30) }, upstream);
    assert.ok(shared.ok);
    assert.deepEqual(
      shared.row.map((row) => row.user_id),
      [10, 11],
    );
    assert.deepEqual(shared.notes, [
      'forum_perm bits that name no permission (bit 0, bits 14 and up) dropped',
      'a personal group of several members: each gets the grant',
    ]);
  });
  it('skips entries that grant nothing, of missing forums or groups, and of a personal group whose member is only pending', () => {
    const reason = (entry: { group_id: number; forum_id: number; forum_perm: number }) => {
      const mapped = mapAuthEntry(entry, upstream);
      assert.equal(mapped.ok, false);
      return mapped.ok ? '' : mapped.reason;
    };
    assert.equal(reason({ group_id: 2, forum_id: 1, forum_perm: 0 }), 'grants nothing: no permission bit is set');
    assert.equal(reason({ group_id: 2, forum_id: 1, forum_perm: 1 | (1 << 20) }), 'grants nothing: no permission bit is set');
    assert.equal(reason({ group_id: 2, forum_id: 9, forum_perm: AUTH_MOD }), 'the forum does not exist upstream');
    assert.equal(reason({ group_id: 77, forum_id: 1, forum_perm: AUTH_MOD }), 'the group does not exist upstream');
    assert.equal(
      reason({ group_id: 3, forum_id: 1, forum_perm: perm('view') }),
      'the personal group has no accepted member (upstream grants a pending one nothing)',
    );
  });

  it('skipping grants never opens anything: with fewer grants no reader may do more anywhere (the rule is monotone in grants)', () => {
    // mulberry32: a fixed pseudo-random sequence, so a failure repeats.
    let seed = 2024;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let round = 0; round < 40; round++) {
      const forums: ForumRules[] = [1, 2, 3, 4, 5, 6].map((id) => ({
        id,
        parentId: id > 3 ? id - 3 : null,
        levels: Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, pick(ACCESS_LEVELS)])) as ForumLevels,
      }));
      const grants: Grant[] = Array.from({ length: 12 }, () => {
        const toGroup = random() < 0.5;
        return {
          forumId: pick([1, 2, 3, 4, 5, 6]),
          groupId: toGroup ? pick([1, 2, 3]) : null,
          userId: toGroup ? null : pick([10, 11, 12]),
          actions: Math.floor(random() * (1 << ACCESS_ACTIONS.length)),
          moderate: random() < 0.3,
        };
      });
      const readerOf = (id: number, role: Role, groupIds: number[], kept: readonly Grant[]): Reader => ({
        id,
        role,
        groupIds,
        // As the credentials read them: forums where a grant to them or to one of their groups moderates.
        moderatedForums: kept.filter((g) => g.moderate && (g.userId === id || (g.groupId !== null && groupIds.includes(g.groupId)))).map((g) => g.forumId),
      });
      const people: Array<[number, Role, number[]]> = [
        [10, 'user', [1]],
        [11, 'user', [2, 3]],
        [12, 'moderator', []],
        [13, 'user', []],
        [14, 'admin', [1]],
      ];
      const full = new AccessRules(forums, grants);
      for (let drop = 0; drop < grants.length; drop++) {
        const kept = grants.filter((_, index) => index !== drop && random() < 0.8);
        const fewer = new AccessRules(forums, kept);
        const pairs: Array<[ReaderPermissions, ReaderPermissions]> = [
          [full.for(null), fewer.for(null)],
          ...people.map(([id, role, groups]): [ReaderPermissions, ReaderPermissions] => [
            full.for(readerOf(id, role, groups, grants)),
            fewer.for(readerOf(id, role, groups, kept)),
          ]),
        ];
        for (const [withAll, withFewer] of pairs) {
          for (const forum of forums) {
            const before = withAll.flags(forum.id);
            for (const [permission, allowed] of Object.entries(withFewer.flags(forum.id))) {
              if (allowed) assert.equal(before[permission as keyof typeof before], true, `round ${round}: ${permission} in forum ${forum.id}`);
            }
          }
        }
      }
    }
  });
});

describe('mapGroup, settleGroupName, mapMembership', () => {
  const group = (over: Partial<Parameters<typeof mapGroup>[0]> = {}) => ({
    group_id: 5,
    group_type: 1,
    group_name: 'Ann &amp; friends',
    group_description: ' [b]We[/b] &lt;3 seeding ',
    group_moderator: 7,
    group_single_user: 0,
    group_time: 1_600_000_000,
    mod_time: 0,
    ...over,
  });
  it('moves a real group with its decoded name and description, type and times; a personal group stays behind', () => {
    const mapped = mapGroup(group(), NOW);
    assert.ok(mapped.ok);
    assert.deepEqual(mapped.row, {
      id: 5,
      name: 'Ann & friends',
      name_key: 'ann & friends',
      description: '[b]We[/b] <3 seeding',
      type: 'closed',
      created_at: '2020-09-13T12:26:40.000Z',
      updated_at: '2020-09-13T12:26:40.000Z',
    });
    assert.deepEqual(mapped.notes, []);
    assert.deepEqual(
      [0, 1, 2].map((type) => {
        const m = mapGroup(group({ group_type: type }), NOW);
        return m.ok ? m.row.type : null;
      }),
      ['open', 'closed', 'hidden'],
    );
    assert.deepEqual(mapGroup(group({ group_single_user: 1 }), NOW), { ok: false, reason: PERSONAL_GROUP_REASON });
  });
  it('makes an unknown type hidden (the most closed), names an empty name, cuts a long one, and says so', () => {
    const odd = mapGroup(group({ group_type: 7 }), NOW);
    assert.ok(odd.ok);
    assert.equal(odd.row.type, 'hidden');
    assert.deepEqual(odd.notes, ['group_type = 7 is no TorrentPier group type: hidden (invitation only)']);
    const empty = mapGroup(group({ group_name: ' \u200b ' }), NOW);
    assert.ok(empty.ok);
    assert.equal(empty.row.name, 'Group 5');
    const long = mapGroup(group({ group_name: 'ж'.repeat(70) }), NOW);
    assert.ok(long.ok);
    assert.equal(long.row.name, 'ж'.repeat(GROUP_NAME_MAX));
    assert.deepEqual(long.notes, [`its name is longer than ${GROUP_NAME_MAX} characters: cut`]);
  });
  it('renames a later group whose name clashes ignoring case, within the length limit', () => {
    const taken = new Set<string>();
    const first = mapGroup(group({ group_id: 2, group_name: 'Team' }), NOW);
    const second = mapGroup(group({ group_id: 9, group_name: 'TEAM' }), NOW);
    const third = mapGroup(group({ group_id: 12, group_name: 'x'.repeat(60) }), NOW);
    const fourth = mapGroup(group({ group_id: 13, group_name: 'X'.repeat(60) }), NOW);
    assert.ok(first.ok && second.ok && third.ok && fourth.ok);
    assert.deepEqual(settleGroupName(first.row, taken), []);
    assert.deepEqual(settleGroupName(second.row, taken), ['its name clashes with an earlier group ignoring case: renamed to "name (id)"']);
    assert.equal(second.row.name, 'TEAM (9)');
    assert.equal(second.row.name_key, 'team (9)');
    settleGroupName(third.row, taken);
    settleGroupName(fourth.row, taken);
    assert.equal(fourth.row.name, `${'X'.repeat(55)} (13)`);
    assert.equal([...fourth.row.name].length, GROUP_NAME_MAX);
  });
  it('makes accepted members, requests and the leader; a leader whose request is pending is accepted only when that opens nothing', () => {
    const users = ids(6, 7, 8);
    const real = { personal: false, leader: 7, holdsGrants: false };
    const member = (user_id: number, user_pending: number, over: Partial<typeof real> = {}) =>
      mapMembership({ group_id: 5, user_id, user_pending, user_time: 0 }, { ...real, ...over }, users, NOW);
    const row = (m: ReturnType<typeof member>) => (m.ok ? [m.row.role, m.row.status, m.notes.length] : [m.reason]);
    assert.deepEqual(row(member(6, 0)), ['member', 'accepted', 0]);
    assert.deepEqual(row(member(6, 1)), ['member', 'pending', 0]);
    assert.deepEqual(row(member(7, 0)), ['leader', 'accepted', 0]);
    assert.deepEqual(row(member(7, 1)), ['leader', 'accepted', 1]);
    assert.deepEqual(row(member(7, 1, { holdsGrants: true })), ['member', 'pending', 1]);
    assert.deepEqual(row(member(9, 0)), ['the member was not imported']);
    assert.deepEqual(row(member(6, 0, { personal: true })), ["membership of a member's personal group: its grants are that member's own here"]);
    const orphan = mapMembership({ group_id: 5, user_id: 6, user_pending: 0, user_time: 0 }, undefined, users, NOW);
    assert.deepEqual(orphan, { ok: false, reason: 'the group does not exist upstream' });
  });
});

describe('mapTopic, mapPost, mapWatch', () => {
  const topic = {
    topic_id: 5,
    forum_id: 1,
    topic_title: 'T &quot;x&quot;',
    topic_poster: -1,
    topic_time: 1_600_000_000,
    topic_views: 9,
    topic_status: 0,
    topic_type: 0,
    topic_moved_id: 0,
    topic_last_post_time: 0,
  };
  it('keeps a topic with its id and decoded title; a guest topic has no author; the last post time falls back', () => {
    const m = mapTopic(topic, { forums: ids(1), users: ids(2) }, NOW);
    assert.ok(m.ok);
    assert.equal(m.row.title, 'T "x"');
    assert.equal(m.row.author_id, null);
    assert.equal(m.row.last_post_at, m.row.created_at);
  });
  it('leaves moved-topic links and orphans behind, keeps locks, pins stickies and announces announcements', () => {
    assert.equal(mapTopic({ ...topic, topic_status: 2, topic_moved_id: 9 }, { forums: ids(1), users: ids() }, NOW).ok, false);
    assert.equal(mapTopic({ ...topic, forum_id: 4 }, { forums: ids(1), users: ids() }, NOW).ok, false);
    const known = { forums: ids(1), users: ids() };
    const sticky = mapTopic({ ...topic, topic_status: 1, topic_type: 1 }, known, NOW);
    assert.ok(sticky.ok);
    assert.deepEqual([sticky.row.locked, sticky.row.pinned, sticky.row.announced, sticky.notes], [true, true, false, []]);
    const announcement = mapTopic({ ...topic, topic_type: 2 }, known, NOW);
    assert.ok(announcement.ok);
    assert.deepEqual([announcement.row.locked, announcement.row.pinned, announcement.row.announced, announcement.notes], [false, false, true, []]);
    const plain = mapTopic(topic, known, NOW);
    assert.ok(plain.ok);
    assert.deepEqual([plain.row.locked, plain.row.pinned, plain.row.announced], [false, false, false]);
  });
  it('decodes a post body and keeps authors only when imported', () => {
    const post = {
      post_id: 3,
      topic_id: 5,
      poster_id: 2,
      post_time: 1_600_000_000,
      post_edit_time: 1_600_000_100,
      post_username: '',
      post_text: '[code]a &lt; b[/code] &amp;',
      mc_comment: '',
      mc_type: 0,
      mc_user_id: 0,
    };
    const m = mapPost(post, { topics: ids(5), users: ids(2) }, NOW);
    assert.ok(m.ok);
    assert.equal(m.row.body, '[code]a < b[/code] &');
    assert.equal(m.row.author_id, 2);
    assert.equal(m.row.updated_at, '2020-09-13T12:28:20.000Z');
    assert.equal(m.row.guest_name, null);
    const gone = mapPost({ ...post, poster_id: 99 }, { topics: ids(5), users: ids(2) }, NOW);
    assert.ok(gone.ok && gone.row.author_id === null);
    assert.equal(gone.row.guest_name, 'Guest', 'as upstream shows a post without a name');
    const named = mapPost({ ...post, poster_id: -1, post_username: 'Ann &amp; co' }, { topics: ids(5), users: ids(2) }, NOW);
    assert.ok(named.ok && named.row.guest_name === 'Ann & co');
    assert.equal(mapPost({ ...post, topic_id: 6 }, { topics: ids(5), users: ids() }, NOW).ok, false);
    assert.equal(mapPost({ ...post, post_text: null }, { topics: ids(5), users: ids() }, NOW).ok, false);
    assert.equal(m.row.mod_comment, undefined, 'no comment (mc_type 0)');
  });
  it('brings a moderator comment of each of the four kinds, its moderator when imported', () => {
    const post = { post_id: 3, topic_id: 5, poster_id: 2, post_time: 1_600_000_000, post_edit_time: 0, post_username: '', post_text: 'Text' };
    const known = { topics: ids(5), users: ids(2, 9) };
    const kinds = [1, 2, 3, 4].map((type) => {
      const m = mapPost({ ...post, mc_comment: ' Read the [b]rules[/b] &amp; seed ', mc_type: type, mc_user_id: 9 }, known, NOW);
      assert.ok(m.ok);
      assert.deepEqual([m.row.mod_comment, m.row.mod_comment_by, m.row.mod_comment_at], ['Read the [b]rules[/b] & seed', 9, NOW]);
      return m.row.mod_comment_kind;
    });
    assert.deepEqual(kinds, ['comment', 'information', 'warning', 'violation']);
    const gone = mapPost({ ...post, mc_comment: 'Note', mc_type: 3, mc_user_id: 77 }, known, NOW);
    assert.ok(gone.ok && gone.row.mod_comment === 'Note' && gone.row.mod_comment_by === null, 'the moderator was not imported: the note stays, unsigned');
    const odd = mapPost({ ...post, mc_comment: 'Note', mc_type: 7, mc_user_id: 9 }, known, NOW);
    assert.ok(odd.ok && odd.row.mod_comment === undefined);
    assert.deepEqual(odd.notes, ['a moderator comment of unknown kind 7 was left out']);
    const empty = mapPost({ ...post, mc_comment: '  ', mc_type: 1, mc_user_id: 9 }, known, NOW);
    assert.ok(empty.ok && empty.row.mod_comment === undefined);
  });
  it('keeps a watch only when user and topic were imported', () => {
    assert.equal(mapWatch({ topic_id: 5, user_id: 2 }, { topics: ids(5), users: ids(2) }, NOW).ok, true);
    assert.equal(mapWatch({ topic_id: 5, user_id: 3 }, { topics: ids(5), users: ids(2) }, NOW).ok, false);
  });
});

describe('mapMessage', () => {
  const message = (type: number, from = 2, to = 3, text: string | null = 'Hi &amp; bye'): UpstreamMessage => ({
    privmsgs_id: 9,
    privmsgs_type: type,
    privmsgs_subject: 'Tom &amp; Jerry',
    privmsgs_from_userid: from,
    privmsgs_to_userid: to,
    privmsgs_date: 1_600_000_000,
    privmsgs_text: text,
  });
  const sides = (mapped: ReturnType<typeof mapMessage>) => {
    assert.ok(mapped.ok);
    return { sender: mapped.row.sender_deleted_at === null, recipient: mapped.row.recipient_deleted_at === null, read: mapped.row.read_at !== null };
  };

  it('decodes subject and text and keeps the id', () => {
    const mapped = mapMessage(message(PM_TYPE.NEW), ids(2, 3), NOW);
    assert.ok(mapped.ok);
    assert.equal(mapped.row.id, 9);
    assert.equal(mapped.row.subject, 'Tom & Jerry');
    assert.equal(mapped.row.body, 'Hi & bye');
    assert.equal(mapped.row.created_at, '2020-09-13T12:26:40.000Z');
  });

  it('gives each mailbox type its sides: unread rows are in both folders, read ones wait for their SENT copy', () => {
    const users = ids(2, 3);
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.NEW), users, NOW)), { sender: true, recipient: true, read: false });
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.UNREAD), users, NOW)), { sender: true, recipient: true, read: false });
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.READ), users, NOW)), { sender: false, recipient: true, read: true });
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.SAVED_IN), users, NOW)), { sender: false, recipient: true, read: true });
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.SENT), users, NOW)), { sender: true, recipient: false, read: true });
    assert.deepEqual(sides(mapMessage(message(PM_TYPE.SAVED_OUT), users, NOW)), { sender: true, recipient: false, read: true });
  });

  it('drops members who were not imported, and skips what nobody would keep', () => {
    const fromGone = mapMessage(message(PM_TYPE.NEW, 99, 3), ids(3), NOW);
    assert.ok(fromGone.ok && fromGone.row.sender_id === null && fromGone.row.recipient_id === 3);
    assert.deepEqual(mapMessage(message(PM_TYPE.SENT, 2, 3), ids(3), NOW), { ok: false, reason: NOBODY_KEEPS_REASON });
    assert.deepEqual(mapMessage(message(PM_TYPE.NEW, 98, 99), ids(3), NOW), { ok: false, reason: NOBODY_KEEPS_REASON });
    // A read message to a member who is gone may still be its sender's, if pass 2 finds the SENT copy.
    assert.equal(mapMessage(message(PM_TYPE.READ, 2, 99), ids(2), NOW).ok, true);
    assert.deepEqual(mapMessage(message(PM_TYPE.NEW, 2, 3, null), ids(2, 3), NOW), { ok: false, reason: NO_TEXT_REASON });
    assert.equal(mapMessage(message(7), ids(2, 3), NOW).ok, false);
  });
});

describe('torrents', () => {
  it('maps every tor_status to a distinct status of ours and tor_type to freeleech', () => {
    assert.deepEqual(new Set(Object.values(STATUS_BY_CODE)), new Set(TORRENT_STATUSES));
    assert.deepEqual([0, 1, 2].map(freeleechOf), ['none', 'gold', 'silver']);
  });
  it('finds the stored file where each version keeps it, never outside the upload folder', () => {
    const row = { topic_id: 123_456, physical_filename: '../../etc/passwd' } as UpstreamTorrent;
    assert.equal(torrentFilePath('3.0', '', row), 'storage/app/private/uploads/12/56/123456.torrent');
    assert.equal(torrentFilePath('2.4', 'data/uploads', row), 'data/uploads/passwd');
    assert.equal(torrentFilePath('2.4', 'data/uploads', { ...row, physical_filename: null }), null);
  });
  it('recognises the 2.x right-trimmed hash, an absent one and a different one', () => {
    const full = Buffer.from('00112233445566778899aabbccddeeff00112020', 'hex');
    full[19] = 0x20;
    full[18] = 0x20;
    assert.equal(compareStoredHash(full, full.toString('hex')), 'same');
    assert.equal(compareStoredHash(full.subarray(0, 18), full.toString('hex')), 'repaired');
    assert.equal(compareStoredHash(Buffer.alloc(0), full.toString('hex')), 'absent');
    assert.equal(compareStoredHash(null, null), 'absent');
    assert.equal(compareStoredHash(Buffer.from('ff', 'hex'), full.toString('hex')), 'differs');
  });
  it('keeps the file byte for byte with hashes of its own info dictionary; refuses a broken file with the reason', () => {
    const bytes = makeTorrent({ version: 'hybrid', info: { private: 0 } });
    const row: UpstreamTorrent = {
      topic_id: 4,
      poster_id: 2,
      info_hash: null,
      info_hash_v2: null,
      attach_id: 77,
      reg_time: 1_600_000_000,
      complete_count: 3,
      tor_status: 2,
      checked_user_id: 0,
      checked_time: 0,
      tor_type: 1,
      physical_filename: 'x',
    };
    const m = mapTorrent(row, { ok: true, bytes }, { topics: ids(4), users: ids(2) }, NOW);
    assert.ok(m.ok);
    assert.deepEqual(m.row.torrent.metainfo, bytes);
    assert.equal(m.row.torrent.id, 4);
    assert.equal(m.row.torrent.status, 'checked');
    assert.equal(m.row.torrent.freeleech, 'gold');
    assert.equal(m.row.attachId, 77);
    assert.equal(m.row.statusChange.changed_by, 2);
    assert.equal(m.notes.length, 2, 'both hashes taken from the file');
    const broken = mapTorrent(row, { ok: true, bytes: Buffer.from('d4:infoi1ee') }, { topics: ids(4), users: ids() }, NOW);
    assert.ok(!broken.ok);
    assert.match(broken.reason, /refused: The \.torrent file has no info dictionary/);
    assert.equal(mapTorrent(row, { ok: false, reason: 'missing' }, { topics: ids(4), users: ids() }, NOW).ok, false);
    assert.equal(mapTorrent({ ...row, topic_id: 5 }, { ok: true, bytes }, { topics: ids(4), users: ids() }, NOW).ok, false);
  });
});

describe('avatars', () => {
  it('finds the file where get_avatar_path() puts it: {floor(id/10000)}/{id%100}/{id}.{ext}', () => {
    assert.equal(avatarFilePath('2.4', 123_456, 4), '12/56/123456.png');
    assert.equal(avatarFilePath('2.4', 7, 3), '0/7/7.jpg');
    assert.equal(avatarFilePath('3.0', 10_001, 12), '1/1/10001.webp');
    // An extension id the version's map lacks names the file without one, as upstream does (14 is 3.0's m3u).
    assert.equal(avatarFilePath('2.4', 7, 14), '0/7/7');
    assert.equal(avatarFilePath('3.0', 7, 14), '0/7/7.m3u');
    assert.equal(avatarFilePath('2.4', 7, 99), '0/7/7');
  });
  it('leaves behind the avatar of a member not imported or forbidden one by an admin (dis_avatar)', () => {
    assert.deepEqual(mapAvatar({ user_id: 7, avatar_ext_id: 4, user_opt: 1 << 6 }, '2.4', ids(7)), { ok: true, row: '0/7/7.png', notes: [] });
    assert.equal(mapAvatar({ user_id: 7, avatar_ext_id: 4, user_opt: 0 }, '2.4', ids(8)).ok, false);
    const forbidden = mapAvatar({ user_id: 7, avatar_ext_id: 4, user_opt: DIS_AVATAR }, '3.0', ids(7));
    assert.ok(!forbidden.ok && /dis_avatar/.test(forbidden.reason));
  });
});

describe('mapCensorWord', () => {
  it('makes whole-word replace rules: wildcard when the word has *, exact otherwise', () => {
    const exact = mapCensorWord({ word_id: 1, word: 'fool ', replacement: 'f**l' }, true);
    assert.ok(exact.ok);
    assert.equal(exact.row.pattern, 'fool');
    assert.equal(exact.row.pattern_type, 'exact');
    const wild = mapCensorWord({ word_id: 2, word: 'spam*', replacement: '' }, false);
    assert.ok(wild.ok);
    assert.equal(wild.row.pattern_type, 'wildcard');
    assert.equal(wild.row.is_active, false);
    assert.equal(mapCensorWord({ word_id: 3, word: '**', replacement: 'x' }, true).ok, false);
  });
});

describe('ImportReport', () => {
  it('groups skips by reason with a few example ids, and prints every table', () => {
    const report = new ImportReport();
    report.table('bb_empty');
    for (let id = 1; id <= 8; id++) {
      report.read('bb_posts');
      if (id % 2 === 0) report.skipped('bb_posts', 'orphan', id);
      else report.imported('bb_posts');
    }
    const [empty, posts] = report.tables();
    assert.deepEqual([empty!.read, empty!.imported, empty!.skipped], [0, 0, 0]);
    assert.deepEqual([posts!.read, posts!.imported, posts!.skipped], [8, 4, 4]);
    assert.match(report.format(), /bb_posts: 4 skipped: orphan \(id 2, 4, 6, 8\)/);
    report.withdrawn('bb_posts', 'taken out later', 1);
    const after = report.tables()[1]!;
    assert.deepEqual([after.read, after.imported, after.skipped], [8, 3, 5]);
  });
});
