import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { API_TIMESTAMP, CATEGORY_KEYS, EMOJI_KEYS, makeAlias, makeCategory, makeEmoji, uniqueCode } from '../helpers/emoji.ts';

describeEachDatabase('category endpoints', (db) => {
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

  describe('GET /api/emoji/categories', () => {
    // A catalog of its own, so the whole (unpaginated) list is known.
    let own: TestApp;
    let ids: { late: number; early: number; tie: number };
    let emojis: number[];
    before(async () => {
      own = await db.start();
      const late = await makeCategory(own, { title: 'Late', display_order: 9 });
      const early = await makeCategory(own, { title: 'Early', display_order: 1 });
      const tie = await makeCategory(own, { title: 'Tie', display_order: 9 });
      ids = { late: late.id, early: early.id, tie: tie.id };
      const second = await makeEmoji(own, { emoji_category_id: early.id, display_order: 2 });
      const first = await makeEmoji(own, { emoji_category_id: early.id, display_order: 1 });
      await makeAlias(own, first);
      await makeEmoji(own, { emoji_category_id: tie.id });
      await makeEmoji(own); // uncategorised: in no category's list or count
      emojis = [first.id, second.id];
    });
    after(() => own.close());
    const list = (query = '') => own.app.inject({ method: 'GET', url: `/api/emoji/categories${query}` });

    it('lists every category by display_order then id, not paginated, counts and emojis null', async () => {
      const response = await list();
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['data']);
      assert.deepEqual(
        body.data.map((category: { id: number }) => category.id),
        [ids.early, ids.late, ids.tie],
      );
      assert.deepEqual(Object.keys(body.data[0]), CATEGORY_KEYS);
      assert.equal(body.data[0].emojis_count, null);
      assert.equal(body.data[0].emojis, null);
      assert.match(body.data[0].created_at, API_TIMESTAMP);
    });

    it('with_emojis adds emojis_count (0 for an empty category)', async () => {
      const counts = (await list('?with_emojis=1')).json().data.map((category: { emojis_count: number }) => category.emojis_count);
      assert.deepEqual(counts, [2, 0, 1]);
    });

    it("include_emojis adds each category's emojis by display order, without their relations", async () => {
      const body = (await list('?include_emojis=1')).json();
      const [early, late, tie] = body.data;
      assert.deepEqual(
        early.emojis.map((emoji: { id: number }) => emoji.id),
        emojis,
      );
      assert.deepEqual(Object.keys(early.emojis[0]), EMOJI_KEYS);
      assert.equal(early.emojis[0].category, null);
      assert.equal(early.emojis[0].aliases, null);
      assert.equal(early.emojis[0].aliases_count, null);
      assert.deepEqual(late.emojis, []);
      assert.equal(tie.emojis.length, 1);
      assert.equal(early.emojis_count, null);
    });

    it('combines with_emojis and include_emojis', async () => {
      const [early] = (await list('?with_emojis=1&include_emojis=1')).json().data;
      assert.equal(early.emojis_count, 2);
      assert.equal(early.emojis.length, 2);
    });

    it('answers JSON, and reflects every write at once', async () => {
      const before = await list('?include_emojis=1&with_emojis=1');
      assert.match(String(before.headers['content-type']), /^application\/json; charset=utf-8$/);
      assert.equal(before.json().data[2].emojis_count, 1);
      const admin = await signIn(own, 'admin');
      const write = (method: 'POST' | 'PATCH', url: string, payload: object) => own.app.inject({ method, url, headers: admin.headers, payload });
      const created = (
        await write('POST', '/api/emoji/emojis', { title: 'New', emoji_shortcode: ':fresh_one:', display_order: 0, emoji_category_id: ids.tie })
      ).json().data;
      await write('PATCH', `/api/emoji/categories/${ids.tie}`, { title: 'Renamed' });
      const after = (await list('?include_emojis=1&with_emojis=1')).json().data[2];
      assert.equal(after.title, 'Renamed');
      assert.equal(after.emojis_count, 2);
      assert.equal(after.emojis[1].id, created.id, 'same display order: by id');
      await own.app.inject({ method: 'DELETE', url: `/api/emoji/emojis/${created.id}`, headers: admin.headers });
      await write('PATCH', `/api/emoji/categories/${ids.tie}`, { title: 'Tie' });
      assert.equal((await list('?with_emojis=1')).json().data[2].emojis_count, 1);
    });

    it('rejects a non-boolean flag with 422', async () => {
      const response = await list('?include_emojis=yes');
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, { include_emojis: ['The include emojis field must be true or false.'] });
    });
  });

  describe('GET /api/emoji/categories/{id}', () => {
    it('answers the category with its emojis loaded by display order, emojis_count null', async () => {
      const category = await makeCategory(t, { title: 'Weather' });
      const b = await makeEmoji(t, { emoji_category_id: category.id, display_order: 2 });
      const a = await makeEmoji(t, { emoji_category_id: category.id, display_order: 1 });
      await makeAlias(t, a);
      const data = (await get(`/api/emoji/categories/${category.id}`)).json().data;
      assert.deepEqual(Object.keys(data), CATEGORY_KEYS);
      assert.equal(data.title, 'Weather');
      assert.equal(data.emojis_count, null);
      assert.deepEqual(
        data.emojis.map((emoji: { id: number }) => emoji.id),
        [a.id, b.id],
      );
      assert.equal(data.emojis[0].aliases, null);
      assert.equal(data.emojis[0].category, null);
    });

    it('with_aliases includes the aliases inside the emojis, alphabetically', async () => {
      const category = await makeCategory(t);
      const emoji = await makeEmoji(t, { emoji_category_id: category.id });
      await makeAlias(t, emoji, uniqueCode('b_second'));
      await makeAlias(t, emoji, uniqueCode('a_first'));
      const [loaded] = (await get(`/api/emoji/categories/${category.id}?with_aliases=1`)).json().data.emojis;
      assert.deepEqual(
        loaded.aliases.map((alias: { alias: string }) => alias.alias.slice(0, 3)),
        [':a_', ':b_'],
      );
      assert.equal(loaded.aliases[0].emoji, null);
    });

    it('answers emojis [] for an empty category and 404 naming EmojiCategory', async () => {
      const category = await makeCategory(t);
      assert.deepEqual((await get(`/api/emoji/categories/${category.id}`)).json().data.emojis, []);
      const missing = await get('/api/emoji/categories/999999');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { message: 'No query results for model [EmojiCategory] 999999.' });
    });
  });

  describe('POST /api/emoji/categories', () => {
    it('creates a category: 201 with emojis_count and emojis null', async () => {
      const response = await send('POST', '/api/emoji/categories', { title: 'Flags', display_order: 3 });
      assert.equal(response.statusCode, 201);
      const data = response.json().data;
      assert.deepEqual(Object.keys(data), CATEGORY_KEYS);
      assert.equal(data.title, 'Flags');
      assert.equal(data.display_order, 3);
      assert.equal(data.emojis_count, null);
      assert.equal(data.emojis, null);
    });

    it('requires a title (blank is missing) and a display_order of at least 0', async () => {
      const missing = await send('POST', '/api/emoji/categories', {});
      assert.deepEqual(missing.json().errors, { title: ['The title field is required.'], display_order: ['The display order field is required.'] });
      const invalid = await send('POST', '/api/emoji/categories', { title: ' ', display_order: -1 });
      assert.deepEqual(invalid.json().errors, { title: ['The title field is required.'], display_order: ['The display order field must be at least 0.'] });
      const long = await send('POST', '/api/emoji/categories', { title: 'x'.repeat(256), display_order: 0 });
      assert.deepEqual(long.json().errors, { title: ['The title field must not be greater than 255 characters.'] });
    });

    it('answers 401 to guests and 403 to moderators', async () => {
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/emoji/categories', payload: { title: 'x', display_order: 0 } })).statusCode, 401);
      const moderator = await signIn(t, 'moderator');
      assert.equal((await send('POST', '/api/emoji/categories', { title: 'x', display_order: 0 }, moderator.headers)).statusCode, 403);
    });
  });

  describe('PUT and PATCH /api/emoji/categories/{id}', () => {
    it('changes only the fields sent, with both methods', async () => {
      const category = await makeCategory(t, { title: 'Before', display_order: 2 });
      const patched = (await send('PATCH', `/api/emoji/categories/${category.id}`, { title: 'After' })).json().data;
      assert.equal(patched.title, 'After');
      assert.equal(patched.display_order, 2);
      assert.equal(patched.emojis, null);
      const put = (await send('PUT', `/api/emoji/categories/${category.id}`, { display_order: 7 })).json().data;
      assert.equal(put.title, 'After');
      assert.equal(put.display_order, 7);
    });

    it('validates and answers 404 for an unknown category', async () => {
      const category = await makeCategory(t);
      assert.deepEqual((await send('PATCH', `/api/emoji/categories/${category.id}`, { title: '', display_order: -1 })).json().errors, {
        title: ['The title field is required.'],
        display_order: ['The display order field must be at least 0.'],
      });
      assert.deepEqual((await send('PUT', '/api/emoji/categories/999999', { title: 'x' })).json(), {
        message: 'No query results for model [EmojiCategory] 999999.',
      });
    });
  });

  describe('DELETE /api/emoji/categories/{id}', () => {
    it("answers 204 and keeps the category's emojis, now without a category", async () => {
      const category = await makeCategory(t);
      const emoji = await makeEmoji(t, { emoji_category_id: category.id });
      const response = await send('DELETE', `/api/emoji/categories/${category.id}`);
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await get(`/api/emoji/categories/${category.id}`)).statusCode, 404);
      const still = await get(`/api/emoji/emojis/${emoji.id}`);
      assert.equal(still.statusCode, 200);
      assert.equal(still.json().data.category, null);
    });

    it('answers 404 for an unknown category and 401 for guests', async () => {
      assert.deepEqual((await send('DELETE', '/api/emoji/categories/999999')).json(), { message: 'No query results for model [EmojiCategory] 999999.' });
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/emoji/categories/1' })).statusCode, 401);
    });
  });
});
