import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { ALIAS_KEYS, API_TIMESTAMP, CATEGORY_KEYS, EMOJI_KEYS, makeAlias, makeCategory, makeEmoji, uniqueCode } from '../helpers/emoji.ts';

describeEachDatabase('alias endpoints', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = admin.headers) =>
    t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

  describe('GET /api/emoji/aliases', () => {
    it("lists an emoji's aliases alphabetically, emoji null unless asked for", async () => {
      const emoji = await makeEmoji(t);
      const names = [':mid_a:', ':Zed_b:', ':alpha_c:', ':mid-a:'].map((name) => name.replace(':', `:${process.pid}`));
      for (const name of names) await makeAlias(t, emoji, name);
      const response = await get(`/api/emoji/aliases?emoji_id=${emoji.id}`);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      // Code-point order, the same on every database.
      assert.deepEqual(
        body.data.map((alias: { alias: string }) => alias.alias),
        [...names].sort(),
      );
      assert.deepEqual(Object.keys(body.data[0]), ALIAS_KEYS);
      assert.equal(body.data[0].emoji, null);
      assert.match(body.data[0].created_at, API_TIMESTAMP);
      assert.equal(body.meta.total, 4);
      assert.equal(body.meta.per_page, 50);
    });

    it('with_emoji loads the emoji and its category (and no aliases inside)', async () => {
      const category = await makeCategory(t, { title: 'Animals' });
      const emoji = await makeEmoji(t, { emoji_category_id: category.id, title: 'Cat' });
      await makeAlias(t, emoji);
      const [alias] = (await get(`/api/emoji/aliases?emoji_id=${emoji.id}&with_emoji=1`)).json().data;
      assert.deepEqual(Object.keys(alias.emoji), EMOJI_KEYS);
      assert.equal(alias.emoji.id, emoji.id);
      assert.equal(alias.emoji.title, 'Cat');
      assert.equal(alias.emoji.aliases, null);
      assert.equal(alias.emoji.aliases_count, null);
      assert.deepEqual(Object.keys(alias.emoji.category), CATEGORY_KEYS);
      assert.equal(alias.emoji.category.title, 'Animals');
      assert.equal(alias.emoji.category.emojis, null);
    });

    it('filters by search in the alias text, case-insensitive', async () => {
      const emoji = await makeEmoji(t);
      const hit = await makeAlias(t, emoji, uniqueCode('Banana_Split'));
      await makeAlias(t, emoji, uniqueCode('apple'));
      const found = (await get(`/api/emoji/aliases?emoji_id=${emoji.id}&search=ANA_s`)).json();
      assert.deepEqual(
        found.data.map((alias: { id: number }) => alias.id),
        [hit.id],
      );
      assert.equal(found.meta.total, 1);
    });

    it('pages with links that keep the filters', async () => {
      const emoji = await makeEmoji(t);
      for (let i = 0; i < 5; i++) await makeAlias(t, emoji);
      const body = (
        await t.app.inject({ method: 'GET', url: `/api/emoji/aliases?emoji_id=${emoji.id}&per_page=2&page=3`, headers: { host: 'forum.test' } })
      ).json();
      assert.equal(body.data.length, 1);
      assert.deepEqual(
        { current_page: body.meta.current_page, per_page: body.meta.per_page, total: body.meta.total },
        { current_page: 3, per_page: 2, total: 5 },
      );
      assert.equal(body.links.first, `http://forum.test/api/emoji/aliases?emoji_id=${emoji.id}&per_page=2&page=1`);
      assert.equal(body.links.next, null);
    });

    it('rejects an unknown emoji_id filter and bad parameters with 422', async () => {
      assert.deepEqual((await get('/api/emoji/aliases?emoji_id=999999')).json().errors, { emoji_id: ['The selected emoji id is invalid.'] });
      const bad = await get('/api/emoji/aliases?emoji_id=x&page=0&with_emoji=2');
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(Object.keys(bad.json().errors).sort(), ['emoji_id', 'page', 'with_emoji']);
    });
  });

  describe('GET /api/emoji/aliases/{id}', () => {
    it("answers the alias with its emoji and the emoji's category loaded", async () => {
      const category = await makeCategory(t, { title: 'Food' });
      const emoji = await makeEmoji(t, { emoji_category_id: category.id });
      const alias = await makeAlias(t, emoji);
      const data = (await get(`/api/emoji/aliases/${alias.id}`)).json().data;
      assert.equal(data.alias, alias.alias);
      assert.equal(data.emoji.id, emoji.id);
      assert.equal(data.emoji.category.id, category.id);
      assert.equal(data.emoji.category.emojis_count, null);
    });

    it('answers the emoji with category null when it has none', async () => {
      const alias = await makeAlias(t, await makeEmoji(t));
      assert.equal((await get(`/api/emoji/aliases/${alias.id}`)).json().data.emoji.category, null);
    });

    it('answers 404 naming EmojiAlias', async () => {
      const response = await get('/api/emoji/aliases/999999');
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'No query results for model [EmojiAlias] 999999.' });
    });
  });

  describe('POST /api/emoji/aliases', () => {
    it('creates an alias: 201 with emoji null', async () => {
      const emoji = await makeEmoji(t);
      const alias = uniqueCode('new');
      const response = await send('POST', '/api/emoji/aliases', { emoji_id: emoji.id, alias });
      assert.equal(response.statusCode, 201);
      const data = response.json().data;
      assert.deepEqual(Object.keys(data), ALIAS_KEYS);
      assert.equal(data.alias, alias);
      assert.equal(data.emoji, null);
      assert.equal((await get(`/api/emoji/aliases/${data.id}`)).json().data.emoji.id, emoji.id);
    });

    it('rejects an alias equal to an emoji shortcode (422 on alias)', async () => {
      const emoji = await makeEmoji(t);
      const response = await send('POST', '/api/emoji/aliases', { emoji_id: emoji.id, alias: emoji.emoji_shortcode });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, { alias: ['The alias has already been taken by an emoji shortcode.'] });
    });

    it('rejects an alias already taken', async () => {
      const emoji = await makeEmoji(t);
      const existing = await makeAlias(t, emoji);
      const response = await send('POST', '/api/emoji/aliases', { emoji_id: emoji.id, alias: existing.alias });
      assert.deepEqual(response.json().errors, { alias: ['The alias has already been taken.'] });
    });

    it('rejects a malformed alias, a missing field and an unknown emoji, all at once where possible', async () => {
      const malformed = await send('POST', '/api/emoji/aliases', { alias: 'smile' });
      assert.deepEqual(malformed.json().errors, {
        emoji_id: ['The emoji id field is required.'],
        alias: ['The alias field format is invalid.'],
      });
      const long = await send('POST', '/api/emoji/aliases', { emoji_id: 1, alias: `:${'a'.repeat(254)}:` });
      assert.deepEqual(long.json().errors, { alias: ['The alias field must not be greater than 255 characters.'] });
      const emoji = await makeEmoji(t);
      const unknown = await send('POST', '/api/emoji/aliases', { emoji_id: 999999, alias: emoji.emoji_shortcode });
      assert.deepEqual(unknown.json().errors, {
        emoji_id: ['The selected emoji id is invalid.'],
        alias: ['The alias has already been taken by an emoji shortcode.'],
      });
    });

    it('answers 401 to guests', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/emoji/aliases', payload: { emoji_id: 1, alias: ':x:' } });
      assert.equal(response.statusCode, 401);
    });
  });

  describe('PUT and PATCH /api/emoji/aliases/{id}', () => {
    it('moves an alias to another emoji (PATCH emoji_id)', async () => {
      const from = await makeEmoji(t);
      const to = await makeEmoji(t);
      const alias = await makeAlias(t, from);
      const response = await send('PATCH', `/api/emoji/aliases/${alias.id}`, { emoji_id: to.id });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.alias, alias.alias);
      assert.equal(response.json().data.emoji, null);
      assert.equal((await get(`/api/emoji/aliases/${alias.id}`)).json().data.emoji.id, to.id);
      assert.deepEqual((await get(`/api/emoji/emojis/${from.id}`)).json().data.aliases, []);
      assert.equal((await get(`/api/emoji/emojis/${to.id}`)).json().data.aliases[0].id, alias.id);
    });

    it('renames an alias with PUT, keeping its own name allowed and freeing the old one', async () => {
      const emoji = await makeEmoji(t);
      const alias = await makeAlias(t, emoji);
      assert.equal((await send('PUT', `/api/emoji/aliases/${alias.id}`, { alias: alias.alias })).statusCode, 200);
      const renamed = uniqueCode('renamed');
      assert.equal((await send('PUT', `/api/emoji/aliases/${alias.id}`, { alias: renamed })).json().data.alias, renamed);
      assert.equal((await send('POST', '/api/emoji/aliases', { emoji_id: emoji.id, alias: alias.alias })).statusCode, 201);
    });

    it('refuses a taken name, a shortcode, an unknown emoji and a bad format', async () => {
      const emoji = await makeEmoji(t);
      const alias = await makeAlias(t, emoji);
      const other = await makeAlias(t, emoji);
      assert.deepEqual((await send('PATCH', `/api/emoji/aliases/${alias.id}`, { alias: other.alias })).json().errors, {
        alias: ['The alias has already been taken.'],
      });
      assert.deepEqual((await send('PATCH', `/api/emoji/aliases/${alias.id}`, { alias: emoji.emoji_shortcode, emoji_id: 999999 })).json().errors, {
        emoji_id: ['The selected emoji id is invalid.'],
        alias: ['The alias has already been taken by an emoji shortcode.'],
      });
      assert.deepEqual((await send('PATCH', `/api/emoji/aliases/${alias.id}`, { alias: ':two words:' })).json().errors, {
        alias: ['The alias field format is invalid.'],
      });
      assert.equal((await get(`/api/emoji/aliases/${alias.id}`)).json().data.alias, alias.alias);
    });

    it('answers 404 for an unknown alias', async () => {
      assert.deepEqual((await send('PATCH', '/api/emoji/aliases/999999', { alias: ':free_name:' })).json(), {
        message: 'No query results for model [EmojiAlias] 999999.',
      });
    });
  });

  describe('DELETE /api/emoji/aliases/{id}', () => {
    it('answers 204, removes only the alias, and frees its code', async () => {
      const emoji = await makeEmoji(t);
      const alias = await makeAlias(t, emoji);
      const response = await send('DELETE', `/api/emoji/aliases/${alias.id}`);
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await get(`/api/emoji/aliases/${alias.id}`)).statusCode, 404);
      const still = (await get(`/api/emoji/emojis/${emoji.id}`)).json().data;
      assert.equal(still.emoji_shortcode, emoji.emoji_shortcode);
      assert.deepEqual(still.aliases, []);
      assert.equal((await send('PATCH', `/api/emoji/emojis/${emoji.id}`, { emoji_shortcode: alias.alias })).statusCode, 200);
    });

    it('answers 404 for an unknown alias and 401 for guests', async () => {
      assert.equal((await send('DELETE', '/api/emoji/aliases/999999')).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/emoji/aliases/1' })).statusCode, 401);
    });
  });
});
