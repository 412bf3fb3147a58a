import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { formatBytes } from '../../src/i18n/sizes.ts';
import { SVG, gif, jpeg, multipart, noisePng, png } from '../helpers/images.ts';

describeEachDatabase('emoji image uploads (POST /api/emoji/images, /api/emoji/sprite-sheets)', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
    moderator = await signIn(t, 'moderator');
  });
  after(() => t.close());

  async function upload(path: string, bytes: Buffer, who: SignedIn | null = admin, name = 'upload.png', type = 'image/png') {
    const body = await multipart({ file: { bytes, name, type } });
    return t.app.inject({ method: 'POST', url: path, payload: body.payload, headers: { ...body.headers, ...(who?.headers ?? {}) } });
  }

  describe('POST /api/emoji/images', () => {
    it('stores a PNG under a generated name and answers its URL, size and type (201)', async () => {
      const bytes = png(32, 24);
      const response = await upload('/api/emoji/images', bytes);
      assert.equal(response.statusCode, 201);
      const data = response.json().data;
      assert.match(data.url, /^\/emojis\/custom\/[0-9a-f]{32}\.png$/);
      assert.deepEqual(
        { ...data, url: undefined, name: undefined },
        { url: undefined, name: undefined, width: 32, height: 24, type: 'image/png', size: bytes.length },
      );
      assert.equal(data.url, `/emojis/custom/${data.name}`);
      assert.ok(existsSync(join(t.config.uploadDir, 'custom', data.name)));
    });

    it('serves the file with its real content type, cached for good, never sniffed', async () => {
      const bytes = gif(8, 8);
      const { url } = (await upload('/api/emoji/images', bytes, admin, 'looks-like.png', 'image/png')).json().data;
      assert.match(url, /\.gif$/, 'named by its content, not by the name or type sent');
      const served = await t.app.inject({ method: 'GET', url });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/gif');
      assert.match(String(served.headers['cache-control']), /max-age=31536000/);
      assert.match(String(served.headers['cache-control']), /immutable/);
      assert.equal(served.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(served.rawPayload, bytes);
    });

    it('stores the same file once: uploading it again gives the same URL', async () => {
      const bytes = png(5, 5, () => [0, 128, 0, 255]);
      const first = (await upload('/api/emoji/images', bytes)).json().data.url;
      const second = (await upload('/api/emoji/images', bytes)).json().data.url;
      assert.equal(first, second);
      assert.equal(readdirSync(join(t.config.uploadDir, 'custom')).filter((name) => name.startsWith('.')).length, 0, 'no temporary files left');
    });

    it('refuses bad files with a clear message on `file` (422) and stores nothing', async () => {
      const before = readdirSync(join(t.config.uploadDir, 'custom')).length;
      const noise = noisePng(300, 300);
      const cases: Array<[Buffer, string, string]> = [
        [SVG, 'SVG files are not accepted (they can carry scripts); upload a PNG, GIF, WebP or JPEG image.', 'image/svg+xml'],
        [png(600, 20), 'The emoji image must be at most 512×512 pixels (this one is 600×20).', 'image/png'],
        // Refused while it is read, naming its real size (http/multipart.ts).
        [noise, `The file is ${formatBytes(noise.length)}, more than the limit of 256 KiB.`, 'image/png'],
        [Buffer.from('MZ\x90\x00 not an image'), 'The file must be a PNG, GIF, WebP or JPEG image.', 'image/png'],
      ];
      for (const [bytes, message, type] of cases) {
        const response = await upload('/api/emoji/images', bytes, admin, 'file.png', type);
        assert.equal(response.statusCode, 422, message);
        assert.deepEqual(response.json().errors, { file: [message] });
      }
      const noFile = await multipart({ other: 'x' });
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/emoji/images',
        payload: noFile.payload,
        headers: { ...noFile.headers, ...admin.headers },
      });
      assert.equal(missing.statusCode, 422);
      assert.deepEqual(missing.json().errors, { file: ['The file field is required.'] });
      assert.equal(readdirSync(join(t.config.uploadDir, 'custom')).length, before);
    });

    it('wants multipart/form-data (400 otherwise)', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/emoji/images', payload: { file: 'abc' }, headers: admin.headers });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error.code, 'BAD_REQUEST');
    });

    it('takes multipart bodies only where files are uploaded, and only from signed-in callers', async () => {
      const body = await multipart({ title: 'x', file: { bytes: png(4, 4), name: 'x.png', type: 'image/png' } });
      const elsewhere = await t.app.inject({ method: 'POST', url: '/api/emoji/emojis', payload: body.payload, headers: { ...body.headers, ...admin.headers } });
      assert.equal(elsewhere.statusCode, 400);
      assert.equal(elsewhere.json().message, 'This address does not take file uploads.');
      const page = await t.app.inject({ method: 'POST', url: '/login/', payload: body.payload, headers: body.headers });
      assert.equal(page.statusCode, 400);
      const guest = await t.app.inject({ method: 'POST', url: '/api/emoji/images', payload: body.payload, headers: body.headers });
      assert.equal(guest.statusCode, 401);
    });

    it('is for admins: 401 for guests, 403 for moderators', async () => {
      assert.equal((await upload('/api/emoji/images', png(4, 4), null)).statusCode, 401);
      assert.equal((await upload('/api/emoji/images', png(4, 4), moderator)).statusCode, 403);
    });

    it('is documented in the OpenAPI description as a multipart upload', async () => {
      const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const operation = spec.paths['/api/emoji/images'].post;
      assert.ok(operation.requestBody.content['multipart/form-data']);
      assert.ok(operation.responses['201']);
    });
  });

  describe('POST /api/emoji/sprite-sheets', () => {
    it('takes larger sheets, served at /emojis/sprites/<name> (the path the forum renderer uses)', async () => {
      const sheet = noisePng(600, 600);
      assert.ok(sheet.length > 1024 * 1024);
      const response = await upload('/api/emoji/sprite-sheets', sheet);
      assert.equal(response.statusCode, 201);
      const data = response.json().data;
      assert.equal(data.url, `/emojis/sprites/${data.name}`);
      assert.deepEqual([data.width, data.height, data.size], [600, 600, sheet.length]);
      const served = await t.app.inject({ method: 'GET', url: data.url });
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/png');
    });

    it('refuses JPEG, and sheets over 2 MiB or 4096×4096', async () => {
      assert.deepEqual((await upload('/api/emoji/sprite-sheets', jpeg(64, 64))).json().errors, {
        file: ['The sprite sheet must be a PNG, GIF or WebP image (this is JPEG).'],
      });
      assert.deepEqual((await upload('/api/emoji/sprite-sheets', gif(5000, 16))).json().errors, {
        file: ['The sprite sheet must be at most 4096×4096 pixels (this one is 5000×16).'],
      });
      const sheet = noisePng(800, 800);
      const huge = await upload('/api/emoji/sprite-sheets', sheet);
      assert.equal(huge.statusCode, 422);
      assert.deepEqual(huge.json().errors, { file: [`The file is ${formatBytes(sheet.length)}, more than the limit of 2 MiB.`] });
    });
  });

  describe('serving', () => {
    it('answers 404 for unknown files and never lists or leaves the folder', async () => {
      for (const url of ['/emojis/custom/', '/emojis/custom/nope.png', '/emojis/custom/..%2F..%2Fpackage.json', '/emojis/sprites/%2e%2e/custom/x.png']) {
        const response = await t.app.inject({ method: 'GET', url });
        assert.ok([400, 403, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
        assert.ok(response.statusCode < 500);
        assert.doesNotMatch(response.body, /"name": "forum-backend"/);
      }
      assert.equal((await t.app.inject({ method: 'GET', url: '/emojis/sprites/missing.png' })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: '/assets/missing.css' })).statusCode, 404, 'a missing file is not a 405');
    });
  });
});
