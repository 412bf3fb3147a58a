import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { makeAlias, makeCategory, makeEmoji, uniqueCode } from '../helpers/emoji.ts';
import { SVG, png } from '../helpers/images.ts';
import { HTMX, fieldError, notice, postMultipart, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { HTMLElement } from 'node-html-parser';
import { dom, textOf } from '../helpers/dom.ts';

describeEachDatabase('admin emoji pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  const emojiByCode = async (code: string) => (await t.services.emoji.catalog.snapshot()).emojiByCode(code);
  const shortcodes = (body: string) =>
    dom(body)
      .all('td > code:only-child')
      .map((code) => code.text)
      .filter((text) => /^:.*:$/.test(text));

  describe('the list', () => {
    it('searches, filters by category (or none), sorts by column and pages', async () => {
      const faces = await makeCategory(t, { title: 'Faces list' });
      await makeEmoji(t, { emoji_shortcode: ':lst_b:', title: 'Alpha', display_order: 3, emoji_category_id: faces.id });
      await makeEmoji(t, { emoji_shortcode: ':lst_a:', title: 'Charlie', display_order: 2, emoji_category_id: faces.id });
      await makeEmoji(t, { emoji_shortcode: ':lst_c:', title: 'Bravo', display_order: 1 });

      assert.deepEqual(shortcodes((await admin.browser.get('/admin/emojis/?search=lst_')).body), [':lst_c:', ':lst_a:', ':lst_b:'], 'display order by default');
      assert.deepEqual(shortcodes((await admin.browser.get('/admin/emojis/?search=lst_&sort=title')).body), [':lst_b:', ':lst_c:', ':lst_a:']);
      assert.deepEqual(shortcodes((await admin.browser.get('/admin/emojis/?search=lst_&sort=shortcode&order=desc')).body), [':lst_c:', ':lst_b:', ':lst_a:']);
      assert.deepEqual(shortcodes((await admin.browser.get(`/admin/emojis/?search=lst_&category_id=${faces.id}`)).body), [':lst_a:', ':lst_b:']);
      assert.deepEqual(shortcodes((await admin.browser.get('/admin/emojis/?search=lst_&category_id=none')).body), [':lst_c:']);

      const second = await admin.browser.get('/admin/emojis/?search=lst_&sort=title&per_page=2&page=2');
      assert.deepEqual(shortcodes(second.body), [':lst_a:']);
      assert.match(dom(second).textContent, /Showing 3–3 of 3 emojis\./);
      const page = await admin.browser.get('/admin/emojis/?search=lst_&sort=title');
      const sorted = dom(page).one('th[scope="col"][aria-sort="ascending"]');
      assert.equal(dom(sorted).links()[0]?.href, '/admin/emojis/?search=lst_&sort=title&order=desc');
      assert.match(textOf(sorted), /^Title/);
      assert.ok(
        dom(row(page.body, `emoji-${(await emojiByCode(':lst_a:'))!.id}`)!)
          .texts('td')
          .includes('Faces list'),
        'the row shows the category',
      );
    });

    it('shows the API’s message for an unknown category (422)', async () => {
      const response = await admin.browser.get('/admin/emojis/?category_id=999999');
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The selected category id is invalid\./);
    });
  });

  describe('creating', () => {
    it('a Unicode emoji: stored through the service, then its edit page to add aliases', async () => {
      const category = await makeCategory(t, { title: 'Smileys' });
      const response = await admin.browser.post('/admin/emojis/', {
        title: 'Grinning',
        emoji_shortcode: ':grinning_new:',
        display_order: '4',
        emoji_category_id: String(category.id),
        kind: 'unicode',
        emoji_text: '😀',
        intent: 'save',
      });
      assert.equal(response.status, 303);
      const stored = (await emojiByCode(':grinning_new:'))!;
      assert.equal(response.location, `/admin/emojis/${stored.id}/`);
      assert.deepEqual(
        [stored.title, stored.emoji_text, stored.display_order, stored.emoji_category_id, stored.image_url],
        ['Grinning', '😀', 4, category.id, null],
      );
      const page = await admin.browser.get(response.location!);
      assert.deepEqual(notice(page.body), { kind: 'ok', text: 'Emoji :grinning_new: created. Add aliases below if it needs them.' });
      assert.ok(dom(page).has('section#aliases'));
    });

    it('shows the API’s and the service’s messages next to the fields, stores nothing (422)', async () => {
      await makeEmoji(t, { emoji_shortcode: ':taken_code:' });
      const before = (await t.services.emoji.emojis.list({}, { offset: 0, limit: 1 }, { category: false, aliases: false })).total;

      const shape = await admin.browser.post('/admin/emojis/', {
        title: ' ',
        emoji_shortcode: 'no colons',
        display_order: '-1',
        kind: 'unicode',
        emoji_text: '🙂',
        intent: 'save',
      });
      assert.equal(shape.status, 422);
      assert.equal(fieldError(shape.body, 'emoji', 'title'), 'The title field is required.');
      assert.equal(fieldError(shape.body, 'emoji', 'emoji_shortcode'), 'The emoji shortcode field format is invalid.');
      assert.equal(fieldError(shape.body, 'emoji', 'display_order'), 'The display order field must be at least 0.');
      assert.equal(dom(shape).attr('input[name="emoji_shortcode"][type="text"]', 'value'), 'no colons', 'what was typed is kept');

      const taken = await admin.browser.post('/admin/emojis/', {
        title: 'Twin',
        emoji_shortcode: ':taken_code:',
        display_order: '0',
        kind: 'unicode',
        emoji_text: '🙂',
        intent: 'save',
      });
      assert.equal(taken.status, 422);
      const viaApi = await t.app.inject({
        method: 'POST',
        url: '/api/emoji/emojis',
        headers: { authorization: `Bearer ${(await t.services.auth.issueToken(await t.services.users.get(admin.user.id))).token}` },
        payload: { title: 'Twin', emoji_shortcode: ':taken_code:', display_order: 0, emoji_text: '🙂' },
      });
      assert.equal(fieldError(taken.body, 'emoji', 'emoji_shortcode'), viaApi.json().errors.emoji_shortcode[0]);

      const sprite = await admin.browser.post('/admin/emojis/', {
        title: 'Half sprite',
        emoji_shortcode: uniqueCode('half'),
        display_order: '0',
        kind: 'sprite',
        'sprite_params.sheet': 'sheet.png',
        'sprite_params.x': '0',
        intent: 'save',
      });
      assert.equal(sprite.status, 422);
      assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-width'), 'The sprite params.width field is required when sprite mode is true.');
      assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-height'), 'The sprite params.height field is required when sprite mode is true.');
      assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-x'), undefined);

      const noKind = await admin.browser.post('/admin/emojis/', {
        title: 'Kindless',
        emoji_shortcode: uniqueCode('kindless'),
        display_order: '0',
        intent: 'save',
      });
      assert.equal(fieldError(noKind.body, 'emoji', 'kind'), 'Choose the kind of emoji: Unicode character, custom image or CSS sprite.');
      const empty = await admin.browser.post('/admin/emojis/', {
        title: 'Empty',
        emoji_shortcode: uniqueCode('empty'),
        display_order: '0',
        kind: 'unicode',
        emoji_text: '',
        intent: 'save',
      });
      assert.equal(fieldError(empty.body, 'emoji', 'emoji_text'), 'The emoji text field is required for a Unicode emoji.');

      assert.equal((await t.services.emoji.emojis.list({}, { offset: 0, limit: 1 }, { category: false, aliases: false })).total, before);
    });

    it('a sprite emoji from its sheet and rectangle', async () => {
      const response = await admin.browser.post('/admin/emojis/', {
        title: 'Sprite',
        emoji_shortcode: ':sprite_new:',
        display_order: '0',
        kind: 'sprite',
        'sprite_params.sheet': 'faces.png',
        'sprite_params.x': '32',
        'sprite_params.y': '16',
        'sprite_params.width': '16',
        'sprite_params.height': '16',
        emoji_text: 'ignored: not the chosen kind',
        intent: 'save',
      });
      assert.equal(response.status, 303);
      const stored = (await emojiByCode(':sprite_new:'))!;
      assert.deepEqual(
        [Boolean(stored.sprite_mode), stored.sprite_sheet, stored.sprite_x, stored.sprite_y, stored.sprite_width, stored.sprite_height, stored.emoji_text],
        [true, 'faces.png', 32, 16, 16, 16, null],
      );
    });

    it('an image emoji with the image uploaded in the same form (multipart, CSRF checked)', async () => {
      const bytes = png(24, 24, () => [0, 0, 255, 255]);
      const response = await postMultipart(t, admin.browser, '/admin/emojis/', {
        title: 'Blue',
        emoji_shortcode: ':blue_square:',
        display_order: '0',
        kind: 'image',
        image_url: '',
        intent: 'save',
        image_file: { bytes, name: 'blue.png', type: 'image/png' },
      });
      assert.equal(response.status, 303);
      const stored = (await emojiByCode(':blue_square:'))!;
      assert.match(stored.image_url ?? '', /^\/emojis\/custom\/[0-9a-f]{32}\.png$/);
      const served = await t.app.inject({ method: 'GET', url: stored.image_url! });
      assert.deepEqual(served.rawPayload, bytes);

      const forged = await postMultipart(t, admin.browser, '/admin/emojis/', {
        _csrf: 'forged-token-1234567890',
        title: 'Forged',
        emoji_shortcode: ':forged_img:',
        display_order: '0',
        kind: 'image',
        intent: 'save',
        image_file: { bytes, name: 'x.png', type: 'image/png' },
      });
      assert.equal(forged.status, 403);
      assert.equal(await emojiByCode(':forged_img:'), undefined);
    });

    it('refuses a bad image file next to the file field, storing neither file nor emoji', async () => {
      const files = readdirSync(join(t.config.uploadDir, 'custom')).length;
      const response = await postMultipart(t, admin.browser, '/admin/emojis/', {
        title: 'Vector',
        emoji_shortcode: ':vector_img:',
        display_order: '0',
        kind: 'image',
        image_url: '',
        intent: 'save',
        image_file: { bytes: SVG, name: 'v.svg', type: 'image/svg+xml' },
      });
      assert.equal(response.status, 422);
      assert.equal(
        fieldError(response.body, 'emoji', 'image_file'),
        'SVG files are not accepted (they can carry scripts); upload a PNG, GIF, WebP or JPEG image.',
      );
      assert.equal(fieldError(response.body, 'emoji', 'image_url'), undefined, 'one message about the image, not two');
      assert.equal(await emojiByCode(':vector_img:'), undefined);
      assert.equal(readdirSync(join(t.config.uploadDir, 'custom')).length, files);
    });

    it('keeps a good upload when another field is wrong: the URL is filled in for the next try', async () => {
      const response = await postMultipart(t, admin.browser, '/admin/emojis/', {
        title: '',
        emoji_shortcode: ':retry_img:',
        display_order: '0',
        kind: 'image',
        image_url: '',
        intent: 'save',
        image_file: { bytes: png(8, 8), name: 'r.png', type: 'image/png' },
      });
      assert.equal(response.status, 422);
      const url = /^\/emojis\/custom\/[0-9a-f]{32}\.png$/.exec(dom(response).attr('input[name="image_url"][type="text"]', 'value') ?? '')?.[0];

      assert.ok(url, 'the stored image is in the form');
      const retry = await admin.browser.post('/admin/emojis/', {
        title: 'Retried',
        emoji_shortcode: ':retry_img:',
        display_order: '0',
        kind: 'image',
        image_url: url,
        intent: 'save',
      });
      assert.equal(retry.status, 303);
      assert.equal((await emojiByCode(':retry_img:'))?.image_url, url);
    });
  });

  describe('previews', () => {
    it('draws the unsaved emoji as posts will (htmx fragment)', async () => {
      const sprite = await admin.browser.post(
        '/admin/emojis/preview/',
        {
          title: 'Cut',
          emoji_shortcode: ':cut:',
          kind: 'sprite',
          'sprite_params.sheet': 'faces.png',
          'sprite_params.x': '16',
          'sprite_params.y': '32',
          'sprite_params.width': '16',
          'sprite_params.height': '20',
        },
        HTMX,
      );
      assert.equal(sprite.status, 200);
      const drawn = dom(sprite).root.firstChild;
      assert.ok(drawn instanceof HTMLElement && drawn.tagName === 'SPAN', 'the fragment is the sprite');
      assert.deepEqual(drawn.attributes, {
        class: 'sprite',
        role: 'img',
        'aria-label': 'Cut',
        title: ':cut:',
        style: "width:16px;height:20px;background-image:url('/emojis/sprites/faces.png');background-position:-16px -32px",
      });
      assert.equal(drawn.text, '');
      const unicode = await admin.browser.post(
        '/admin/emojis/preview/',
        { title: 'Party', emoji_shortcode: ':party:', kind: 'unicode', emoji_text: '🎉' },
        HTMX,
      );
      const party = dom(unicode).one('span.emoji');
      assert.deepEqual(party.attributes, { class: 'emoji', role: 'img', 'aria-label': 'Party', title: ':party:' });
      assert.equal(party.text, '🎉');
      const incomplete = await admin.browser.post('/admin/emojis/preview/', { kind: 'sprite', 'sprite_params.sheet': 'faces.png' }, HTMX);
      assert.match(dom(incomplete).textContent, /Give the sheet, x, y, width and height/);
    });

    it('without JavaScript, the Preview button shows the form with the preview and saves nothing', async () => {
      const response = await admin.browser.post('/admin/emojis/', {
        title: 'Maybe',
        emoji_shortcode: ':maybe_later:',
        display_order: '0',
        kind: 'unicode',
        emoji_text: '🤔',
        intent: 'preview',
      });
      assert.equal(response.status, 200);
      const preview = dom(response).one('div.preview#emoji-preview > span.emoji:first-child');
      assert.deepEqual(preview.attributes, { class: 'emoji', role: 'img', 'aria-label': 'Maybe', title: ':maybe_later:' });
      assert.equal(preview.text, '🤔');
      assert.match(dom(response).textContent, /Not saved yet\./);
      assert.equal(await emojiByCode(':maybe_later:'), undefined);
    });
  });

  describe('editing', () => {
    it('fills the form and changes the kind: the other kind’s fields are cleared by the service', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':changing:', title: 'Changing', emoji_text: '🔁' });
      const form = await admin.browser.get(`/admin/emojis/${emoji.id}/`);
      assert.equal(dom(form).fields('form:has(input[name="emoji_text"])')['kind'], 'unicode');
      assert.equal(dom(form).attr('input[name="emoji_text"][type="text"]', 'value'), '🔁');
      const response = await admin.browser.post(`/admin/emojis/${emoji.id}/`, {
        title: 'Changed',
        emoji_shortcode: ':changing:',
        display_order: '9',
        emoji_category_id: '',
        kind: 'image',
        emoji_text: '🔁',
        image_url: 'https://cdn.example.test/changing.gif',
        intent: 'save',
      });
      assert.equal(response.status, 303);
      const stored = (await emojiByCode(':changing:'))!;
      assert.deepEqual(
        [stored.title, stored.display_order, stored.emoji_text, stored.image_url],
        ['Changed', 9, null, 'https://cdn.example.test/changing.gif'],
      );
    });

    it('clears the category when “No category” is chosen', async () => {
      const category = await makeCategory(t, { title: 'Leaving' });
      const emoji = await makeEmoji(t, { emoji_category_id: category.id });
      const response = await admin.browser.post(`/admin/emojis/${emoji.id}/`, {
        title: emoji.title,
        emoji_shortcode: emoji.emoji_shortcode,
        display_order: '0',
        emoji_category_id: '',
        kind: 'unicode',
        emoji_text: '🙂',
        intent: 'save',
      });
      assert.equal(response.status, 303);
      assert.equal((await t.services.emoji.emojis.find(emoji.id)).emoji_category_id, null);
    });
  });

  describe('aliases, inline', () => {
    it('adds an alias with htmx: the section comes back with it, and posts can use it', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':aliased:' });
      const response = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/`, { alias: ':also_aliased:' }, HTMX);
      assert.equal(response.status, 200);
      assert.ok(response.body.startsWith('<section id="aliases"'));
      assert.ok(
        dom(response)
          .all('li[id^="alias-"] > code:first-child')
          .some((code) => code.text === ':also_aliased:'),
        'listed as an alias',
      );
      assert.equal(dom(response).attr('input[name="alias"][type="text"]', 'value'), '', 'the field is emptied for the next one');
      assert.match(dom(response).textContent, /Alias :also_aliased: added to :aliased:\./);
      assert.equal((await emojiByCode(':also_aliased:'))?.id, emoji.id);
    });

    it('shows the API’s and the service’s refusals in the section (422) and adds nothing', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':refusing:' });
      const format = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/`, { alias: 'no-colons' }, HTMX);
      assert.equal(format.status, 422);
      assert.equal(fieldError(format.body, 'alias', 'alias'), 'The alias field format is invalid.');
      assert.equal(dom(format).attr('input[name="alias"][type="text"]', 'value'), 'no-colons');
      const taken = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/`, { alias: ':refusing:' }, HTMX);
      assert.equal(taken.status, 422);
      assert.match(fieldError(taken.body, 'alias', 'alias') ?? '', /taken/);
      assert.equal((await t.services.emoji.emojis.get(emoji.id)).aliases.length, 0);
    });

    it('works without JavaScript: back to the edit page, or the edit page with the message (422)', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':plain_alias:' });
      const added = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/`, { alias: ':plain_other:' });
      assert.equal(added.status, 303);
      assert.equal(added.location, `/admin/emojis/${emoji.id}/#aliases`);
      const refused = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/`, { alias: 'bad' });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).text('h1'), 'Edit :plain_alias:');
      assert.equal(fieldError(refused.body, 'alias', 'alias'), 'The alias field format is invalid.');
    });

    it('removes an alias inline, and only through its own emoji', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':losing:' });
      const alias = await makeAlias(t, emoji, ':lost_alias:');
      const other = await makeEmoji(t);
      assert.equal((await admin.browser.post(`/admin/emojis/${other.id}/aliases/${alias.id}/delete/`, {}, HTMX)).status, 404);
      const response = await admin.browser.post(`/admin/emojis/${emoji.id}/aliases/${alias.id}/delete/`, {}, HTMX);
      assert.equal(response.status, 200);
      assert.ok(
        !dom(response)
          .texts('code')
          .some((code) => code.endsWith(':lost_alias:')),
        'no longer listed',
      );

      assert.equal(await emojiByCode(':lost_alias:'), undefined);
    });
  });

  describe('deleting', () => {
    it('asks first, then deletes the emoji with its aliases', async () => {
      const emoji = await makeEmoji(t, { emoji_shortcode: ':doomed:' });
      await makeAlias(t, emoji, ':doomed_too:');
      const asked = await admin.browser.post(`/admin/emojis/${emoji.id}/delete/`, {});
      assert.equal(asked.status, 200);
      assert.match(dom(asked).textContent, /Delete the emoji :doomed: \(“Emoji”\) and its aliases :doomed_too:\?/);
      assert.ok(await emojiByCode(':doomed:'));
      const done = await admin.browser.post(`/admin/emojis/${emoji.id}/delete/`, { confirmed: '1' });
      assert.equal(done.status, 303);
      assert.equal(await emojiByCode(':doomed:'), undefined);
      assert.equal(await emojiByCode(':doomed_too:'), undefined);
    });
  });

  it('is for admins only: a moderator cannot open the editor or save (403)', async () => {
    const moderator = await signedInBrowser(t, 'moderator');
    const emoji = await makeEmoji(t);
    for (const url of ['/admin/emojis/', '/admin/emojis/new/', `/admin/emojis/${emoji.id}/`]) {
      const response = await moderator.browser.get(url);
      assert.equal(response.status, 403, url);
      assert.equal(dom(response).text('h1'), 'Forbidden');
    }
    const refused = await moderator.browser.post(`/admin/emojis/${emoji.id}/`, {
      title: 'Hijacked',
      emoji_shortcode: emoji.emoji_shortcode,
      display_order: '0',
      kind: 'unicode',
      emoji_text: '🙂',
      intent: 'save',
    });
    assert.equal(refused.status, 403);
    assert.equal((await t.services.emoji.emojis.find(emoji.id)).title, 'Emoji');
  });
});
