// Subforums (docs/forums.md): one level deep, set through the API and the
// admin page, listed under their forum on the index (counted with it) and on
// its page, and named in the breadcrumbs of their pages and topics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { createTopic, reply } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { TestClock } from '../helpers/clock.ts';
import { fieldError, signedInBrowser } from '../admin/helpers.ts';

describeEachDatabase('subforums', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  const clock = new TestClock();

  before(async () => {
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    admin = await signIn(t, 'admin', 'Subforum Admin');
    await t.app.inject({ method: 'GET', url: '/api/hello', headers: admin.headers });
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin.headers, ...(payload === undefined ? {} : { payload }) });
  const newForum = async (name: string, parent?: number) => {
    const response = await call('POST', '/api/forums', { name, ...(parent === undefined ? {} : { parent_id: parent }) });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data as { id: number; parent_id: number | null; url: string };
  };

  describe('through the API', () => {
    it('puts a forum inside a top-level forum and takes it out again', async () => {
      const parent = await newForum('Films');
      const child = await newForum('Documentaries', parent.id);
      assert.equal(child.parent_id, parent.id);
      assert.equal((await call('GET', `/api/forums/${child.id}`)).json().data.parent_id, parent.id);
      const moved = await call('PATCH', `/api/forums/${child.id}`, { parent_id: null });
      assert.equal(moved.json().data.parent_id, null);
    });

    it('keeps subforums one level deep and refuses unknown parents (422 on parent_id), changing nothing', async () => {
      const top = await newForum('Music');
      const sub = await newForum('Jazz', top.id);
      const other = await newForum('Games');
      const state = await snapshotTables(t);
      const refusals: Array<[string, string, object, RegExp]> = [
        ['POST', '/api/forums', { name: 'Bebop', parent_id: sub.id }, /top-level forum/],
        ['POST', '/api/forums', { name: 'Nowhere', parent_id: 2_000_000 }, /does not exist/],
        ['PATCH', `/api/forums/${other.id}`, { parent_id: other.id }, /its own parent/],
        ['PATCH', `/api/forums/${top.id}`, { parent_id: other.id }, /has subforums of its own/],
        ['PATCH', `/api/forums/${other.id}`, { parent_id: 'x' }, /./],
      ];
      for (const [method, url, body, message] of refusals) {
        const response = await call(method as 'POST' | 'PATCH', url, body);
        assert.equal(response.statusCode, 422, `${method} ${url} ${JSON.stringify(body)}`);
        assert.match(response.json().errors.parent_id[0], message);
      }
      const refused = await call('DELETE', `/api/forums/${top.id}`);
      assert.equal(refused.statusCode, 409, 'a forum with subforums is not deleted');
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });
  });

  describe('on the pages', () => {
    let parent: { id: number; url: string };
    let child: { id: number; url: string };
    let topicPath: string;

    before(async () => {
      parent = await newForum('Software');
      child = await newForum('Linux', parent.id);
      const author = await t.services.users.get(admin.user.id);
      await createTopic(t, author, await t.services.forum.getForum(parent.id), 'About software');
      clock.advance(60_000);
      const topic = await createTopic(t, author, await t.services.forum.getForum(child.id), 'Kernel news');
      await reply(t, author, topic, 'A newer post in the subforum');
      topicPath = (await t.services.presenter.heading(topic)).path;
    });

    it('lists subforums under their forum on the index, counted with it, with the newest post among them', async () => {
      const index = await new Browser(t).get('/');
      const rows = dom(index).all('table.forums tbody tr');
      const names = rows.map((row) => dom(row).one('td a').textContent);
      assert.ok(names.includes('Software'));
      assert.ok(!names.includes('Linux'), 'a subforum has no row of its own');
      const row = rows.find((candidate) => dom(candidate).one('td a').textContent === 'Software')!;
      assert.equal(dom(row).text('p.subforums'), 'Subforums: Linux');
      assert.equal(dom(row).one('p.subforums a').getAttribute('href'), child.url);
      const cells = dom(row).texts('td');
      assert.deepEqual(cells.slice(1, 3), ['2', '3'], 'topics and posts of the forum and its subforum');
      assert.match(cells[3]!, /^Kernel news/, 'the newest post is in the subforum');
    });

    it('lists the subforums on their forum’s page and names the forum in the breadcrumbs below it', async () => {
      const forumPage = await new Browser(t).get(parent.url);
      assert.deepEqual(
        dom(forumPage)
          .all('table.forums tbody tr td:first-child > a')
          .map((link) => link.textContent),
        ['Linux'],
      );
      const subforumPage = await new Browser(t).get(child.url);
      assert.deepEqual(
        dom(subforumPage)
          .all('nav[aria-label="Breadcrumb"] a')
          .map((link) => link.textContent),
        ['Forums', 'Software'],
      );
      assert.equal(dom(subforumPage).count('table.forums'), 0, 'a subforum has no subforums');
      const topicPage = await new Browser(t).get(topicPath);
      assert.deepEqual(
        dom(topicPage)
          .all('nav[aria-label="Breadcrumb"] a')
          .map((link) => link.textContent),
        ['Forums', 'Software', 'Linux'],
      );
    });

    it('is set on the admin forum page with the parent chosen from the top-level forums', async () => {
      const staff = await signedInBrowser(t, 'admin');
      const list = await staff.browser.get('/admin/forums/');
      const options = dom(list)
        .all('#new-forum-parent_id option')
        .map((option) => option.textContent);
      assert.ok(options.includes('Software') && !options.includes('Linux'), 'only top-level forums can hold subforums');
      const created = await staff.browser.post('/admin/forums/', { name: 'BSD', description: '', display_order: '0', parent_id: String(parent.id) });
      assert.equal(created.status, 303);
      const bsd = (await t.services.forum.listForums({ page: 1, perPage: 100, offset: 0 }, null)).rows.find((row) => row.name === 'BSD')!;
      assert.equal(bsd.parent_id, parent.id);
      const refused = await staff.browser.post(`/admin/forums/${parent.id}/`, {
        name: 'Software',
        description: '',
        display_order: '0',
        parent_id: String(bsd.id),
      });
      assert.equal(refused.status, 422);
      assert.match(fieldError(refused.body, 'forum', 'parent_id') ?? '', /top-level forum|subforums of its own/);
    });
  });
});
