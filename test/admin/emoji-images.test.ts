import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { SVG, png } from '../helpers/images.ts';
import { makeEmoji } from '../helpers/emoji.ts';
import { fieldError, notice, postMultipart, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';

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
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', {
      file: { bytes: png(20, 20), name: 'party.png', type: 'image/png' },
    });
    assert.equal(response.status, 303);
    assert.equal(response.location, '/admin/emoji-images/#custom');
    const [name] = stored('custom');
    const page = await admin.browser.get('/admin/emoji-images/');
    assert.deepEqual(notice(page.body), { kind: 'ok', text: `Image uploaded: /emojis/custom/${name} (20×20, ${png(20, 20).length} bytes).` });
    assert.equal(dom(page).attr(`img.thumb[src="/emojis/custom/${name}"]`, 'alt'), `Image ${name}`);
    assert.ok(
      dom(page)
        .all('td > code:only-child')
        .some((code) => code.text === `/emojis/custom/${name}`),
      'the URL posts use',
    );
  });

  it('uploads a sprite sheet and lists it by the name sprite emojis use', async () => {
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/sprites/', {
      file: { bytes: png(64, 32), name: 'sheet.png', type: 'image/png' },
    });
    assert.equal(response.status, 303);
    const [name] = stored('sprites');
    const page = await admin.browser.get('/admin/emoji-images/');
    assert.ok(
      dom(page)
        .all('td > code:only-child')
        .some((code) => code.text === name),
      'the name sprite emojis use',
    );
  });

  it('shows why a file is refused next to the file field, and stores nothing (422)', async () => {
    const before = stored('custom').length;
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: SVG, name: 'logo.svg', type: 'image/svg+xml' } });
    assert.equal(response.status, 422);
    assert.equal(
      fieldError(response.body, 'upload-custom', 'file'),
      'SVG files are not accepted (they can carry scripts); upload a PNG, GIF, WebP or JPEG image.',
    );
    assert.equal(dom(response).attr('input#upload-custom-file[name="file"][type="file"]', 'aria-invalid'), 'true');
    const empty = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', {
      file: { bytes: Buffer.alloc(0), name: '', type: 'application/octet-stream' },
    });
    assert.equal(empty.status, 422);
    assert.match(dom(empty).textContent, /The file field is required\./);
    assert.equal(stored('custom').length, before);
  });

  it('refuses an upload form without the CSRF token', async () => {
    const before = stored('custom').length;
    const response = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', {
      _csrf: 'forged-token-1234567890',
      file: { bytes: png(3, 3), name: 'x.png', type: 'image/png' },
    });
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

describeEachDatabase('admin emoji images page: files in use', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  it('names the emojis using a file, offers a new emoji with it, and deletes only unused files (after asking)', async () => {
    const used = await t.services.images.save('custom', png(6, 6), { type: 'png', width: 6, height: 6 });
    const unused = await t.services.images.save('custom', png(7, 7), { type: 'png', width: 7, height: 7 });
    const sheet = await t.services.images.save('sprites', png(32, 16), { type: 'png', width: 32, height: 16 });
    const emoji = await makeEmoji(t, { emoji_text: null, image_url: used.url, emoji_shortcode: ':uses_file:' });
    await makeEmoji(t, {
      emoji_text: null,
      sprite_mode: true,
      sprite_params: { sheet: sheet.name, x: 0, y: 0, width: 16, height: 16 },
      emoji_shortcode: ':uses_sheet:',
    });

    const page = await admin.browser.get('/admin/emoji-images/');
    const usedRow = row(page.body, `custom-${used.name.replace(/\W/g, '-')}`)!;
    assert.equal(dom(usedRow).linkText(`/admin/emojis/${emoji.id}/`), ':uses_file:');
    assert.doesNotMatch(usedRow.text, /Delete/, 'no delete button for a file in use');
    assert.equal(dom(usedRow).count('form, button'), 0, 'no delete form for a file in use');
    assert.match(textOf(row(page.body, `sprites-${sheet.name.replace(/\W/g, '-')}`)!), /:uses_sheet:/);
    assert.ok(
      dom(row(page.body, `custom-${unused.name.replace(/\W/g, '-')}`)!).has(
        `a[href="/admin/emojis/new/?kind=image&image_url=${encodeURIComponent(unused.url)}"]`,
      ),
      'offers to make an emoji of the unused file',
    );

    const prefilled = await admin.browser.get(`/admin/emojis/new/?kind=image&image_url=${encodeURIComponent(unused.url)}`);
    const fields = dom(prefilled).fields('form:has(input[name="image_url"])');
    assert.equal(fields['image_url'], unused.url);
    assert.equal(fields['kind'], 'image');

    const refused = await admin.browser.post(`/admin/emoji-images/custom/${used.name}/delete/`, { confirmed: '1' });
    assert.equal(refused.status, 303);
    assert.deepEqual(notice((await admin.browser.get('/admin/emoji-images/')).body), {
      kind: 'error',
      text: `${used.name} is used by :uses_file:; change that emoji first.`,
    });
    assert.ok(stored(t, 'custom').includes(used.name));

    const asked = await admin.browser.post(`/admin/emoji-images/custom/${unused.name}/delete/`, {});
    assert.equal(asked.status, 200);
    assert.match(dom(asked).textContent, /No emoji uses it\./);
    assert.ok(stored(t, 'custom').includes(unused.name));
    assert.equal((await admin.browser.post(`/admin/emoji-images/custom/${unused.name}/delete/`, { confirmed: '1' })).status, 303);
    assert.ok(!stored(t, 'custom').includes(unused.name));
    assert.equal((await t.app.inject({ method: 'GET', url: unused.url })).statusCode, 404);
  });

  it('answers 404 for a file that is not there or a name that is not a plain file name', async () => {
    assert.equal((await admin.browser.post('/admin/emoji-images/custom/missing.png/delete/', { confirmed: '1' })).status, 404);
    assert.equal((await admin.browser.post('/admin/emoji-images/custom/..%2Fsprites%2Fx.png/delete/', { confirmed: '1' })).status, 404);
    assert.equal((await admin.browser.post('/admin/emoji-images/elsewhere/x.png/delete/', { confirmed: '1' })).status, 404);
  });
});

function stored(t: TestApp, kind: 'custom' | 'sprites'): string[] {
  return readdirSync(join(t.config.uploadDir, kind));
}
