import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decode, decodeDocument, type BencodeDict } from '../../src/tracker/bencode.ts';
import { GIB } from '../../src/tracker/config.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { multipart } from '../helpers/images.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const BASE = 'https://tracker.example.org';

describeEachDatabase('torrents API', (db) => {
  let t: TestApp;
  let author: SignedIn;
  let other: SignedIn;
  let moderator: SignedIn;
  let forumId: number;

  before(async () => {
    t = await db.start({ env: { BASE_URL: BASE, TRACKER_DAILY_DOWNLOADS: '3' } });
    author = await signIn(t, 'user');
    other = await signIn(t, 'user');
    moderator = await signIn(t, 'moderator');
    forumId = (await createForum(t, 'Releases')).id;
  });
  after(() => t.close());

  async function topicOf(who: SignedIn, title = `Topic ${randomBytes(3).toString('hex')}`): Promise<number> {
    const row = { id: who.user.id, username: who.user.name, email: who.user.email, role: who.user.role } as UserRow;
    return (await createTopic(t, row, { id: forumId } as never, title)).id;
  }

  async function upload(who: SignedIn | null, topicId: number | string | undefined, file: Buffer | undefined) {
    const fields: Record<string, string | { bytes: Buffer; name: string; type: string }> = {};
    if (topicId !== undefined) fields['topic_id'] = String(topicId);
    if (file !== undefined) fields['file'] = { bytes: file, name: 'x.torrent', type: 'application/x-bittorrent' };
    const body = await multipart(fields);
    return t.app.inject({ method: 'POST', url: '/api/torrents', payload: body.payload, headers: { ...body.headers, ...(who?.headers ?? {}) } });
  }

  async function registered(who: SignedIn = author, file: Buffer = makeTorrent()): Promise<{ id: number; topicId: number; data: Record<string, unknown> }> {
    const topicId = await topicOf(who);
    const response = await upload(who, topicId, file);
    assert.equal(response.statusCode, 201, response.body);
    return { id: response.json().data.id, topicId, data: response.json().data };
  }

  const download = (who: SignedIn | null, id: number) => t.app.inject({ method: 'GET', url: `/api/torrents/${id}/download`, headers: who?.headers ?? {} });
  const patch = (who: SignedIn, id: number, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/torrents/${id}`, headers: who.headers, payload });

  describe('POST /api/torrents', () => {
    it("registers a .torrent on the author's own topic (201 with the torrent)", async () => {
      const topicId = await topicOf(author);
      const response = await upload(author, topicId, makeTorrent({ name: 'My Release', version: 'hybrid', files: randomBytes(50_000) }));
      assert.equal(response.statusCode, 201, response.body);
      const data = response.json().data;
      assert.equal(data.topic_id, topicId);
      assert.equal(data.name, 'My Release');
      assert.equal(data.size, 50_000);
      assert.match(data.info_hash_v1, /^[0-9a-f]{40}$/);
      assert.match(data.info_hash_v2, /^[0-9a-f]{64}$/);
      assert.equal(data.status, 'not_checked');
      assert.equal(data.freeleech, 'none');
      assert.deepEqual([data.seeders, data.leechers, data.completed], [0, 0, 0]);
      assert.equal(data.uploader.id, author.user.id);
      const stored = await t.database.db.selectFrom('torrents').select(['metainfo', 'info_hash_v2_short']).where('id', '=', data.id).executeTakeFirstOrThrow();
      assert.equal(stored.info_hash_v2_short, data.info_hash_v2.slice(0, 40));
      const torrent = decode(Buffer.from(stored.metainfo)) as BencodeDict;
      assert.equal(torrent.get('announce')!.toString(), `${BASE}/bt/announce.php`);
      assert.equal((torrent.get('info') as BencodeDict).get('private'), 1);
    });

    it('gives v2-only torrents a null v1 hash, v1-only a null v2 hash', async () => {
      assert.equal((await registered(author, makeTorrent({ version: 'v2' }))).data['info_hash_v1'], null);
      assert.equal((await registered(author, makeTorrent({ version: 'v1' }))).data['info_hash_v2'], null);
    });

    it("refuses guests (401) and someone else's topic (403)", async () => {
      const topicId = await topicOf(author);
      assert.equal((await upload(null, topicId, makeTorrent())).statusCode, 401);
      const response = await upload(other, topicId, makeTorrent());
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().error.code, 'FORBIDDEN');
    });

    it('lets a moderator attach to any topic and replace its torrent', async () => {
      const first = await registered(author);
      const response = await upload(moderator, first.topicId, makeTorrent({ name: 'Replacement' }));
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.json().data.name, 'Replacement');
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/torrents/${first.id}` })).statusCode, 404);
    });

    it('refuses a second torrent on a topic from its author (422 on topic_id)', async () => {
      const first = await registered(author);
      const response = await upload(author, first.topicId, makeTorrent());
      assert.equal(response.statusCode, 422);
      assert.match(response.json().errors.topic_id[0], /already has a torrent/);
    });

    it('refuses the same torrent twice, with a link to the topic that has it (422 on file)', async () => {
      const file = makeTorrent({ version: 'hybrid' });
      const first = await registered(author, file);
      const again = await upload(other, await topicOf(other), file);
      assert.equal(again.statusCode, 422);
      const topicUrl = `${BASE}${first.data['topic_url']}`;
      assert.equal(again.json().errors.file[0], `This torrent is already registered: ${topicUrl}`);
      // Our own rewritten copy (a user's download) is the same torrent too.
      const mine = await download(other, first.id);
      assert.equal((await upload(other, await topicOf(other), mine.rawPayload)).statusCode, 422);
    });

    it('registers exactly one of the same torrent uploaded twice at once (the other: 422)', async () => {
      const file = makeTorrent();
      const [a, b] = await Promise.all([upload(author, await topicOf(author), file), upload(other, await topicOf(other), file)]);
      assert.deepEqual([a.statusCode, b.statusCode].sort(), [201, 422]);
      const refused = a.statusCode === 422 ? a : b;
      assert.match(refused.json().errors.file[0], /already registered/);
    });

    it('refuses a v2-only torrent uploaded twice (compared by its v2 hash alone)', async () => {
      const file = makeTorrent({ version: 'v2' });
      await registered(author, file);
      const response = await upload(other, await topicOf(other), file);
      assert.equal(response.statusCode, 422);
      assert.match(response.json().errors.file[0], /already registered/);
    });

    it('refuses what is not a valid .torrent, saying why (422 on file), and writes nothing', async () => {
      const topicId = await topicOf(author);
      const cases: Array<[Buffer, RegExp]> = [
        [Buffer.from('hello world'), /not a valid \.torrent \(bencode\)/],
        [Buffer.from('d8:announce1:xe'), /no info dictionary/],
        [Buffer.from(`d4:info${'l'.repeat(500)}${'e'.repeat(500)}e`), /nesting deeper/],
        [makeTorrent({ version: 'v2', files: [{ path: ['..', 'x'], data: randomBytes(10) }] }), /is refused: a part is "\.\."/],
      ];
      for (const [file, message] of cases) {
        const response = await upload(author, topicId, file);
        assert.equal(response.statusCode, 422, response.body);
        assert.match(response.json().errors.file[0], message);
      }
      const count = await t.database.db
        .selectFrom('torrents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('topic_id', '=', topicId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    it('refuses a missing file, a missing or bad topic_id (422 on the field)', async () => {
      const topicId = await topicOf(author);
      assert.deepEqual(Object.keys((await upload(author, topicId, undefined)).json().errors), ['file']);
      assert.match((await upload(author, undefined, makeTorrent())).json().errors.topic_id[0], /required/);
      assert.match((await upload(author, 'abc', makeTorrent())).json().errors.topic_id[0], /positive integer/);
      assert.deepEqual(Object.keys((await upload(author, undefined, undefined)).json().errors).sort(), ['file', 'topic_id']);
      assert.match((await upload(author, 999999, makeTorrent())).json().errors.topic_id[0], /invalid/);
    });

    it('refuses a .torrent over the size limit (422 naming the limit)', async () => {
      const topicId = await topicOf(author);
      const big = makeTorrent({ top: { comment: 'x'.repeat(1024 * 1024) } });
      const response = await upload(author, topicId, big);
      assert.equal(response.statusCode, 422, response.body);
      assert.equal(response.json().errors.file[0], `The file is ${big.length.toLocaleString('en')} bytes, more than the limit of 1,048,576 bytes.`);
    });

    it('wants multipart/form-data (400 otherwise)', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/torrents', headers: author.headers, payload: { topic_id: 1 } });
      assert.equal(response.statusCode, 400);
    });
  });

  describe('GET /api/torrents/{id}', () => {
    it('shows a torrent with its files and status history; unknown ids are 404', async () => {
      const { id } = await registered(
        author,
        makeTorrent({
          name: 'Pack',
          files: [
            { path: ['a', 'one.bin'], data: randomBytes(100) },
            { path: ['two.bin'], data: randomBytes(50) },
          ],
        }),
      );
      const response = await t.app.inject({ method: 'GET', url: `/api/torrents/${id}` });
      assert.equal(response.statusCode, 200);
      const data = response.json().data;
      assert.deepEqual(data.files, [
        { path: 'a/one.bin', size: 100 },
        { path: 'two.bin', size: 50 },
      ]);
      assert.equal(data.files_count, 2);
      assert.deepEqual(
        data.status_history.map((change: { from: string | null; to: string }) => [change.from, change.to]),
        [[null, 'not_checked']],
      );
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/torrents/99999' })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/torrents/abc' })).statusCode, 404);
    });
  });

  describe('PATCH /api/torrents/{id}', () => {
    it('lets moderators set status and freeleech, recording who changed the status and when', async () => {
      const { id } = await registered();
      const response = await patch(moderator, id, { status: 'checked', freeleech: 'gold' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.status, 'checked');
      assert.equal(response.json().data.freeleech, 'gold');
      const history = (await t.app.inject({ method: 'GET', url: `/api/torrents/${id}` })).json().data.status_history;
      assert.deepEqual(history.at(-1).from, 'not_checked');
      assert.deepEqual(history.at(-1).to, 'checked');
      assert.deepEqual(history.at(-1).by, { id: moderator.user.id, name: moderator.user.name });
      // The same status again records nothing.
      await patch(moderator, id, { status: 'checked' });
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/torrents/${id}` })).json().data.status_history.length, 2);
    });

    it('refuses members (403), guests (401), unknown values and an empty body (422)', async () => {
      const { id } = await registered();
      assert.equal((await patch(author, id, { status: 'checked' })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/torrents/${id}`, payload: { status: 'checked' } })).statusCode, 401);
      const bad = await patch(moderator, id, { status: 'lost', freeleech: 'platinum' });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(Object.keys(bad.json().errors).sort(), ['freeleech', 'status']);
      assert.equal((await patch(moderator, id, {})).statusCode, 422);
    });
  });

  describe('DELETE /api/torrents/{id}', () => {
    it('lets the uploader remove their torrent while it is not frozen; the topic stays', async () => {
      const mine = await registered();
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/torrents/${mine.id}`, headers: other.headers })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/torrents/${mine.id}`, headers: author.headers })).statusCode, 204);
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/torrents/${mine.id}` })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/topics/${mine.topicId}` })).statusCode, 200);

      const frozen = await registered();
      await patch(moderator, frozen.id, { status: 'closed_by_right_holder' });
      const refused = await t.app.inject({ method: 'DELETE', url: `/api/torrents/${frozen.id}`, headers: author.headers });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /closed by the right holder/);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/torrents/${frozen.id}`, headers: moderator.headers })).statusCode, 204);
    });
  });

  describe('GET /api/torrents/{id}/download', () => {
    it("returns the stored .torrent with the user's passkey announce URL, the info hash unchanged", async () => {
      const { id, data } = await registered(author, makeTorrent({ name: 'Фильм: "best" cut', version: 'hybrid' }));
      const response = await download(other, id);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/x-bittorrent');
      assert.equal(
        response.headers['content-disposition'],
        `attachment; filename="______ _best_ cut.torrent"; filename*=UTF-8''${encodeURIComponent('Фильм_ _best_ cut.torrent')}`,
      );
      const passkey = await t.services.tracker.passkeys.current(other.user.id);
      assert.match(passkey!, /^[A-Za-z0-9]{20}$/);
      const torrent = decode(response.rawPayload) as BencodeDict;
      assert.equal(torrent.get('announce')!.toString(), `${BASE}/bt/announce.php?uk=${passkey}`);
      const span = decodeDocument(response.rawPayload).spans.get('info')!;
      const info = response.rawPayload.subarray(span.start, span.end);
      assert.equal(createHash('sha1').update(info).digest('hex'), data['info_hash_v1']);
      assert.equal(createHash('sha256').update(info).digest('hex'), data['info_hash_v2']);
    });

    it('is for signed-in users only (401)', async () => {
      const { id } = await registered();
      assert.equal((await download(null, id)).statusCode, 401);
    });

    it('is refused while the torrent is frozen (403 saying why), and allowed again after', async () => {
      const { id } = await registered();
      await patch(moderator, id, { status: 'duplicate' });
      const refused = await download(other, id);
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /duplicate: it cannot be downloaded/);
      await patch(moderator, id, { status: 'checked' });
      assert.equal((await download(other, id)).statusCode, 200);
    });

    it('is refused to a user below the ratio minimum after 10 GiB, for torrents they never took (403 saying why)', async () => {
      const leecher = await signIn(t, 'user');
      const taken = await registered();
      assert.equal((await download(leecher, taken.id)).statusCode, 200);
      await t.database.db
        .insertInto('tracker_user_stats')
        .values({ user_id: leecher.user.id, uploaded: 2 * GIB, downloaded: 20 * GIB, updated_at: new Date().toISOString() })
        .execute();
      const fresh = await registered();
      const refused = await download(leecher, fresh.id);
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /ratio is 0\.10, below the minimum of 0\.30/);
      // A torrent they already took stays downloadable (to seed it).
      assert.equal((await download(leecher, taken.id)).statusCode, 200);
      await t.database.db
        .updateTable('tracker_user_stats')
        .set({ uploaded: 6 * GIB })
        .where('user_id', '=', leecher.user.id)
        .execute();
      assert.equal((await download(leecher, fresh.id)).statusCode, 200);
    });

    it('stops at the daily limit of distinct torrents (429 with Retry-After); the same torrent again is free', async () => {
      const downloader = await signIn(t, 'user');
      const torrents = [await registered(), await registered(), await registered(), await registered()];
      for (const torrent of torrents.slice(0, 3)) assert.equal((await download(downloader, torrent.id)).statusCode, 200);
      assert.equal((await download(downloader, torrents[0]!.id)).statusCode, 200);
      const refused = await download(downloader, torrents[3]!.id);
      assert.equal(refused.statusCode, 429);
      assert.match(refused.json().message, /downloaded 3 \.torrent files in the last 24 hours, the daily limit/);
      const retry = Number(refused.headers['retry-after']);
      assert.ok(retry > 86_000 && retry <= 86_400, String(retry));
      // The window rolling over is tested on a moved clock (clock-rules.test.ts).
    });
  });

  describe('GET /api/torrents', () => {
    let listForum: number;
    const names = ['Alpha Linux ISO', 'Beta Linux Live', 'Gamma Music Pack'];
    let ids: number[] = [];

    before(async () => {
      listForum = (await createForum(t, 'Lists')).id;
      ids = [];
      for (const [index, name] of names.entries()) {
        const row = { id: author.user.id, username: author.user.name, email: author.user.email, role: author.user.role } as UserRow;
        const topic = await createTopic(t, row, { id: listForum } as never, `List ${name}`);
        const response = await upload(author, topic.id, makeTorrent({ name, files: randomBytes(1000 * (index + 1)) }));
        ids.push(response.json().data.id);
      }
    });

    const list = (query: string) => t.app.inject({ method: 'GET', url: `/api/torrents?${query}` });

    it('answers {success, data, meta: {current_page, per_page, total, total_pages}} exactly', async () => {
      const response = await list(`forum=${listForum}&per_page=2`);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['data', 'meta', 'success']);
      assert.equal(body.success, true);
      assert.deepEqual(body.meta, { current_page: 1, per_page: 2, total: 3, total_pages: 2 });
      assert.deepEqual(
        body.data.map((row: { id: number }) => row.id),
        [ids[2], ids[1]],
      );
      assert.equal(body.data[0].files, null);
      const second = (await list(`forum=${listForum}&per_page=2&page=2`)).json();
      assert.deepEqual(
        second.data.map((row: { id: number }) => row.id),
        [ids[0]],
      );
    });

    it('searches words in the name, any case, all words required', async () => {
      const body = (await list(`forum=${listForum}&search=${encodeURIComponent('linux  iso')}`)).json();
      assert.deepEqual(
        body.data.map((row: { name: string }) => row.name),
        ['Alpha Linux ISO'],
      );
      assert.equal((await list(`forum=${listForum}&search=LINUX`)).json().meta.total, 2);
      assert.equal((await list(`forum=${listForum}&search=${encodeURIComponent('100%_')}`)).json().meta.total, 0);
    });

    it('sorts by size, name and seeders, either way', async () => {
      assert.deepEqual(
        (await list(`forum=${listForum}&sort=size&order=asc`)).json().data.map((row: { id: number }) => row.id),
        ids,
      );
      assert.deepEqual(
        (await list(`forum=${listForum}&sort=name&order=desc`)).json().data.map((row: { name: string }) => row.name),
        [...names].reverse(),
      );
      const bySeeders = (await list(`forum=${listForum}&sort=seeders&order=asc`)).json();
      assert.equal(bySeeders.meta.total, 3);
      assert.deepEqual(
        bySeeders.data.map((row: { id: number }) => row.id),
        [...ids].sort((a, b) => a - b),
      );
    });

    it('filters by status and uploader', async () => {
      await patch(moderator, ids[0]!, { status: 'checked' });
      assert.deepEqual(
        (await list(`forum=${listForum}&status=checked`)).json().data.map((row: { id: number }) => row.id),
        [ids[0]],
      );
      assert.equal((await list(`forum=${listForum}&uploader=${author.user.id}`)).json().meta.total, 3);
      assert.equal((await list(`forum=${listForum}&uploader=${other.user.id}`)).json().meta.total, 0);
    });

    it('refuses bad parameters (422 on each)', async () => {
      const response = await list('sort=colour&order=up&status=lost&per_page=500');
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), ['order', 'per_page', 'sort', 'status']);
    });

    it('is described in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      for (const path of ['/api/torrents', '/api/torrents/{id}', '/api/torrents/{id}/download']) assert.ok(doc.paths[path], path);
      assert.ok(doc.paths['/api/torrents'].post.requestBody.content['multipart/form-data']);
      assert.ok(doc.paths['/api/torrents/{id}'].patch);
    });
  });
});
