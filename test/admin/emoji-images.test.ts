import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { SVG, png } from '../helpers/images.ts';
import { notice, postMultipart, signedInBrowser, type SignedInBrowser } from './helpers.ts';

describeEachDatabase('admin emoji images page', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  const stored = (kind: 'custom' | 'sprites') => readdirSync(join(t.config.uploadDir, kind));

  it('uploads an emoji image from the form and lists it with its URL', async () => {
    await admin.browser.get('/admin/emoji-images/');
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: png(20, 20), name: 'party.png', type: 'image/png' } });
    assert.equal(response.status, 303);
    assert.equal(response.location, '/admin/emoji-images/#custom');
    const [name] = stored('custom');
    const page = await admin.browser.get('/admin/emoji-images/');
    assert.deepEqual(notice(page.body), { kind: 'ok', text: `Image uploaded: /emojis/custom/${name} (20×20, ${png(20, 20).length} bytes).` });
    assert.match(page.body, new RegExp(`<img class="thumb" src="/emojis/custom/${name}" alt="Image ${name}"`));
    assert.match(page.body, new RegExp(`<td><code>/emojis/custom/${name}</code></td>`));
  });

  it('uploads a sprite sheet and lists it by the name sprite emojis use', async () => {
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/sprites/', { file: { bytes: png(64, 32), name: 'sheet.png', type: 'image/png' } });
    assert.equal(response.status, 303);
    const [name] = stored('sprites');
    const page = await admin.browser.get('/admin/emoji-images/');
    assert.match(page.body, new RegExp(`<td><code>${name}</code></td>`));
  });

  it('shows why a file is refused next to the file field, and stores nothing (422)', async () => {
    const before = stored('custom').length;
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: SVG, name: 'logo.svg', type: 'image/svg+xml' } });
    assert.equal(response.status, 422);
    assert.match(response.body, /<p class="field-error" id="upload-custom-file-error">SVG files are not accepted \(they can carry scripts\); upload a PNG, GIF, WebP or JPEG image\.<\/p>/);
    assert.match(response.body, /id="upload-custom-file" name="file" type="file"[^>]*aria-invalid="true"/);
    const empty = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: Buffer.alloc(0), name: '', type: 'application/octet-stream' } });
    assert.equal(empty.status, 422);
    assert.match(empty.body, /The file field is required\./);
    assert.equal(stored('custom').length, before);
  });

  it('refuses an upload form without the CSRF token', async () => {
    const before = stored('custom').length;
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { _csrf: 'forged-token-1234567890', file: { bytes: png(3, 3), name: 'x.png', type: 'image/png' } });
    assert.equal(response.status, 403);
    assert.equal(stored('custom').length, before);
  });

  it('is for admins only', async () => {
    const moderator = await signedInBrowser(t, 'moderator');
    assert.equal((await moderator.browser.get('/admin/emoji-images/')).status, 403);
    const response = await postMultipart(t, moderator.browser, '/admin/emoji-images/custom/', { file: { bytes: png(3, 3), name: 'x.png', type: 'image/png' } });
    assert.equal(response.status, 403);
  });
});
