import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { makeAlias, makeEmoji } from '../helpers/emoji.ts';

describeEachDatabase('cached catalog reads', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  const get = (url: string, host = 'forum.test') => t.app.inject({ method: 'GET', url, headers: { host } });

  it('a list answered before a write is answered afresh after it', async () => {
    const url = '/api/emoji/emojis?search=cachefresh&with_aliases=1';
    assert.equal((await get(url)).json().meta.total, 0);
    const emoji = await makeEmoji(t, { title: 'Cachefresh', emoji_shortcode: ':cachefresh:' });
    assert.equal((await get(url)).json().meta.total, 1);
    await makeAlias(t, emoji, ':cachefresh_alias:');
    assert.deepEqual(
      (await get(url)).json().data[0].aliases.map((a: { alias: string }) => a.alias),
      [':cachefresh_alias:'],
    );
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/emoji/emojis/${emoji.id}`, headers: admin.headers });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await get(url)).json().meta.total, 0);
  });

  it('search follows writes too', async () => {
    const url = '/api/emoji/emojis/search?q=searchfresh';
    assert.deepEqual((await get(url)).json().data, []);
    await makeEmoji(t, { title: 'Searchfresh', emoji_shortcode: ':searchfresh:' });
    assert.equal((await get(url)).json().data[0].emoji_shortcode, ':searchfresh:');
  });

  it('keeps links per origin', async () => {
    const url = '/api/emoji/emojis?per_page=1';
    assert.match((await get(url, 'one.test')).json().links.first, /^http:\/\/one\.test\//);
    assert.match((await get(url, 'two.test')).json().links.first, /^http:\/\/two\.test\//);
  });

  it('never caches an error', async () => {
    const url = '/api/emoji/emojis?category_id=999999';
    assert.equal((await get(url)).statusCode, 422);
    assert.equal((await get(url)).statusCode, 422);
  });

  it('answers the cached body with the JSON content type and the same bytes', async () => {
    await makeEmoji(t, { title: 'Bytes', emoji_shortcode: ':bytes_same:' });
    const first = await get('/api/emoji/emojis/search?q=bytes_same');
    const second = await get('/api/emoji/emojis/search?q=bytes_same');
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(second.body, first.body);
  });
});
