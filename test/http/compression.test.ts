// Answers of 1 KB or more go out compressed when the client takes it (issue
// 33): br first, else gzip; smaller answers, images and .torrent files as
// they are; every compressed answer says Vary: accept-encoding.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { createUser, signIn } from '../helpers/auth.ts';

const keptBrotli = (size: number) => ({ [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: size });

describeEachDatabase('compressed answers', (db) => {
  let t: TestApp;
  let topicUrl: string;
  let topicId: number;

  before(async () => {
    t = await db.start();
    const author = await createUser(t);
    const forum = await createForum(t, 'Compressed forum');
    const topic = await createTopic(t, author, forum, 'A topic long enough to compress', 'Words '.repeat(400));
    topicId = topic.id;
    topicUrl = (await t.app.inject({ method: 'GET', url: `/api/topics/${topic.id}` })).json().data.url as string;
  });
  after(() => t.close());

  const get = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

  it('sends a page as br, or gzip, whichever the client takes, and the same page either way', async () => {
    const plain = await get(topicUrl);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await get(topicUrl, 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    const gzip = await get(topicUrl, 'gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    // The CSRF token and the request's own bits differ between views: compare what does not.
    const title = (body: string) => /<h1[^>]*>[\s\S]*?<\/h1>/.exec(body)?.[0];
    const brBody = brotliDecompressSync(br.rawPayload).toString();
    const gzipBody = gunzipSync(gzip.rawPayload).toString();
    assert.equal(title(brBody), title(plain.body));
    assert.equal(title(gzipBody), title(plain.body));
    assert.ok(brBody.length > 4000 && br.rawPayload.length < brBody.length / 3, `compressed ${brBody.length} → ${br.rawPayload.length} bytes`);
  });

  it('compresses JSON and feeds too, and a stylesheet', async () => {
    for (const url of [`/api/topics/${topicId}/posts`, '/feed.atom', '/assets/style.css']) {
      const response = await get(url, 'gzip');
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['content-encoding'], 'gzip', url);
      assert.ok(gunzipSync(response.rawPayload).length > 0, url);
    }
  });

  it('keeps the emoji catalog’s cached listing compressed once, and sends the same JSON either way', async () => {
    const admin = await signIn(t, 'admin');
    for (let n = 0; n < 20; n++) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/emoji/categories',
        headers: admin.headers,
        payload: { title: `Compressed category number ${n}`, display_order: n + 1 },
      });
      assert.equal(created.statusCode, 201, created.body);
    }
    const url = '/api/emoji/categories?with_emojis=1';
    const plain = await get(url);
    assert.ok(plain.rawPayload.length > 1024, `${plain.rawPayload.length} bytes`);
    for (const [accepted, expected, decode] of [
      ['br;q=1, gzip;q=0.5', 'br', brotliDecompressSync],
      ['gzip, br;q=0', 'gzip', gunzipSync],
    ] as const) {
      const first = await get(url, accepted);
      const again = await get(url, accepted);
      assert.equal(first.headers['content-encoding'], expected, accepted);
      assert.match(String(first.headers.vary), /accept-encoding/i);
      assert.deepEqual(JSON.parse(decode(first.rawPayload).toString()), plain.json(), accepted);
      assert.deepEqual(again.rawPayload, first.rawPayload, 'the kept form');
      // Made once at the kept bodies' ratio (brotli 9, gzip 9), not per request at the pages' (brotli 2, gzip 4).
      const once =
        expected === 'br' ? brotliCompressSync(plain.rawPayload, { params: keptBrotli(plain.rawPayload.length) }) : gzipSync(plain.rawPayload, { level: 9 });
      assert.deepEqual(first.rawPayload, once, `${expected} as kept`);
    }
  });

  it('leaves small answers and refused codings as they are', async () => {
    const hello = await get('/api/hello', 'gzip, br');
    assert.equal(hello.headers['content-encoding'], undefined, 'under 1 KB');
    assert.equal(hello.json().success, true);
    const identity = await get(topicUrl, 'identity');
    assert.equal(identity.headers['content-encoding'], undefined);
    const unknown = await get(topicUrl, 'compress');
    assert.equal(unknown.statusCode, 200);
    assert.equal(unknown.headers['content-encoding'], undefined);
  });
});
