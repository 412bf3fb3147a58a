// A torrent is exactly as visible as its topic (issue 26, item 3): a hidden
// topic's torrent is gone for everyone but its moderators, and nobody takes
// it (download, announce, scrape) while the topic is hidden or held for
// moderation, as with a frozen status. A duplicate upload's refusal names a
// topic only to an uploader who may read it.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createHash } from 'node:crypto';
import { decode, type BencodeDict } from '../../src/tracker/bencode.ts';
import type { TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createRule } from '../helpers/forum.ts';
import { multipart } from '../helpers/images.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { announceUrl, closeTrackerApp, describeEachTrackerSetup, peerId, scrapeUrl, textOf, trackerGet } from '../helpers/tracker.ts';

describeEachTrackerSetup("a torrent follows its topic's visibility", (setup) => {
  let t: TestApp;
  let author: SignedIn;
  let member: SignedIn;
  let moderator: SignedIn;
  let forumId: number;

  before(async () => {
    t = await setup.start();
    author = await signIn(t, 'user');
    member = await signIn(t, 'user');
    moderator = await signIn(t, 'moderator');
    forumId = (await createForum(t, 'Releases')).id;
  });
  after(() => closeTrackerApp(t));

  const send = (who: SignedIn | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });

  async function topicWithTorrent(title: string, file = makeTorrent()): Promise<{ topicId: number; torrentId: number; hash: Buffer }> {
    const topic = await send(author, 'POST', '/api/topics', { forum_id: forumId, title, body: 'The release.' });
    assert.equal(topic.statusCode, 201, topic.body);
    const topicId = topic.json().data.id as number;
    const torrentId = await upload(author, topicId, file);
    const row = await t.database.db.selectFrom('torrents').select('info_hash_v1').where('id', '=', torrentId).executeTakeFirstOrThrow();
    return { topicId, torrentId, hash: Buffer.from(row.info_hash_v1!, 'hex') };
  }

  async function upload(who: SignedIn, topicId: number, file: Buffer): Promise<number> {
    const response = await uploadResponse(who, topicId, file);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data.id;
  }

  async function uploadResponse(who: SignedIn, topicId: number, file: Buffer) {
    const body = await multipart({ topic_id: String(topicId), file: { bytes: file, name: 'x.torrent', type: 'application/x-bittorrent' } });
    return t.app.inject({ method: 'POST', url: '/api/torrents', payload: body.payload, headers: { ...body.headers, ...member.headers, ...who.headers } });
  }

  async function announced(hash: Buffer): Promise<string | undefined> {
    const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
    const { body } = await trackerGet(t, announceUrl({ passkey, infoHash: hash, peerId: peerId(), left: 1000, event: 'started' }));
    return textOf(body.get('failure reason'));
  }

  async function scraped(hash: Buffer): Promise<boolean> {
    const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
    const response = await t.app.inject({ method: 'GET', url: scrapeUrl(passkey, [hash]) });
    const files = (decode(response.rawPayload) as BencodeDict).get('files') as BencodeDict;
    return files.has(hash.toString('latin1'));
  }

  const listed = async (who: SignedIn | null, torrentId: number) =>
    ((await send(who, 'GET', '/api/torrents?per_page=100')).json().data as Array<{ id: number }>).some((row) => row.id === torrentId);

  it('hides a hidden topic’s torrent from everyone but moderators, and refuses it on every path until the topic is restored', async () => {
    const file = makeTorrent({ name: 'Hidden release' });
    const { topicId, torrentId, hash } = await topicWithTorrent('A release to be hidden', file);
    assert.equal(await announced(hash), undefined, 'announced before it is hidden');

    assert.equal((await send(moderator, 'POST', `/api/topics/${topicId}/hide`)).statusCode, 200);
    for (const who of [null, member, author]) {
      assert.equal((await send(who, 'GET', `/api/torrents/${torrentId}`)).statusCode, 404, `${who?.user.name ?? 'guest'} reads it`);
      assert.equal(await listed(who, torrentId), false, `${who?.user.name ?? 'guest'} sees it listed`);
    }
    for (const who of [member, author]) assert.equal((await send(who, 'GET', `/api/torrents/${torrentId}/download`)).statusCode, 404);
    assert.equal((await send(moderator, 'GET', `/api/torrents/${torrentId}`)).statusCode, 200, 'moderators see what they hid');
    const byModerator = await send(moderator, 'GET', `/api/torrents/${torrentId}/download`);
    assert.equal(byModerator.statusCode, 403);
    assert.match(byModerator.json().message, /hidden by a moderator/);
    assert.equal(await announced(hash), 'Torrent not registered with this tracker.', 'announce refused at once (the cache heard of it)');
    assert.equal(await scraped(hash), false, 'left out of scrape');

    // Uploading the same file elsewhere: refused, without naming the hidden topic.
    const other = await send(member, 'POST', '/api/topics', { forum_id: forumId, title: 'Somebody else’s topic', body: 'Same file.' });
    const duplicate = await uploadResponse(member, other.json().data.id, file);
    assert.equal(duplicate.statusCode, 422);
    assert.deepEqual(duplicate.json().errors, { file: ['This torrent is already registered on this tracker.'] });
    assert.doesNotMatch(duplicate.body, /hidden|topic\//);
    const byModeratorDuplicate = await uploadResponse(moderator, other.json().data.id, file);
    assert.match(byModeratorDuplicate.json().errors.file[0], /already registered: http.*\/topic\/a-release-to-be-hidden\./, 'a moderator is told where it is');

    assert.equal((await send(moderator, 'POST', `/api/topics/${topicId}/restore`)).statusCode, 200);
    assert.equal((await send(null, 'GET', `/api/torrents/${torrentId}`)).statusCode, 200);
    assert.equal((await send(member, 'GET', `/api/torrents/${torrentId}/download`)).statusCode, 200);
    assert.equal(await announced(hash), undefined, 'announced again once restored');
    assert.equal(await scraped(hash), true);
  });

  it('lets nobody take the torrent of a topic held for moderation, and frees it once the topic is approved', async () => {
    const word = `held${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 6)}`;
    await createRule(t, word, 'moderate', ['topics']);
    const topic = await send(author, 'POST', '/api/topics', { forum_id: forumId, title: `Release with ${word}`, body: 'The release.' });
    assert.equal(topic.statusCode, 201, topic.body);
    const topicId = topic.json().data.id as number;
    assert.equal(topic.json().data.status, 'pending');
    const torrentId = await upload(author, topicId, makeTorrent());
    const row = await t.database.db.selectFrom('torrents').select('info_hash_v1').where('id', '=', torrentId).executeTakeFirstOrThrow();
    const hash = Buffer.from(row.info_hash_v1!, 'hex');

    assert.equal((await send(null, 'GET', `/api/torrents/${torrentId}`)).statusCode, 404);
    assert.equal((await send(author, 'GET', `/api/torrents/${torrentId}`)).statusCode, 200, 'its author sees it');
    const byAuthor = await send(author, 'GET', `/api/torrents/${torrentId}/download`);
    assert.equal(byAuthor.statusCode, 403);
    assert.match(byAuthor.json().message, /awaits a moderator/);
    assert.equal(await announced(hash), 'Torrent not registered with this tracker.');
    assert.equal(await scraped(hash), false);
    for (const [who, seen] of [
      [null, false],
      [member, false],
      [author, true],
      [moderator, true],
    ] as const) {
      assert.equal(await listed(who, torrentId), seen, `${who?.user.name ?? 'guest'} sees it listed while held`);
    }

    const opening = await t.database.db.selectFrom('posts').select('id').where('topic_id', '=', topicId).orderBy('id').executeTakeFirstOrThrow();
    assert.equal((await send(moderator, 'POST', `/api/posts/${opening.id}/approve`)).statusCode, 200);
    assert.equal((await send(member, 'GET', `/api/torrents/${torrentId}/download`)).statusCode, 200);
    assert.equal(await announced(hash), undefined, 'announced once approved (the cache heard of it)');
    for (const who of [null, member]) assert.equal(await listed(who, torrentId), true, `${who?.user.name ?? 'guest'} sees it listed once approved`);
  });
});
