// The forums' access rule on the tracker (docs/access.md, issue 28): lists,
// search and totals hold only torrents in forums the reader may read (in SQL:
// totals and pages agree); a torrent in a forum that does not exist for the
// reader is a 404, in one they see but may not read a 403; the .torrent,
// announce and scrape need `download` in the torrent's forum (nothing is
// accounted when refused), and a change of membership or levels applies on
// the next announce; registering a .torrent needs `upload`.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { BencodeDict } from '../../src/tracker/bencode.ts';
import type { ForumRow } from '../../src/forum/repository.ts';
import { forumPath, topicPath } from '../../src/urls/paths.ts';
import type { UserRow } from '../../src/users/repository.ts';
import type { TestApp } from '../helpers/app.ts';
import type { Browser } from '../helpers/browser.ts';
import { asAuthUser, createForum, createTopic, loggedIn } from '../helpers/forum.ts';
import { multipart } from '../helpers/images.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { announceUrl, closeTrackerApp, describeEachTrackerSetup, peerId, scrapeUrl, textOf, trackerGet } from '../helpers/tracker.ts';
import { TORRENTS_TOPIC } from '../../src/tracker/announce/directory.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

const OPEN = OPEN_LEVELS;
/** The team's forum: nobody else knows it exists. */
const TEAM_ONLY = { ...OPEN, view: 'private', read: 'private', post: 'private', reply: 'private', upload: 'private', download: 'private' } as const;
/** Everyone reads it; only the team registers and takes its torrents. */
const TEAM_DOWNLOADS = { ...OPEN, upload: 'private', download: 'private' } as const;
/** Everyone sees it listed; only the team reads it. */
const TEAM_READS = { ...OPEN, read: 'private', download: 'private' } as const;
const TEAM_ACTIONS = ['view', 'read', 'post', 'reply', 'upload', 'download'];

interface Person {
  user: UserRow;
  browser: Browser;
  headers: Record<string, string>;
  passkey: string;
}

interface Registered {
  id: number;
  topicId: number;
  title: string;
  hash: Buffer;
}

describeEachTrackerSetup('the access rule on the tracker', (setup) => {
  let t: TestApp;
  let admin: Person;
  let outsider: Person;
  let teammate: Person;
  let teamGroupId: number;
  let open: ForumRow;
  let team: ForumRow;
  let downloads: ForumRow;
  let reads: ForumRow;
  let inOpen: Registered;
  let inTeam: Registered;
  let inDownloads: Registered;
  let inReads: Registered;
  const word = randomBytes(3).toString('hex');

  async function person(role: 'user' | 'admin' = 'user'): Promise<Person> {
    const { user, browser } = await loggedIn(t, { role });
    const issued = await t.services.auth.issueToken(user);
    return { user, browser, headers: { authorization: `Bearer ${issued.token}` }, passkey: await t.services.tracker.passkeys.forUser(user.id) };
  }

  async function setPermissions(forumId: number, levels: Record<string, string>, grants: unknown[]): Promise<void> {
    const response = await t.app.inject({ method: 'PUT', url: `/api/forums/${forumId}/permissions`, headers: admin.headers, payload: { levels, grants } });
    assert.equal(response.statusCode, 200, response.body);
  }

  /** A torrent registered straight in the database on a new topic of `forum` (the upload's rules are tested below). */
  async function register(forum: ForumRow, label: string): Promise<Registered> {
    const title = `${label} ${word}`;
    const topic = await createTopic(t, admin.user, forum, title);
    const hash = createHash('sha1').update(randomBytes(16)).digest();
    const now = new Date().toISOString();
    const row = await t.database.db
      .insertInto('torrents')
      .values({
        topic_id: topic.id,
        uploader_id: admin.user.id,
        info_hash_v1: hash.toString('hex'),
        info_hash_v2: null,
        info_hash_v2_short: null,
        name: `${label.toLowerCase()}-${word}`,
        size: 1 << 20,
        piece_length: 262144,
        piece_count: 4,
        files_count: 1,
        creation_date: null,
        metainfo: Buffer.from('d4:infod4:name1:x12:piece lengthi262144e6:pieces0:ee'),
        status: 'checked',
        freeleech: 'none',
        registered_at: now,
        status_changed_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.changes.publish(TORRENTS_TOPIC);
    return { id: row.id, topicId: topic.id, title, hash };
  }

  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0' } });
    admin = await person('admin');
    outsider = await person();
    teammate = await person();
    const now = new Date(0).toISOString();
    teamGroupId = (
      await t.database.db
        .insertInto('user_groups')
        .values({ name: `Release team ${word}`, name_key: `release team ${word}`, type: 'closed', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: teamGroupId, user_id: teammate.user.id, role: 'member', status: 'accepted', created_at: now })
      .execute();
    open = await createForum(t, `Open releases ${word}`);
    team = await createForum(t, `Team room ${word}`);
    downloads = await createForum(t, `Team downloads ${word}`);
    reads = await createForum(t, `Team reading ${word}`);
    // Topics first (an admin posts anywhere), then the levels.
    inOpen = await register(open, 'Open');
    inTeam = await register(team, 'Secret');
    inDownloads = await register(downloads, 'Guarded');
    inReads = await register(reads, 'Unreadable');
    const grant = [{ group_id: teamGroupId, actions: TEAM_ACTIONS, moderate: false }];
    await setPermissions(team.id, TEAM_ONLY, grant);
    await setPermissions(downloads.id, TEAM_DOWNLOADS, grant);
    await setPermissions(reads.id, TEAM_READS, grant);
  });
  after(() => closeTrackerApp(t));

  const api = (who: Person | null, url: string) => t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const listed = async (who: Person | null, query: string): Promise<{ ids: number[]; total: number }> => {
    const response = await api(who, `/api/torrents?search=${word}&per_page=50${query}`);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    return { ids: (body.data as Array<{ id: number }>).map((row) => row.id).sort((a, b) => a - b), total: body.meta.total };
  };
  const ids = (...torrents: Registered[]) => torrents.map((torrent) => torrent.id).sort((a, b) => a - b);

  it('lists, searches and counts only torrents in forums the reader may read, however sorted or filtered', async () => {
    const readable = new Map<string, [Person | null, number[]]>([
      ['guest', [null, ids(inOpen, inDownloads)]],
      ['outsider', [outsider, ids(inOpen, inDownloads)]],
      ['teammate', [teammate, ids(inOpen, inTeam, inDownloads, inReads)]],
      ['admin', [admin, ids(inOpen, inTeam, inDownloads, inReads)]],
    ]);
    for (const [name, [who, expected]] of readable) {
      for (const sort of ['', '&sort=seeders', '&sort=name&order=asc', '&min_seeders=0']) {
        assert.deepEqual(await listed(who, sort), { ids: expected, total: expected.length }, `${name}${sort}`);
      }
    }
    // A forum filter naming a forum one may not read finds nothing, and says nothing else.
    for (const forum of [team, reads]) {
      assert.deepEqual(await listed(outsider, `&forum=${forum.id}`), { ids: [], total: 0 });
      assert.deepEqual(await listed(teammate, `&forum=${forum.id}`), { ids: ids(forum === team ? inTeam : inReads), total: 1 });
    }
    // A page of one: the total counts only what may be read, so paging ends where the rows do.
    const first = await api(outsider, `/api/torrents?search=${word}&per_page=1`);
    assert.equal(first.json().meta.total, 2);
    assert.equal(first.json().meta.total_pages, 2);
  });

  it('follows a topic moved into a closed forum and back, in the list, its count and the forum filter', async () => {
    const move = async (forum: ForumRow) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/topics/${inOpen.topicId}/move`,
        headers: admin.headers,
        payload: { forum_id: forum.id },
      });
      assert.equal(response.statusCode, 200, response.body);
    };
    await move(team);
    try {
      assert.deepEqual(await listed(outsider, ''), { ids: ids(inDownloads), total: 1 });
      assert.deepEqual(await listed(null, ''), { ids: ids(inDownloads), total: 1 });
      assert.deepEqual(await listed(teammate, `&forum=${team.id}`), { ids: ids(inOpen, inTeam), total: 2 });
      assert.deepEqual(await listed(teammate, `&forum=${open.id}`), { ids: [], total: 0 });
    } finally {
      await move(open);
    }
    assert.deepEqual(await listed(outsider, ''), { ids: ids(inOpen, inDownloads), total: 2 });
    assert.deepEqual(await listed(teammate, `&forum=${open.id}`), { ids: ids(inOpen), total: 1 });
  });

  it('shows /tracker/ with the same rows and count', async () => {
    const outsiderPage = await outsider.browser.get(`/tracker/?search=${word}`);
    assert.equal(outsiderPage.status, 200);
    for (const torrent of [inOpen, inDownloads]) assert.ok(outsiderPage.body.includes(topicPath({ id: torrent.topicId, title: torrent.title })));
    for (const name of ['secret', 'unreadable']) assert.ok(!outsiderPage.body.includes(`${name}-${word}`), name);
    assert.ok(!outsiderPage.body.includes(`Team room ${word}`), 'the team forum is not even an option of the forum filter');
    const teammatePage = await teammate.browser.get(`/tracker/?search=${word}`);
    for (const name of ['open', 'secret', 'guarded', 'unreadable']) assert.ok(teammatePage.body.includes(`>${name}-${word}<`), name);
    assert.match(outsiderPage.body, /\b2\b[^<]*torrent/i);
    assert.match(teammatePage.body, /\b4\b[^<]*torrent/i);
  });

  it('answers 404 for a torrent in a forum the reader cannot view, 403 in one they view but cannot read', async () => {
    for (const who of [null, outsider]) {
      assert.equal((await api(who, `/api/torrents/${inTeam.id}`)).statusCode, 404);
      assert.equal((await api(who, `/api/torrents/${inReads.id}`)).statusCode, 403);
      assert.equal((await api(who, `/api/torrents/${inDownloads.id}`)).statusCode, 200);
    }
    const notFound = await api(outsider, `/api/torrents/${inTeam.id}`);
    assert.equal(notFound.json().message, `No query results for model [Torrent] ${inTeam.id}.`);
    for (const torrent of [inTeam, inReads]) assert.equal((await api(teammate, `/api/torrents/${torrent.id}`)).statusCode, 200);
  });

  it('gives the .torrent only with `download` in its forum: 403 where the forum is seen, 404 where it is not', async () => {
    const download = (who: Person, torrent: Registered) => api(who, `/api/torrents/${torrent.id}/download`);
    assert.equal((await download(outsider, inDownloads)).statusCode, 403);
    assert.equal((await download(outsider, inDownloads)).json().error.code, 'FORBIDDEN');
    assert.equal((await download(outsider, inTeam)).statusCode, 404);
    assert.equal((await outsider.browser.get(`/tracker/download/${inDownloads.id}/`)).status, 403);
    assert.equal((await outsider.browser.get(`/tracker/download/${inTeam.id}/`)).status, 404);
    assert.equal((await download(outsider, inOpen)).statusCode, 200);
    for (const torrent of [inDownloads, inTeam, inReads]) assert.equal((await download(teammate, torrent)).statusCode, 200, torrent.title);
    const refused = await t.database.db.selectFrom('torrent_downloads').select('id').where('user_id', '=', outsider.user.id).execute();
    assert.equal(refused.length, 1, 'only the open torrent counts towards the daily limit');
  });

  it('shows the download link and magnet only where the reader may download', async () => {
    const path = topicPath({ id: inDownloads.topicId, title: inDownloads.title });
    const outsiderPage = await outsider.browser.get(path);
    assert.equal(outsiderPage.status, 200);
    assert.ok(outsiderPage.body.includes(`guarded-${word}`), 'the torrent block is there');
    assert.ok(!outsiderPage.body.includes(`/tracker/download/${inDownloads.id}/`));
    assert.ok(!outsiderPage.body.includes(outsider.passkey), 'no magnet with the passkey either');
    const teammatePage = await teammate.browser.get(path);
    assert.ok(teammatePage.body.includes(`/tracker/download/${inDownloads.id}/`));
    const openPage = await outsider.browser.get(topicPath({ id: inOpen.topicId, title: inOpen.title }));
    assert.ok(openPage.body.includes(`/tracker/download/${inOpen.id}/`));
  });

  async function announce(who: Person, torrent: Registered, peer = peerId()): Promise<string | undefined> {
    const url = announceUrl({ passkey: who.passkey, infoHash: torrent.hash, peerId: peer, left: 1000, uploaded: 5000, downloaded: 7000, event: 'started' });
    const response = await trackerGet(t, url);
    assert.equal(response.status, 200);
    return textOf(response.body.get('failure reason'));
  }
  const peersOf = async (torrent: Registered) => (await t.services.tracker.swarm.counts([torrent.id], Date.now()))[0]!;
  async function accounted(who: Person): Promise<{ stats: number; torrents: number }> {
    await t.services.tracker.accounting.flush();
    const stats = await t.database.db.selectFrom('tracker_user_stats').select('user_id').where('user_id', '=', who.user.id).execute();
    const torrents = await t.database.db.selectFrom('tracker_user_torrents').select('user_id').where('user_id', '=', who.user.id).execute();
    return { stats: stats.length, torrents: torrents.length };
  }

  it('refuses announces without `download` in the forum, storing and crediting nothing', async () => {
    const stranger = await person();
    assert.equal(await announce(stranger, inDownloads), 'Downloading torrents in this forum needs a right you do not have.');
    // A forum that does not exist for the owner: as an unknown torrent.
    assert.equal(await announce(stranger, inTeam), 'Torrent not registered with this tracker.');
    assert.equal(await announce(stranger, inReads), 'Downloading torrents in this forum needs a right you do not have.');
    for (const torrent of [inDownloads, inTeam, inReads]) assert.deepEqual(await peersOf(torrent), { complete: 0, incomplete: 0 });
    assert.deepEqual(await accounted(stranger), { stats: 0, torrents: 0 });

    const member = await person();
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: teamGroupId, user_id: member.user.id, role: 'member', status: 'accepted', created_at: new Date(0).toISOString() })
      .execute();
    assert.equal(await announce(member, inDownloads), undefined);
    assert.equal(await announce(member, inTeam), undefined);
    assert.deepEqual(await peersOf(inDownloads), { complete: 0, incomplete: 1 });
  });

  it('leaves such torrents out of scrape, as unknown hashes', async () => {
    const files = async (who: Person) => {
      const response = await trackerGet(t, scrapeUrl(who.passkey, [inOpen.hash, inTeam.hash, inDownloads.hash, inReads.hash]));
      return new Set((response.body.get('files') as BencodeDict).keys());
    };
    assert.deepEqual(await files(outsider), new Set([inOpen.hash.toString('latin1')]));
    assert.deepEqual(await files(teammate), new Set([inOpen, inTeam, inDownloads, inReads].map((torrent) => torrent.hash.toString('latin1'))));
  });

  it('applies a change of membership, grants or levels on the next announce', async () => {
    const joiner = await person();
    // Cached: the joiner's facts are read now, refused.
    assert.match((await announce(joiner, inDownloads)) ?? '', /needs a right/);
    const now = new Date(0).toISOString();
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: teamGroupId, user_id: joiner.user.id, role: 'member', status: 'accepted', created_at: now })
      .execute();
    assert.equal(await announce(joiner, inDownloads), undefined, 'accepted into the group');
    await t.database.db.deleteFrom('group_members').where('group_id', '=', teamGroupId).where('user_id', '=', joiner.user.id).execute();
    assert.match((await announce(joiner, inDownloads)) ?? '', /needs a right/, 'left the group');
    // A grant to the member alone, through the admin API.
    await setPermissions(downloads.id, TEAM_DOWNLOADS, [
      { group_id: teamGroupId, actions: TEAM_ACTIONS, moderate: false },
      { user_id: joiner.user.id, actions: ['download'], moderate: false },
    ]);
    assert.equal(await announce(joiner, inDownloads), undefined, 'granted download');
    // Levels: downloads closed to everyone but moderators, then opened to members.
    await setPermissions(downloads.id, { ...TEAM_DOWNLOADS, download: 'moderators' }, []);
    assert.match((await announce(joiner, inDownloads)) ?? '', /needs a right/, 'moderators only');
    assert.match((await announce(teammate, inDownloads)) ?? '', /needs a right/, 'the team too');
    await setPermissions(downloads.id, { ...TEAM_DOWNLOADS, download: 'members' }, []);
    assert.equal(await announce(outsider, inDownloads), undefined, 'open to members');
    await setPermissions(downloads.id, TEAM_DOWNLOADS, [{ group_id: teamGroupId, actions: TEAM_ACTIONS, moderate: false }]);
  });

  async function uploadTo(who: Person, topicId: number) {
    const body = await multipart({
      topic_id: String(topicId),
      file: { bytes: makeTorrent({ name: `Upload ${randomBytes(4).toString('hex')}` }), name: 'x.torrent', type: 'application/x-bittorrent' },
    });
    return t.app.inject({ method: 'POST', url: '/api/torrents', payload: body.payload, headers: { ...body.headers, ...who.headers } });
  }

  it('registers a .torrent only with `upload` in the topic’s forum', async () => {
    // The outsider's own topic in the forum whose uploads are the team's (they may post there).
    const own = await t.services.forum.createTopic(asAuthUser(outsider.user), { forum_id: downloads.id, title: `Outsider topic ${word}`, body: 'Mine.' });
    const refused = await uploadTo(outsider, own.id);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().error.code, 'FORBIDDEN');
    assert.equal((await outsider.browser.get(`/tracker/upload/?topic=${own.id}`)).status, 403);
    assert.equal((await outsider.browser.get(`/tracker/upload/?forum=${downloads.id}`)).status, 403);
    assert.equal((await outsider.browser.get(`/tracker/upload/?forum=${team.id}`)).status, 404);
    // A topic in a forum that does not exist for them is an unknown topic.
    const hidden = await uploadTo(outsider, inTeam.topicId);
    assert.equal(hidden.statusCode, 422, hidden.body);
    assert.ok(hidden.json().errors.topic_id);

    // The forum page offers the release link ("new topic with a .torrent") only to those who may upload.
    const uploadLink = `/tracker/upload/?forum=${downloads.id}`;
    const forumPage = async (who: Person) => {
      const page = await who.browser.get(forumPath(downloads));
      assert.equal(page.status, 200);
      return page.body;
    };
    assert.ok(!(await forumPage(outsider)).includes(uploadLink), 'no release link without `upload`');
    assert.ok((await forumPage(teammate)).includes(uploadLink), 'the release link for those granted it');

    const theirs = await t.services.forum.createTopic(asAuthUser(teammate.user), { forum_id: downloads.id, title: `Team topic ${word}`, body: 'Ours.' });
    const accepted = await uploadTo(teammate, theirs.id);
    assert.equal(accepted.statusCode, 201, accepted.body);
    assert.equal((await uploadTo(outsider, (await createTopic(t, outsider.user, open, `Open topic ${word}`)).id)).statusCode, 201);
  });
});
