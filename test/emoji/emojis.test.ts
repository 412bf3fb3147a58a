import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { API_TIMESTAMP, EMOJI_KEYS, makeAlias, makeCategory, makeEmoji, uniqueCode } from '../helpers/emoji.ts';

describeEachDatabase('emoji endpoints', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  const clock = new TestClock();
  before(async () => {
    t = await db.start({ clock });
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = admin.headers) =>
    t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  const validEmoji = (values: object = {}) => ({ title: 'Party', emoji_text: '🥳', emoji_shortcode: uniqueCode('party'), display_order: 1, ...values });

  describe('GET /api/emoji/emojis', () => {
    it('lists by display_order, then id, with every key present and relations null unless asked for', async () => {
      const category = await makeCategory(t);
      const third = await makeEmoji(t, { emoji_category_id: category.id, display_order: 5 });
      const first = await makeEmoji(t, { emoji_category_id: category.id, display_order: 1 });
      const second = await makeEmoji(t, { emoji_category_id: category.id, display_order: 5 });
      await makeAlias(t, first);
      const response = await get(`/api/emoji/emojis?category_id=${category.id}`);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(
        body.data.map((emoji: { id: number }) => emoji.id),
        [first.id, third.id, second.id],
      );
      const item = body.data[0];
      assert.deepEqual(Object.keys(item), EMOJI_KEYS);
      assert.equal(item.category, null);
      assert.equal(item.aliases, null);
      assert.equal(item.aliases_count, null);
      assert.equal(item.sprite_mode, false);
      assert.equal(item.sprite_params, null);
      assert.match(item.created_at, API_TIMESTAMP);
      assert.match(item.updated_at, API_TIMESTAMP);
      assert.deepEqual(body.meta, { current_page: 1, per_page: 50, total: 3, last_page: 1, from: 1, to: 3 });
      assert.equal(body.links.prev, null);
      assert.equal(body.links.next, null);
    });

    it('loads categories and alphabetical aliases with a count when asked', async () => {
      const category = await makeCategory(t, { title: 'Faces' });
      const withAliases = await makeEmoji(t, { emoji_category_id: category.id, display_order: 0 });
      const without = await makeEmoji(t, { emoji_category_id: category.id, display_order: 1 });
      await makeAlias(t, withAliases, uniqueCode('zeta'));
      await makeAlias(t, withAliases, uniqueCode('alpha'));
      const body = (await get(`/api/emoji/emojis?category_id=${category.id}&with_category=1&with_aliases=1`)).json();
      const [loaded, bare] = body.data;
      assert.equal(loaded.category.id, category.id);
      assert.equal(loaded.category.title, 'Faces');
      assert.equal(loaded.category.emojis_count, null);
      assert.equal(loaded.category.emojis, null);
      assert.equal(loaded.aliases_count, 2);
      assert.match(loaded.aliases[0].alias, /^:alpha_/);
      assert.match(loaded.aliases[1].alias, /^:zeta_/);
      assert.equal(loaded.aliases[0].emoji, null);
      assert.deepEqual(bare.aliases, []);
      assert.equal(bare.aliases_count, 0);
      assert.equal(without.id, bare.id);
    });

    it('keeps aliases_count null when aliases are not loaded, even with the category', async () => {
      const category = await makeCategory(t);
      const emoji = await makeEmoji(t, { emoji_category_id: category.id });
      await makeAlias(t, emoji);
      const [item] = (await get(`/api/emoji/emojis?category_id=${category.id}&with_category=true`)).json().data;
      assert.equal(item.aliases_count, null);
      assert.equal(item.aliases, null);
      assert.equal(item.category.id, category.id);
    });

    it('filters by search in shortcode, title or emoji text, case-insensitive, wildcards literal', async () => {
      const category = await makeCategory(t);
      const byCode = await makeEmoji(t, { emoji_category_id: category.id, emoji_shortcode: uniqueCode('Rocket_ship') });
      const byTitle = await makeEmoji(t, { emoji_category_id: category.id, title: 'Big ROCKET launch' });
      const byText = await makeEmoji(t, { emoji_category_id: category.id, emoji_text: '🚀' });
      await makeEmoji(t, { emoji_category_id: category.id, title: '100%_sure' });
      const ids = async (query: string) =>
        (await get(`/api/emoji/emojis?category_id=${category.id}&search=${encodeURIComponent(query)}`))
          .json()
          .data.map((e: { id: number }) => e.id)
          .sort();
      assert.deepEqual(await ids('rocket'), [byCode.id, byTitle.id].sort());
      assert.deepEqual(await ids('🚀'), [byText.id]);
      assert.equal((await ids('%_')).length, 1);
      assert.deepEqual(await ids('nothing-like-this'), []);
    });

    it('pages without repeating or skipping emojis that share a display order', async () => {
      const category = await makeCategory(t);
      const created = [];
      for (let i = 0; i < 7; i++) created.push((await makeEmoji(t, { emoji_category_id: category.id, display_order: 3 })).id);
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await get(`/api/emoji/emojis?category_id=${category.id}&per_page=3&page=${page}`)).json();
        assert.equal(body.meta.total, 7);
        assert.equal(body.meta.last_page, 3);
        seen.push(...body.data.map((e: { id: number }) => e.id));
      }
      assert.deepEqual(seen, created);
      const second = (
        await t.app.inject({ method: 'GET', url: `/api/emoji/emojis?category_id=${category.id}&per_page=3&page=2`, headers: { host: 'forum.test' } })
      ).json();
      assert.equal(second.links.next, `http://forum.test/api/emoji/emojis?category_id=${category.id}&per_page=3&page=3`);
      assert.equal(second.links.prev, `http://forum.test/api/emoji/emojis?category_id=${category.id}&per_page=3&page=1`);
    });

    it('rejects invalid filters with 422: unknown category, non-integer, per_page above 100, bad flags', async () => {
      const unknown = await get('/api/emoji/emojis?category_id=999999');
      assert.equal(unknown.statusCode, 422);
      assert.deepEqual(unknown.json().errors, { category_id: ['The selected category id is invalid.'] });
      const bad = await get('/api/emoji/emojis?category_id=abc&per_page=101&with_aliases=maybe');
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().errors, {
        category_id: ['The category id field must be an integer.'],
        per_page: ['The per page field must not be greater than 100.'],
        with_aliases: ['The with aliases field must be true or false.'],
      });
    });
  });

  describe('GET /api/emoji/emojis/{id}', () => {
    it('answers the emoji with its category (no counts) and alphabetical aliases (no emoji), aliases_count null', async () => {
      const category = await makeCategory(t, { title: 'Hands' });
      const emoji = await makeEmoji(t, { emoji_category_id: category.id, title: 'Wave', emoji_text: '👋' });
      await makeAlias(t, emoji, uniqueCode('wave_b'));
      await makeAlias(t, emoji, uniqueCode('wave_a'));
      const response = await get(`/api/emoji/emojis/${emoji.id}`);
      assert.equal(response.statusCode, 200);
      const data = response.json().data;
      assert.deepEqual(Object.keys(data), EMOJI_KEYS);
      assert.equal(data.title, 'Wave');
      assert.equal(data.emoji_text, '👋');
      assert.deepEqual(
        { ...data.category, created_at: 'x', updated_at: 'x' },
        {
          id: category.id,
          title: 'Hands',
          display_order: 0,
          emojis_count: null,
          emojis: null,
          created_at: 'x',
          updated_at: 'x',
        },
      );
      assert.deepEqual(
        data.aliases.map((alias: { alias: string }) => alias.alias.slice(0, 7)),
        [':wave_a', ':wave_b'],
      );
      assert.ok(data.aliases.every((alias: { emoji: unknown }) => alias.emoji === null));
      assert.equal(data.aliases_count, null);
    });

    it('answers category null and aliases [] for an emoji without them', async () => {
      const emoji = await makeEmoji(t);
      const data = (await get(`/api/emoji/emojis/${emoji.id}`)).json().data;
      assert.equal(data.category, null);
      assert.deepEqual(data.aliases, []);
    });

    it('answers 404 naming the model and id for an unknown emoji, and for a non-integer id', async () => {
      const response = await get('/api/emoji/emojis/999999');
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'No query results for model [Emoji] 999999.' });
      assert.equal((await get('/api/emoji/emojis/abc')).statusCode, 404);
    });
  });

  describe('POST /api/emoji/emojis', () => {
    it('creates a Unicode emoji: 201 with category, aliases and aliases_count null', async () => {
      const category = await makeCategory(t);
      const input = validEmoji({ emoji_category_id: category.id });
      const response = await send('POST', '/api/emoji/emojis', input);
      assert.equal(response.statusCode, 201);
      const data = response.json().data;
      assert.deepEqual(Object.keys(data), EMOJI_KEYS);
      assert.equal(data.title, input.title);
      assert.equal(data.emoji_text, '🥳');
      assert.equal(data.emoji_shortcode, input.emoji_shortcode);
      assert.equal(data.image_url, null);
      assert.equal(data.sprite_mode, false);
      assert.equal(data.sprite_params, null);
      assert.equal(data.display_order, 1);
      assert.equal(data.category, null);
      assert.equal(data.aliases, null);
      assert.equal(data.aliases_count, null);
      assert.match(data.created_at, API_TIMESTAMP);
      const stored = (await get(`/api/emoji/emojis/${data.id}`)).json().data;
      assert.equal(stored.category.id, category.id);
    });

    it('creates a custom-image emoji and a sprite emoji', async () => {
      const image = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: undefined, image_url: '/images/emoji/party.png' }));
      assert.equal(image.statusCode, 201);
      assert.equal(image.json().data.image_url, '/images/emoji/party.png');
      assert.equal(image.json().data.emoji_text, null);

      const sprite = { x: 0, y: 32, width: 16, height: 16, sheet: 'sheet-1.png' };
      const created = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: null, sprite_mode: true, sprite_params: sprite }));
      assert.equal(created.statusCode, 201);
      assert.equal(created.json().data.sprite_mode, true);
      assert.deepEqual(created.json().data.sprite_params, sprite);
      assert.deepEqual((await get(`/api/emoji/emojis/${created.json().data.id}`)).json().data.sprite_params, sprite);
    });

    it('stores sprite_params only when sprite_mode is true', async () => {
      const response = await send(
        'POST',
        '/api/emoji/emojis',
        validEmoji({ sprite_mode: false, sprite_params: { x: 1, y: 1, width: 1, height: 1, sheet: 's.png' } }),
      );
      assert.equal(response.statusCode, 201);
      assert.equal(response.json().data.sprite_params, null);
      assert.equal(response.json().data.emoji_text, '🥳');
    });

    it('counts emoji_text in code points: a seven-code-point family fits, eleven characters do not', async () => {
      assert.equal((await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: '👨‍👩‍👧‍👦' }))).statusCode, 201);
      const tooLong = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: ':-)))))))))' }));
      assert.deepEqual(tooLong.json().errors, { emoji_text: ['The emoji text field must not be greater than 10 characters.'] });
    });

    it('reports every invalid field at once (422)', async () => {
      const response = await send('POST', '/api/emoji/emojis', {
        title: 'x'.repeat(256),
        emoji_shortcode: 'no colons',
        display_order: -1,
        image_url: `/${'y'.repeat(500)}`,
        sprite_params: { x: -1, width: 0, sheet: 5 },
      });
      assert.equal(response.statusCode, 422);
      const body = response.json();
      assert.deepEqual(body.errors, {
        title: ['The title field must not be greater than 255 characters.'],
        emoji_shortcode: ['The emoji shortcode field format is invalid.'],
        display_order: ['The display order field must be at least 0.'],
        image_url: ['The image url field must not be greater than 500 characters.'],
        'sprite_params.x': ['The sprite params.x field must be at least 0.'],
        'sprite_params.width': ['The sprite params.width field must be at least 1.'],
        'sprite_params.sheet': ['The sprite params.sheet field must be a string.'],
      });
      assert.equal(body.message, 'The title field must not be greater than 255 characters. (and 6 more errors)');
    });

    it('requires title, emoji_shortcode and display_order; a blank title counts as missing', async () => {
      const missing = await send('POST', '/api/emoji/emojis', { title: '   ' });
      assert.deepEqual(missing.json().errors, {
        title: ['The title field is required.'],
        emoji_shortcode: ['The emoji shortcode field is required.'],
        display_order: ['The display order field is required.'],
      });
    });

    it('accepts a 255-code-point title of emojis and the full shortcode alphabet', async () => {
      const response = await send('POST', '/api/emoji/emojis', validEmoji({ title: '😀'.repeat(255), emoji_shortcode: uniqueCode('AZaz09_-') }));
      assert.equal(response.statusCode, 201);
      for (const code of [':a b:', '::', ':é:', 'abc', ':abc', ':a+1:', `:${'a'.repeat(254)}:`]) {
        const refused = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: code }));
        assert.equal(refused.statusCode, 422, code);
        assert.ok(refused.json().errors.emoji_shortcode, code);
      }
    });

    it('rejects a shortcode already taken by an emoji or equal to an alias', async () => {
      const emoji = await makeEmoji(t);
      const taken = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: emoji.emoji_shortcode }));
      assert.equal(taken.statusCode, 422);
      assert.deepEqual(taken.json().errors, { emoji_shortcode: ['The emoji shortcode has already been taken.'] });
      const alias = await makeAlias(t, emoji);
      const asAlias = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: alias.alias }));
      assert.deepEqual(asAlias.json().errors, { emoji_shortcode: ['The emoji shortcode has already been taken by an alias.'] });
    });

    it('treats shortcodes as exact: a different case is a different code', async () => {
      const code = uniqueCode('case');
      await makeEmoji(t, { emoji_shortcode: code });
      assert.equal((await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: code.toUpperCase() }))).statusCode, 201);
    });

    it('rejects an unknown emoji_category_id together with the other rule failures', async () => {
      const emoji = await makeEmoji(t);
      const response = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_category_id: 999999, emoji_shortcode: emoji.emoji_shortcode }));
      assert.deepEqual(response.json().errors, {
        emoji_category_id: ['The selected emoji category id is invalid.'],
        emoji_shortcode: ['The emoji shortcode has already been taken.'],
      });
      const huge = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_category_id: 99999999999 }));
      assert.deepEqual(huge.json().errors, { emoji_category_id: ['The selected emoji category id is invalid.'] });
    });

    it('requires all five sprite_params when sprite_mode is true (dotted keys)', async () => {
      const none = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: null, sprite_mode: true }));
      assert.deepEqual(none.json().errors, ALL_SPRITE_MEMBERS_REQUIRED);
      const nullParams = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: null, sprite_mode: true, sprite_params: null }));
      assert.deepEqual(nullParams.json().errors, ALL_SPRITE_MEMBERS_REQUIRED);
      const partial = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: null, sprite_mode: true, sprite_params: { x: 0, sheet: 'a.png' } }));
      assert.deepEqual(partial.json().errors, {
        'sprite_params.y': ['The sprite params.y field is required when sprite mode is true.'],
        'sprite_params.width': ['The sprite params.width field is required when sprite mode is true.'],
        'sprite_params.height': ['The sprite params.height field is required when sprite mode is true.'],
      });
    });

    it('refuses fields of two kinds in one request, naming each field', async () => {
      const textAndImage = await send('POST', '/api/emoji/emojis', validEmoji({ image_url: '/a.png' }));
      assert.equal(textAndImage.statusCode, 422);
      assert.deepEqual(textAndImage.json().errors, {
        emoji_text: ['The emoji text field must be empty when image url is present.'],
        image_url: ['The image url field must be empty when emoji text is present.'],
      });
      const textAndSprite = await send(
        'POST',
        '/api/emoji/emojis',
        validEmoji({ sprite_mode: true, sprite_params: { x: 0, y: 0, width: 1, height: 1, sheet: 'a' } }),
      );
      assert.deepEqual(textAndSprite.json().errors, {
        emoji_text: ['The emoji text field must be empty when sprite mode is true.'],
        sprite_mode: ['The sprite mode field must be false when emoji text is present.'],
      });
    });

    it('treats an empty emoji_text or image_url as none', async () => {
      const response = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_text: '', image_url: '/b.png' }));
      assert.equal(response.statusCode, 201);
      assert.equal(response.json().data.emoji_text, null);
    });

    it('does not coerce JSON types', async () => {
      const response = await send('POST', '/api/emoji/emojis', validEmoji({ display_order: '1', sprite_mode: 'true', emoji_category_id: '1' }));
      assert.deepEqual(response.json().errors, {
        display_order: ['The display order field must be an integer.'],
        sprite_mode: ['The sprite mode field must be true or false.'],
        emoji_category_id: ['The emoji category id field must be an integer.'],
      });
    });

    it('answers 401 to guests and 403 to non-admins, before looking at the body', async () => {
      const guest = await t.app.inject({ method: 'POST', url: '/api/emoji/emojis', payload: {} });
      assert.equal(guest.statusCode, 401);
      assert.equal(guest.json().error.code, 'UNAUTHENTICATED');
      const moderator = await signIn(t, 'moderator');
      const forbidden = await send('POST', '/api/emoji/emojis', validEmoji(), moderator.headers);
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().error.code, 'FORBIDDEN');
    });
  });

  describe('PUT and PATCH /api/emoji/emojis/{id}', () => {
    it('changes only the fields sent, with both methods, and answers the emoji without relations', async () => {
      const category = await makeCategory(t);
      const emoji = await makeEmoji(t, { title: 'Old', display_order: 4, emoji_category_id: category.id });
      const patched = await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { title: 'New' });
      assert.equal(patched.statusCode, 200);
      const data = patched.json().data;
      assert.equal(data.title, 'New');
      assert.equal(data.display_order, 4);
      assert.equal(data.emoji_shortcode, emoji.emoji_shortcode);
      assert.equal(data.category, null);
      assert.equal(data.aliases_count, null);
      const put = await send('PUT', `/api/emoji/emojis/${emoji.id}`, { display_order: 9, emoji_category_id: null });
      assert.equal(put.statusCode, 200);
      assert.equal(put.json().data.display_order, 9);
      assert.equal(put.json().data.title, 'New');
      assert.equal((await get(`/api/emoji/emojis/${emoji.id}`)).json().data.category, null);
    });

    it('moves updated_at forward and keeps created_at', async () => {
      const emoji = await makeEmoji(t);
      clock.advance(1000);
      const data = (await send('PATCH', `/api/emoji/emojis/${emoji.id}`, {})).json().data;
      assert.equal(data.created_at, `${emoji.created_at.slice(0, 19)}Z`);
      assert.ok(data.updated_at > data.created_at);
    });

    it('switches the kind when one kind is set: the other kinds are cleared', async () => {
      const emoji = await makeEmoji(t, { emoji_text: '😀' });
      const image = (await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { image_url: '/c.png' })).json().data;
      assert.equal(image.image_url, '/c.png');
      assert.equal(image.emoji_text, null);
      const sprite = (
        await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { sprite_mode: true, sprite_params: { x: 1, y: 2, width: 3, height: 4, sheet: 's' } })
      ).json().data;
      assert.equal(sprite.image_url, null);
      assert.deepEqual(sprite.sprite_params, { x: 1, y: 2, width: 3, height: 4, sheet: 's' });
      const moved = (await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { sprite_params: { x: 5, y: 6, width: 7, height: 8, sheet: 't' } })).json().data;
      assert.deepEqual(moved.sprite_params, { x: 5, y: 6, width: 7, height: 8, sheet: 't' });
      const unicode = (await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_text: '😎' })).json().data;
      assert.equal(unicode.sprite_mode, false);
      assert.equal(unicode.sprite_params, null);
      assert.equal(unicode.emoji_text, '😎');
    });

    it('refuses turning sprite mode on without parameters, and two kinds at once', async () => {
      const emoji = await makeEmoji(t);
      const noParams = await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { sprite_mode: true });
      assert.deepEqual(noParams.json().errors, ALL_SPRITE_MEMBERS_REQUIRED);
      const twoKinds = await send('PUT', `/api/emoji/emojis/${emoji.id}`, { emoji_text: '😀', image_url: '/d.png' });
      assert.equal(twoKinds.statusCode, 422);
      assert.deepEqual(Object.keys(twoKinds.json().errors).sort(), ['emoji_text', 'image_url']);
      assert.equal((await get(`/api/emoji/emojis/${emoji.id}`)).json().data.emoji_text, emoji.emoji_text);
    });

    it("accepts the emoji's own shortcode, refuses another's, and frees the old code on a change", async () => {
      const emoji = await makeEmoji(t);
      const other = await makeEmoji(t);
      assert.equal((await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_shortcode: emoji.emoji_shortcode })).statusCode, 200);
      const taken = await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_shortcode: other.emoji_shortcode });
      assert.deepEqual(taken.json().errors, { emoji_shortcode: ['The emoji shortcode has already been taken.'] });
      const renamed = uniqueCode('renamed');
      assert.equal((await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_shortcode: renamed })).json().data.emoji_shortcode, renamed);
      const reuse = await send('POST', '/api/emoji/aliases', { emoji_id: other.id, alias: emoji.emoji_shortcode });
      assert.equal(reuse.statusCode, 201, 'the old shortcode is free again');
      const clash = await send('PATCH', `/api/emoji/emojis/${other.id}`, { emoji_shortcode: renamed });
      assert.equal(clash.statusCode, 422);
    });

    it('validates like create, with every field optional', async () => {
      const emoji = await makeEmoji(t);
      const response = await send('PATCH', `/api/emoji/emojis/${emoji.id}`, {
        title: '',
        display_order: -2,
        emoji_shortcode: 'bad',
        emoji_category_id: 999999,
      });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), ['display_order', 'emoji_shortcode', 'title']);
      const reference = await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_category_id: 999999 });
      assert.deepEqual(reference.json().errors, { emoji_category_id: ['The selected emoji category id is invalid.'] });
    });

    it('answers 404 for an unknown emoji and 401 for guests', async () => {
      const missing = await send('PATCH', '/api/emoji/emojis/999999', { title: 'x' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { message: 'No query results for model [Emoji] 999999.' });
      const emoji = await makeEmoji(t);
      assert.equal((await t.app.inject({ method: 'PUT', url: `/api/emoji/emojis/${emoji.id}`, payload: { title: 'x' } })).statusCode, 401);
    });
  });

  describe('DELETE /api/emoji/emojis/{id}', () => {
    it("answers 204 with an empty body and deletes the emoji's aliases, freeing their codes", async () => {
      const emoji = await makeEmoji(t);
      const alias = await makeAlias(t, emoji);
      const response = await send('DELETE', `/api/emoji/emojis/${emoji.id}`);
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await get(`/api/emoji/emojis/${emoji.id}`)).statusCode, 404);
      assert.deepEqual((await get(`/api/emoji/aliases/${alias.id}`)).json(), { message: `No query results for model [EmojiAlias] ${alias.id}.` });
      const reuse = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: alias.alias }));
      assert.equal(reuse.statusCode, 201);
      const reuseShortcode = await send('POST', '/api/emoji/emojis', validEmoji({ emoji_shortcode: emoji.emoji_shortcode }));
      assert.equal(reuseShortcode.statusCode, 201);
    });

    it('answers 404 for an unknown emoji, 403 for a plain user', async () => {
      assert.deepEqual((await send('DELETE', '/api/emoji/emojis/999999')).json(), { message: 'No query results for model [Emoji] 999999.' });
      const user = await signIn(t, 'user');
      const emoji = await makeEmoji(t);
      assert.equal((await send('DELETE', `/api/emoji/emojis/${emoji.id}`, undefined, user.headers)).statusCode, 403);
      assert.equal((await get(`/api/emoji/emojis/${emoji.id}`)).statusCode, 200);
    });
  });

  it('is served under /api/v1 too, and documented in OpenAPI under the emoji tag', async () => {
    const emoji = await makeEmoji(t);
    assert.equal((await get(`/api/v1/emoji/emojis/${emoji.id}`)).json().data.id, emoji.id);
    const document = (await get('/api/openapi.json')).json();
    for (const path of [
      '/api/emoji/emojis',
      '/api/emoji/emojis/search',
      '/api/emoji/emojis/{id}',
      '/api/emoji/aliases',
      '/api/emoji/aliases/search',
      '/api/emoji/aliases/{id}',
      '/api/emoji/categories',
      '/api/emoji/categories/{id}',
    ]) {
      assert.ok(document.paths[path], path);
      for (const operation of Object.values(document.paths[path]) as Array<{ tags: string[]; responses: object }>) {
        assert.deepEqual(operation.tags, ['emoji'], path);
      }
    }
    assert.ok(document.paths['/api/emoji/emojis'].post.responses['201']);
    assert.ok(document.paths['/api/emoji/emojis/{id}'].patch.responses['422']);
  });
});

/** sprite_mode true without sprite_params: each member is required under its own dotted key. */
const ALL_SPRITE_MEMBERS_REQUIRED = Object.fromEntries(
  ['x', 'y', 'width', 'height', 'sheet'].map((member) => [
    `sprite_params.${member}`,
    [`The sprite params.${member} field is required when sprite mode is true.`],
  ]),
);
