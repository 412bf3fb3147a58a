import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { CODE_PATTERN } from '../../src/emoji/fields.ts';
import { describeEachDatabase, startTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/databases.ts';

const run = promisify(execFile);
const UNICODE = { EMOJI_CATALOG: 'unicode' };
const GROUPS = ['Smileys & emotion', 'People & body', 'Animals & nature', 'Food & drink', 'Travel & places', 'Activities', 'Objects', 'Symbols', 'Flags'];
const SKIN_TONE = /[\u{1F3FB}-\u{1F3FF}]/u;

/** A log that keeps its lines, to read what the import reported. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function counts(app: BuiltApp) {
  const db = app.database.db;
  const count = async (table: 'emojis' | 'emoji_aliases' | 'emoji_categories' | 'emoji_codes') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    categories: await count('emoji_categories'),
    emojis: await count('emojis'),
    aliases: await count('emoji_aliases'),
    codes: await count('emoji_codes'),
  };
}

describeEachDatabase('the Unicode catalog import', (db) => {
  describe('on an empty catalog at start (EMOJI_CATALOG=unicode)', () => {
    let t: TestApp;
    let log: ReturnType<typeof capturingLogger>;
    before(async () => {
      log = capturingLogger();
      const database = await createTestDatabase(db.kind, { sqliteFile: true });
      const config = testConfig(database, UNICODE);
      const built = await buildApp(config, { logger: log.logger });
      t = {
        ...built,
        config,
        testDatabase: database,
        close: async () => {
          await built.app.close();
          await database.drop();
        },
      };
    });
    after(() => t.close());
    const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();

    it('makes one category per Unicode group, in Unicode order, without the component group', async () => {
      const categories = (await get('/api/emoji/categories?with_emojis=1')).data as Array<{ title: string; display_order: number; emojis_count: number }>;
      assert.deepEqual(
        categories.map((category) => category.title),
        GROUPS,
      );
      const orders = categories.map((category) => category.display_order);
      assert.deepEqual(
        orders,
        [...orders].sort((a, b) => a - b),
      );
      assert.ok(categories.every((category) => category.emojis_count > 0));
    });

    it('imports every base emoji in Unicode order, titled by its CLDR name, each in a category', async () => {
      const page = await get('/api/emoji/emojis?per_page=5&with_category=1&with_aliases=1');
      const [grinning] = page.data;
      assert.equal(grinning.title, 'Grinning face');
      assert.equal(grinning.emoji_text, '😀');
      assert.equal(grinning.emoji_shortcode, ':grinning:');
      assert.equal(grinning.category.title, 'Smileys & emotion');
      assert.deepEqual(
        grinning.aliases.map((alias: { alias: string }) => alias.alias),
        [':grinning_face:'],
      );
      assert.ok(page.meta.total > 1800, `${page.meta.total} emojis`);
      const categorised = (await get('/api/emoji/categories?with_emojis=1')).data.reduce(
        (sum: number, category: { emojis_count: number }) => sum + category.emojis_count,
        0,
      );
      assert.equal(categorised, page.meta.total);

      const all = await t.database.db.selectFrom('emojis').select(['emoji_text', 'display_order', 'id']).orderBy('id').execute();
      const orders = all.map((emoji) => emoji.display_order);
      assert.deepEqual(
        orders,
        [...orders].sort((a, b) => a - b),
        'ids follow Unicode order',
      );
      assert.ok(!all.some((emoji) => SKIN_TONE.test(emoji.emoji_text ?? '')), 'no skin-tone variants');
      assert.ok(!all.some((emoji) => emoji.emoji_text === '🦰' || emoji.emoji_text === '🏻'), 'no components');
      assert.ok(
        all.some((emoji) => emoji.emoji_text === '☺️'),
        'fully-qualified forms',
      );
    });

    it('prefers GitHub shortcodes, keeps the other codes as aliases, and stores only valid, unique codes', async () => {
      const thumbsUp = (await get(`/api/emoji/emojis/search?q=${encodeURIComponent(':thumbsup:')}&with_aliases=1&limit=1`)).data[0];
      assert.equal(thumbsUp.title, 'Thumbs up');
      assert.equal(thumbsUp.emoji_shortcode, ':thumbsup:');
      assert.ok(!thumbsUp.aliases.some((alias: { alias: string }) => alias.alias === ':+1:'), ':+1: breaks the format');
      const dog = (await get('/api/emoji/emojis/search?q=dog&limit=1')).data[0];
      assert.equal(dog.title, 'Dog face', "GitHub's :dog: beats emojibase's");

      const codes = [
        ...(await t.database.db.selectFrom('emojis').select('emoji_shortcode as code').execute()),
        ...(await t.database.db.selectFrom('emoji_aliases').select('alias as code').execute()),
      ].map((row) => row.code);
      const format = new RegExp(CODE_PATTERN);
      assert.deepEqual(
        codes.filter((code) => !format.test(code)),
        [],
      );
      assert.equal(new Set(codes).size, codes.length);
      const stored = await counts(t);
      assert.equal(stored.codes, stored.emojis + stored.aliases);
    });

    it('logs each skipped code with its reason, and a summary', async () => {
      const skipped = log.lines.filter((line) => line['msg'] === 'emoji catalog: skipped during Unicode import');
      assert.ok(skipped.some((line) => String(line['item']).includes(':+1:') && /format is invalid/.test(String(line['reason']))));
      assert.ok(skipped.some((line) => String(line['item']).includes(':dog:') && /already taken/.test(String(line['reason']))));
      const summary = log.lines.find((line) => line['msg'] === 'emoji catalog: Unicode set imported');
      const stored = await counts(t);
      assert.equal(summary?.['emojis'], stored.emojis);
      assert.equal(summary?.['aliases'], stored.aliases);
      assert.equal(summary?.['skipped'], skipped.length);
    });

    it('never imports twice: a restart on the same database changes nothing', async () => {
      const before = await counts(t);
      const again = await buildApp(t.config, { logger: pino({ level: 'silent' }) });
      try {
        assert.deepEqual(await counts(again), before);
        const report = await again.services.emoji.unicodeImport.importIfEmpty(pino({ level: 'silent' }));
        assert.equal(report.imported, false);
        assert.deepEqual(await counts(again), before);
      } finally {
        await again.app.close();
      }
    });
  });

  it('leaves a catalog that is not empty untouched', async () => {
    const t = await startTestApp(db.kind, { sqliteFile: true });
    try {
      await t.services.emoji.categories.create({ title: 'Ours', display_order: 0 });
      const restarted = await buildApp(testConfig(t.testDatabase, UNICODE), { logger: pino({ level: 'silent' }) });
      try {
        assert.deepEqual(await counts(restarted), { categories: 1, emojis: 0, aliases: 0, codes: 0 });
      } finally {
        await restarted.app.close();
      }
    } finally {
      await t.close();
    }
  });

  if (db.kind === 'postgres') {
    it('imports once when several instances start together', async () => {
      const database = await createTestDatabase('postgres');
      const config = testConfig(database, UNICODE);
      const single = await startTestApp('postgres', { env: UNICODE });
      const starts = await Promise.allSettled(Array.from({ length: 3 }, () => buildApp(config, { logger: pino({ level: 'silent' }) })));
      const apps = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
      try {
        assert.deepEqual(
          starts.map((start) => start.status),
          ['fulfilled', 'fulfilled', 'fulfilled'],
        );
        const expected = await counts(single);
        for (const app of apps) assert.deepEqual(await counts(app), expected);
      } finally {
        for (const app of apps) await app.app.close();
        await single.close();
        await database.drop();
      }
    });

    it('tells the other instances about catalog changes, so their search is current', async () => {
      const first = await startTestApp('postgres');
      const second = await buildApp(first.config, { logger: pino({ level: 'silent' }) });
      try {
        const search = async () => (await second.app.inject({ method: 'GET', url: '/api/emoji/emojis/search?q=faraway' })).json().data.length;
        assert.equal(await search(), 0); // the second instance now holds a copy of the (empty) catalog
        await first.services.emoji.emojis.create({ title: 'Far away', emoji_shortcode: ':faraway:', display_order: 0 });
        const deadline = Date.now() + 5000;
        while ((await search()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(await search(), 1);
      } finally {
        await second.app.close();
        await first.close();
      }
    });
  }

  it('runs as `npm run emoji:import`: prints a summary, and nothing is imported the second time', async () => {
    const database = await createTestDatabase(db.kind, { sqliteFile: true });
    const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
    try {
      const first = await run(process.execPath, ['src/emoji/import-cli.ts'], { env });
      const imported = /(\d+) categories, (\d+) emojis and (\d+) aliases imported/.exec(first.stdout);
      assert.ok(imported, first.stdout);
      assert.equal(imported[1], String(GROUPS.length));
      assert.match(first.stdout, /Skipped because they break a catalog rule: \d+\./);
      assert.match(first.stdout, /code :\+1: \(github\) of .*: The code field format is invalid\./);
      const second = await run(process.execPath, ['src/emoji/import-cli.ts'], { env });
      assert.equal(second.stdout, 'Unicode emoji import: nothing imported (the catalog is not empty).\n');
    } finally {
      await database.drop();
    }
  });
});
