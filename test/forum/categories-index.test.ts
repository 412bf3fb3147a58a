// The index (`/`) under category headings (docs/access.md, "Categories"):
// categories in their order, each forum under its own heading with its
// subforums as before, the forums in no category last under a neutral heading
// (English and Russian), no heading at all on a board without categories,
// headings repeated across a page boundary, and a change of categories seen
// on the next request, on another instance too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import type { ForumRow } from '../../src/forum/repository.ts';
import { FORUMS_PER_PAGE } from '../../src/forum/pages/home-page.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom, textOf, type Dom } from '../helpers/dom.ts';

/** Each heading of the index with the names of the forums in the table under it (subforums are not rows). */
function sections(page: Dom): Array<[string, string[]]> {
  return page.all('main section.category').map((section) => {
    const inner = dom(section);
    const heading = inner.one('h2');
    assert.equal(section.getAttribute('aria-labelledby'), heading.getAttribute('id'), 'the section is named by its heading');
    return [textOf(heading), inner.all('table.forums tbody tr').map((row) => textOf(dom(row).one('td > a')))];
  });
}

describeEachDatabase('forum categories on the index', (db) => {
  describe('a board with categories', () => {
    let t: TestApp;
    const forum = (name: string, fields: { category_id?: number; parent_id?: number; display_order?: number } = {}): Promise<ForumRow> =>
      t.services.forum.createForum({ name, ...fields });

    before(async () => {
      t = await db.start();
    });
    after(() => t.close());

    it('shows the forums under their categories in order, then the others under a neutral heading', async () => {
      const index = () => new Browser(t).get('/');
      const lone = await forum('Forum without a category');
      // Without categories there is nothing to head: one table, as before.
      const plain = dom(await index());
      assert.equal(plain.count('main section.category'), 0);
      assert.equal(plain.count('main table.forums'), 1);
      assert.deepEqual(plain.texts('main h2'), ['Statistics'], 'no heading over the forums: only the board’s statistics under them');

      const music = await t.services.forum.categories.create({ title: 'Music & <Sound>', display_order: 20 });
      const films = await t.services.forum.categories.create({ title: 'Films', display_order: 10 });
      const empty = await t.services.forum.categories.create({ title: 'Nothing here yet', display_order: 15 });
      const jazz = await forum('Jazz', { category_id: music.id, display_order: 2 });
      await forum('Bebop', { parent_id: jazz.id });
      await forum('Blues', { category_id: music.id, display_order: 1 });
      await forum('Documentaries', { category_id: films.id });

      const page = dom(await index());
      assert.deepEqual(sections(page), [
        ['Films', ['Documentaries']],
        ['Music & <Sound>', ['Blues', 'Jazz']],
        ['Other forums', [lone.name]],
      ]);
      assert.ok(!page.textContent.includes(empty.title), 'a category without forums has no heading on the index');
      const jazzRow = page.all('main table.forums tbody tr').find((row) => textOf(dom(row).one('td > a')) === 'Jazz')!;
      assert.equal(dom(jazzRow).text('p.subforums'), 'Subforums: Bebop', 'subforums stay under their forum, in its category');
      assert.equal(page.text('main h1'), 'Forums');
      assert.deepEqual(
        page.all('main table.forums caption').map((caption) => textOf(caption)),
        ['Films', 'Music & <Sound>', 'Other forums'],
      );

      const russian = dom(await new Browser(t, { 'accept-language': 'ru' }).get('/'));
      assert.deepEqual(
        sections(russian).map(([heading]) => heading),
        ['Films', 'Music & <Sound>', 'Другие форумы'],
      );
    });

    it('follows a change of categories on the next request: renamed, reordered, a forum moved, a category emptied', async () => {
      const headings = async () => sections(dom(await new Browser(t).get('/'))).map(([heading]) => heading);
      const [films, music] = (await t.services.forum.categories.rows()).filter((row) => row.title === 'Films' || row.title.startsWith('Music'));
      await t.services.forum.categories.update(films!.id, { title: 'Cinema', display_order: 99 });
      assert.deepEqual(await headings(), ['Music & <Sound>', 'Cinema', 'Other forums']);
      const documentaries = (await t.services.forum.listForums({ page: 1, perPage: 100, offset: 0 }, null)).rows.find((row) => row.name === 'Documentaries')!;
      await t.services.forum.updateForum(documentaries.id, { category_id: music!.id });
      assert.deepEqual(await headings(), ['Music & <Sound>', 'Other forums']);
    });
  });

  describe('a board with more top-level forums than a page holds', () => {
    let t: TestApp;
    before(async () => {
      t = await db.start();
    });
    after(() => t.close());

    it('pages by top-level forums in the index order, the heading of a category cut by the boundary on both pages', async () => {
      const big = await t.services.forum.categories.create({ title: 'Big category', display_order: 0 });
      const small = await t.services.forum.categories.create({ title: 'Small category', display_order: 1 });
      for (let i = 0; i < FORUMS_PER_PAGE - 1; i++)
        await t.services.forum.createForum({ name: `Big ${String(i).padStart(2, '0')}`, category_id: big.id, display_order: i });
      // Created first but listed last: its category comes after.
      await t.services.forum.createForum({ name: 'Small one', category_id: small.id });
      await t.services.forum.createForum({ name: 'Small two', category_id: small.id, display_order: 1 });
      await t.services.forum.createForum({ name: 'Loose', display_order: 0 });

      const first = sections(dom(await new Browser(t).get('/')));
      assert.deepEqual(
        first.map(([heading, names]) => [heading, names.length]),
        [
          ['Big category', FORUMS_PER_PAGE - 1],
          ['Small category', 1],
        ],
      );
      assert.deepEqual(first[1]![1], ['Small one']);
      const second = await new Browser(t).get('/?page=2');
      assert.equal(second.status, 200);
      assert.deepEqual(sections(dom(second)), [
        ['Small category', ['Small two']],
        ['Other forums', ['Loose']],
      ]);
      assert.equal((await new Browser(t).get('/?page=3')).status, 404);
    });
  });

  if (db.kind === 'postgres') {
    describe('several instances on one PostgreSQL database', () => {
      let t: TestApp;
      let second: BuiltApp;
      before(async () => {
        t = await db.start();
        second = await buildApp(t.config, { logger: pino({ level: 'silent' }) });
      });
      after(async () => {
        await second.app.close();
        await t.close();
      });

      it('shows a category created, renamed or emptied on one instance on the next request to the other', async () => {
        const headings = async () => sections(dom((await second.app.inject({ url: '/' })).body)).map(([heading]) => heading);
        await t.services.forum.createForum({ name: 'Seen everywhere' });
        assert.deepEqual(await headings(), []);
        const category = await t.services.forum.categories.create({ title: 'Made on the first', display_order: 0 });
        const forum = await t.services.forum.createForum({ name: 'Listed under it', category_id: category.id });
        assert.deepEqual(await headings(), ['Made on the first', 'Other forums']);
        await t.services.forum.categories.update(category.id, { title: 'Renamed on the first' });
        assert.deepEqual(await headings(), ['Renamed on the first', 'Other forums']);
        await t.services.forum.updateForum(forum.id, { category_id: null });
        assert.deepEqual(await headings(), ['Other forums']);
      });
    });
  }
});
