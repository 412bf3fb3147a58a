import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EmojiRow } from '../../src/emoji/resource.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { EMOJI_KEYS, makeAlias, makeCategory, makeEmoji } from '../helpers/emoji.ts';

interface Found {
  id: number;
  category: { title: string; emojis_count: unknown } | null;
  aliases: Array<{ alias: string; emoji: unknown }> | null;
  aliases_count: unknown;
}

describeEachDatabase('search endpoints', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  // Display orders are chosen against the ranking: a better match never wins by coming first.
  let e: Record<'substringCode' | 'wordTitle' | 'prefixCode' | 'prefixAlias' | 'exactAlias' | 'exact' | 'textOnly' | 'unrelated', EmojiRow>;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
    const faces = await makeCategory(t, { title: 'Faces' });
    e = {
      substringCode: await makeEmoji(t, { title: 'Cat', emoji_shortcode: ':sweat_smile:', display_order: 1, emoji_category_id: faces.id }),
      wordTitle: await makeEmoji(t, { title: 'Face with smiles', emoji_shortcode: ':grin:', display_order: 2 }),
      prefixCode: await makeEmoji(t, { title: 'Smiley', emoji_shortcode: ':smiley:', display_order: 3 }),
      prefixAlias: await makeEmoji(t, { title: 'Happy', emoji_shortcode: ':happy:', display_order: 4 }),
      exactAlias: await makeEmoji(t, { title: 'Glad', emoji_shortcode: ':glad:', display_order: 5 }),
      exact: await makeEmoji(t, { title: 'Beaming', emoji_shortcode: ':Smile:', display_order: 6, emoji_category_id: faces.id }),
      textOnly: await makeEmoji(t, { title: 'Lol', emoji_shortcode: ':lol:', emoji_text: 'xD', display_order: 7 }),
      unrelated: await makeEmoji(t, { title: 'Rocket', emoji_shortcode: ':rocket:', emoji_text: '🚀', display_order: 0 }),
    };
    await makeAlias(t, e.prefixAlias, ':smile_wide:');
    await makeAlias(t, e.exactAlias, ':grinny:');
    await makeAlias(t, e.exact, ':beam:');
  });
  after(() => t.close());

  const search = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/emoji/emojis/search?${query}` });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as Found[];
  };
  const ids = async (query: string) => (await search(query)).map((emoji) => emoji.id);

  describe('GET /api/emoji/emojis/search', () => {
    it('ranks exact shortcode, then shortcode/alias prefix, then title word prefix, then substring', async () => {
      assert.deepEqual(await ids('q=smile'), [e.exact.id, e.prefixCode.id, e.prefixAlias.id, e.wordTitle.id, e.substringCode.id]);
      assert.deepEqual(await ids('q=smi'), [e.prefixCode.id, e.prefixAlias.id, e.exact.id, e.wordTitle.id, e.substringCode.id]);
    });

    it('finds an exact alias first, ignores case, and reads q with or without colons', async () => {
      assert.deepEqual(await ids('q=grinny'), [e.exactAlias.id]);
      assert.deepEqual(await ids('q=:GRINNY:'), [e.exactAlias.id]);
      assert.deepEqual(await ids('q=:smile:'), await ids('q=SMILE'));
      assert.equal((await ids('q=%3Agrin'))[0], e.wordTitle.id);
    });

    it('matches title words, several words, and the emoji text', async () => {
      assert.deepEqual(await ids('q=face%20with'), [e.wordTitle.id]);
      assert.deepEqual(await ids('q=with%20smi'), [e.wordTitle.id]);
      assert.deepEqual(await ids(`q=${encodeURIComponent('🚀')}`), [e.unrelated.id]);
      assert.deepEqual(await ids('q=XD'), [e.textOnly.id]);
    });

    it('applies limit after ranking', async () => {
      assert.deepEqual(await ids('q=smi&limit=2'), [e.prefixCode.id, e.prefixAlias.id]);
      const all = await ids('q=e');
      assert.ok(all.length > 3);
      assert.deepEqual(await ids('q=e&limit=3'), all.slice(0, 3));
    });

    it('answers search items with relations only when asked, aliases_count always null', async () => {
      const [plain] = await search('q=smile&limit=1');
      assert.deepEqual(Object.keys(plain!), EMOJI_KEYS);
      assert.equal(plain!.category, null);
      assert.equal(plain!.aliases, null);
      assert.equal(plain!.aliases_count, null);
      const [loaded] = await search('q=smile&limit=1&with_category=1&with_aliases=1');
      assert.equal(loaded!.category?.title, 'Faces');
      assert.equal(loaded!.category?.emojis_count, null);
      assert.deepEqual(
        loaded!.aliases?.map((alias) => alias.alias),
        [':beam:'],
      );
      assert.equal(loaded!.aliases?.[0]?.emoji, null);
      assert.equal(loaded!.aliases_count, null);
    });

    it('answers data only (no links or meta), empty when nothing matches', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis/search?q=zzzz' });
      assert.deepEqual(response.json(), { data: [] });
    });

    it('answers 400 with the validation body for a missing or empty q and a bad limit', async () => {
      for (const [query, fields] of [
        ['', ['q']],
        ['q=', ['q']],
        ['q=%20%20', ['q']],
        ['q=a&limit=0', ['limit']],
        ['q=a&limit=101', ['limit']],
        ['limit=abc', ['limit', 'q']],
        ['q=a&with_aliases=2', ['with_aliases']],
      ] as const) {
        const response = await t.app.inject({ method: 'GET', url: `/api/emoji/emojis/search?${query}` });
        assert.equal(response.statusCode, 400, query);
        const body = response.json();
        assert.equal(typeof body.message, 'string');
        assert.deepEqual(Object.keys(body.errors).sort(), [...fields], query);
      }
      const over = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis/search?q=a&limit=101' });
      assert.deepEqual(over.json().errors, { limit: ['The limit field must not be greater than 100.'] });
    });

    it('sees every write at once: create, rename, alias, delete', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/emoji/emojis',
        headers: admin.headers,
        payload: { title: 'Zebra', emoji_shortcode: ':zebra_face:', emoji_text: '🦓', display_order: 0 },
      });
      const id = created.json().data.id;
      assert.deepEqual(await ids('q=zebra_face'), [id]);
      await t.app.inject({ method: 'PATCH', url: `/api/emoji/emojis/${id}`, headers: admin.headers, payload: { emoji_shortcode: ':okapi:' } });
      assert.deepEqual(await ids('q=zebra_face'), []);
      assert.deepEqual(await ids('q=okapi'), [id]);
      await t.app.inject({ method: 'POST', url: '/api/emoji/aliases', headers: admin.headers, payload: { emoji_id: id, alias: ':stripes:' } });
      assert.deepEqual(await ids('q=stripes'), [id]);
      await t.app.inject({ method: 'DELETE', url: `/api/emoji/emojis/${id}`, headers: admin.headers });
      assert.deepEqual(await ids('q=okapi'), []);
      assert.deepEqual(await ids('q=stripes'), []);
    });

    it('shows a renamed category in results loaded with their category', async () => {
      const category = await makeCategory(t, { title: 'Before' });
      await makeEmoji(t, { emoji_shortcode: ':category_probe:', emoji_category_id: category.id });
      const categoryTitle = async () => (await search('q=category_probe&with_category=1'))[0]?.category?.title;
      assert.equal(await categoryTitle(), 'Before');
      await t.app.inject({ method: 'PATCH', url: `/api/emoji/categories/${category.id}`, headers: admin.headers, payload: { title: 'After' } });
      assert.equal(await categoryTitle(), 'After');
    });
  });

  describe('GET /api/emoji/aliases/search', () => {
    let emoji: EmojiRow;
    before(async () => {
      emoji = await makeEmoji(t, { emoji_shortcode: ':alias_owner:', title: 'Owner' });
      for (const alias of [':tada_party:', ':party:', ':party_popper:', ':Partytime:', ':confetti:']) await makeAlias(t, emoji, alias);
    });
    const aliases = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/emoji/aliases/search?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data as Array<{ alias: string; emoji: null | { id: number; category: unknown; aliases: unknown } }>;
    };

    it('ranks exact, then prefix, then substring; ties alphabetical; case and colons ignored', async () => {
      assert.deepEqual(
        (await aliases('q=party')).map((a) => a.alias),
        [':party:', ':Partytime:', ':party_popper:', ':tada_party:'],
      );
      assert.deepEqual(
        (await aliases('q=:PARTY:&limit=2')).map((a) => a.alias),
        [':party:', ':Partytime:'],
      );
      assert.deepEqual(
        (await aliases('q=fett')).map((a) => a.alias),
        [':confetti:'],
      );
    });

    it('matches alias text only, and loads the emoji with its category when asked', async () => {
      assert.deepEqual(await aliases('q=alias_owner'), []);
      const [plain] = await aliases('q=confetti');
      assert.equal(plain!.emoji, null);
      const [loaded] = await aliases('q=confetti&with_emoji=1');
      assert.equal(loaded!.emoji!.id, emoji.id);
      assert.equal(loaded!.emoji!.category, null);
      assert.equal(loaded!.emoji!.aliases, null);
    });

    it('answers 400 for a missing q or a limit out of range', async () => {
      const missing = await t.app.inject({ method: 'GET', url: '/api/emoji/aliases/search?limit=500' });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(missing.json().errors, { q: ['The q field is required.'], limit: ['The limit field must not be greater than 100.'] });
    });
  });
});
