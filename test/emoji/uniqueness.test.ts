import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { makeAlias, makeEmoji, uniqueCode } from '../helpers/emoji.ts';

// Shortcodes and aliases share one namespace, and the database holds it: no
// interleaving of concurrent requests may store a code twice.
describeEachDatabase('shortcode and alias uniqueness under concurrency', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  const holders = async (code: string) => {
    const [emojis, aliases, codes] = await Promise.all([
      t.database.db.selectFrom('emojis').select('id').where('emoji_shortcode', '=', code).execute(),
      t.database.db.selectFrom('emoji_aliases').select('id').where('alias', '=', code).execute(),
      t.database.db.selectFrom('emoji_codes').select('code').where('code', '=', code).execute(),
    ]);
    return { emojis: emojis.length, aliases: aliases.length, codes: codes.length };
  };

  it('stores exactly one of 20 simultaneous creates of one code (as emoji and as alias); the others get 422', async () => {
    const owner = await makeEmoji(t);
    const code = uniqueCode('contested');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? t.app.inject({
              method: 'POST',
              url: '/api/emoji/emojis',
              headers: admin.headers,
              payload: { title: `Racer ${i}`, emoji_shortcode: code, emoji_text: '🏁', display_order: i },
            })
          : t.app.inject({ method: 'POST', url: '/api/emoji/aliases', headers: admin.headers, payload: { emoji_id: owner.id, alias: code } }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 422).length, 19, statuses.join(','));
    for (const response of responses.filter((r) => r.statusCode === 422)) {
      const errors = response.json().errors as Record<string, string[]>;
      const [field] = Object.keys(errors);
      assert.ok(field === 'emoji_shortcode' || field === 'alias', response.body);
      assert.match(errors[field!]![0]!, /has already been taken/);
    }
    const stored = await holders(code);
    assert.equal(stored.emojis + stored.aliases, 1);
    assert.equal(stored.codes, 1);
  });

  it('lets only one of several simultaneous renames (emoji and alias) take a free code', async () => {
    const emojis = await Promise.all(Array.from({ length: 5 }, () => makeEmoji(t)));
    const aliases = await Promise.all(emojis.map((emoji) => makeAlias(t, emoji)));
    const code = uniqueCode('renamed_to');
    const responses = await Promise.all([
      ...emojis.map((emoji) =>
        t.app.inject({ method: 'PATCH', url: `/api/emoji/emojis/${emoji.id}`, headers: admin.headers, payload: { emoji_shortcode: code } }),
      ),
      ...aliases.map((alias) => t.app.inject({ method: 'PUT', url: `/api/emoji/aliases/${alias.id}`, headers: admin.headers, payload: { alias: code } })),
    ]);
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((status) => status === 422).length, 9, statuses.join(','));
    const stored = await holders(code);
    assert.equal(stored.emojis + stored.aliases, 1);
    assert.equal(stored.codes, 1);
  });

  it('keeps the code table in step with every emoji and alias after deletes', async () => {
    const emoji = await makeEmoji(t);
    const alias = await makeAlias(t, emoji);
    await t.app.inject({ method: 'DELETE', url: `/api/emoji/emojis/${emoji.id}`, headers: admin.headers });
    assert.deepEqual(await holders(emoji.emoji_shortcode), { emojis: 0, aliases: 0, codes: 0 });
    assert.deepEqual(await holders(alias.alias), { emojis: 0, aliases: 0, codes: 0 });
    const [codes, emojiCount, aliasCount] = await Promise.all([
      t.database.db
        .selectFrom('emoji_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      t.database.db
        .selectFrom('emojis')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      t.database.db
        .selectFrom('emoji_aliases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    assert.equal(Number(codes.n), Number(emojiCount.n) + Number(aliasCount.n));
  });
});
