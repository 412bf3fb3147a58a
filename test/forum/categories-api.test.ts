// Forum categories through the API (docs/access.md, "Categories"): every
// route's statuses, validation and order, a forum's category_id and its
// rules (unknown category, subforums have none), the 409 for a category that
// holds forums (held by the database too), and the OpenAPI entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface Forum {
  id: number;
  name: string;
  parent_id: number | null;
  category_id: number | null;
}
interface Category {
  id: number;
  title: string;
  display_order: number;
  forums: Forum[];
}

describeEachDatabase('forum categories API', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;
  let member: SignedIn;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Category Admin');
    moderator = await signIn(t, 'moderator', 'Category Moderator');
    member = await signIn(t, 'user', 'Category Member');
    // A token's first use is written down (last_used_at); used once here, a refused request changes no row.
    for (const who of [admin, moderator, member]) await t.app.inject({ method: 'GET', url: '/api/hello', headers: who.headers });
  });
  after(() => t.close());

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, who?: SignedIn, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const newCategory = async (title: string, display_order = 0): Promise<Category> => {
    const response = await call('POST', '/api/categories', admin, { title, display_order });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data;
  };
  const newForum = async (name: string, fields: { category_id?: number | null; parent_id?: number; display_order?: number } = {}): Promise<Forum> => {
    const response = await call('POST', '/api/forums', admin, { name, ...fields });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data;
  };
  const listed = async (): Promise<Category[]> => {
    const response = await call('GET', '/api/categories');
    assert.equal(response.statusCode, 200);
    return response.json().data;
  };
  /** A refused request changes no row of any table. */
  const refusedWithoutChange = async <R extends { statusCode: number; body: string }>(request: () => Promise<R>, status: number): Promise<R> => {
    const before = await snapshotTables(t);
    const response = await request();
    assert.equal(response.statusCode, status, response.body);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return response;
  };

  describe('creating', () => {
    it('gives admins a 201 with the category and no forums yet, and lists it', async () => {
      const response = await call('POST', '/api/categories', admin, { title: 'Films & Series', display_order: 4 });
      assert.equal(response.statusCode, 201);
      const created = response.json().data;
      assert.deepEqual(Object.keys(created).sort(), ['created_at', 'display_order', 'forums', 'id', 'title', 'updated_at']);
      assert.deepEqual([created.title, created.display_order, created.forums], ['Films & Series', 4, []]);
      assert.match(created.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const found = (await listed()).find((category) => category.id === created.id);
      assert.deepEqual(found, created);
      assert.deepEqual((await call('GET', `/api/categories/${created.id}`)).json().data, created);
    });

    it('refuses guests (401), members and moderators (403), changing nothing', async () => {
      const body = { title: 'Not yours', display_order: 0 };
      assert.equal((await refusedWithoutChange(() => call('POST', '/api/categories', undefined, body), 401)).json().error.code, 'UNAUTHENTICATED');
      assert.equal((await refusedWithoutChange(() => call('POST', '/api/categories', member, body), 403)).json().error.code, 'FORBIDDEN');
      await refusedWithoutChange(() => call('POST', '/api/categories', moderator, body), 403);
    });

    it('validates every field at once (422) and creates nothing', async () => {
      const cases: Array<[unknown, Record<string, string[]>]> = [
        [{}, { title: ['The title field is required.'], display_order: ['The display order field is required.'] }],
        [
          { title: ' \u200b ', display_order: -1 },
          { title: ['The title field is required.'], display_order: ['The display order field must be at least 0.'] },
        ],
        [
          { title: 'x'.repeat(256), display_order: 1.5 },
          { title: ['The title field must not be greater than 255 characters.'], display_order: ['The display order field must be an integer.'] },
        ],
        [
          { title: 7, display_order: 2_147_483_648 },
          { title: ['The title field must be a string.'], display_order: ['The display order field must not be greater than 2147483647.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const response = await refusedWithoutChange(() => call('POST', '/api/categories', admin, body), 422);
        assert.deepEqual(response.json().errors, errors, JSON.stringify(body));
        assert.equal(typeof response.json().message, 'string');
      }
      // 255 code points is the limit, whatever their UTF-16 length.
      assert.equal((await call('POST', '/api/categories', admin, { title: '😀'.repeat(255), display_order: 0 })).statusCode, 201);
    });

    it('refuses a body that is not JSON (400) and a NUL in the title, without a 500', async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/categories',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: '{"title":',
      });
      assert.equal(broken.statusCode, 400);
      const nul = await call('POST', '/api/categories', admin, { title: 'a\u0000b', display_order: 0 });
      assert.ok(nul.statusCode === 201 || nul.statusCode === 422, nul.body);
    });
  });

  describe('listing', () => {
    it('orders categories by display order then id, each with its forums in forum order, subforums after their parent', async () => {
      const later = await newCategory('Later', 20);
      const first = await newCategory('First', 10);
      const tie = await newCategory('Tie with Later', 20);
      const empty = await newCategory('Empty', 15);
      const zeta = await newForum('Zeta', { category_id: first.id, display_order: 9 });
      const alpha = await newForum('Alpha', { category_id: first.id, display_order: 1 });
      const child2 = await newForum('Alpha child two', { parent_id: alpha.id, display_order: 2 });
      const child1 = await newForum('Alpha child one', { parent_id: alpha.id, display_order: 1 });
      const elsewhere = await newForum('In Later', { category_id: later.id });
      const loose = await newForum('In no category');

      const ours = (await listed()).filter((category) => [later.id, first.id, tie.id, empty.id].includes(category.id));
      assert.deepEqual(
        ours.map((category) => category.title),
        ['First', 'Empty', 'Later', 'Tie with Later'],
      );
      assert.deepEqual(
        ours[0]!.forums.map((forum) => forum.id),
        [alpha.id, child1.id, child2.id, zeta.id],
      );
      assert.deepEqual(ours[1]!.forums, []);
      assert.deepEqual(
        ours[2]!.forums.map((forum) => forum.id),
        [elsewhere.id],
      );
      const everyListed = (await listed()).flatMap((category) => category.forums.map((forum) => forum.id));
      assert.ok(!everyListed.includes(loose.id), 'a forum in no category is only in /api/forums');
      const all = (await call('GET', '/api/forums?per_page=100')).json().data as Forum[];
      assert.equal(all.find((forum) => forum.id === loose.id)!.category_id, null);
      // Each forum is a forum resource, as /api/forums lists it.
      const alphaListed = ours[0]!.forums[0]!;
      assert.deepEqual(
        alphaListed,
        all.find((forum) => forum.id === alpha.id),
      );
      assert.equal(alphaListed.category_id, first.id);
      assert.equal(ours[0]!.forums[1]!.category_id, null, "a subforum has no category of its own: it is listed in its parent's");
    });

    it('gives members their unread counts on the forums, as /api/forums does', async () => {
      const category = await newCategory('Unread counts', 0);
      const forum = await newForum('Counted', { category_id: category.id });
      await call('POST', '/api/topics', admin, { forum_id: forum.id, title: 'New here', body: 'Hello' });
      const asMember = (await call('GET', `/api/categories/${category.id}`, member)).json().data as Category & { forums: Array<{ unread_topics: number }> };
      assert.equal(asMember.forums[0]!.unread_topics, 1);
      const asGuest = (await call('GET', `/api/categories/${category.id}`)).json().data as Category & { forums: Array<{ unread_topics: number | null }> };
      assert.equal(asGuest.forums[0]!.unread_topics, null);
    });

    it('answers an unknown or malformed id with 404', async () => {
      const unknown = await call('GET', '/api/categories/999999');
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(unknown.json(), { message: 'No query results for model [Category] 999999.' });
      for (const id of ['abc', '0', '-1', '99999999999', '1.5']) assert.equal((await call('GET', `/api/categories/${id}`)).statusCode, 404, id);
      assert.equal((await call('GET', '/api/v1/categories')).statusCode, 200, 'under /api/v1 too');
    });
  });

  describe('updating', () => {
    it('renames and reorders (200), each field optional, and the list follows', async () => {
      const category = await newCategory('Old title', 100);
      const renamed = await call('PATCH', `/api/categories/${category.id}`, admin, { title: 'New title' });
      assert.equal(renamed.statusCode, 200);
      assert.deepEqual([renamed.json().data.title, renamed.json().data.display_order], ['New title', 100]);
      const moved = await call('PATCH', `/api/categories/${category.id}`, admin, { display_order: 0 });
      assert.deepEqual([moved.json().data.title, moved.json().data.display_order], ['New title', 0]);
      assert.equal((await call('PATCH', `/api/categories/${category.id}`, admin, {})).statusCode, 200);
      const ids = (await listed()).map((row) => row.id);
      assert.equal(
        ids.indexOf(category.id),
        (await listed()).findIndex((row) => row.display_order === 0 && row.id === category.id),
      );
      assert.ok(ids.indexOf(category.id) < ids.length - 1);
    });

    it('refuses 401, 403, 404 and invalid fields (422), changing nothing', async () => {
      const category = await newCategory('Keep me', 3);
      const url = `/api/categories/${category.id}`;
      await refusedWithoutChange(() => call('PATCH', url, undefined, { title: 'x' }), 401);
      await refusedWithoutChange(() => call('PATCH', url, member, { title: 'x' }), 403);
      await refusedWithoutChange(() => call('PATCH', '/api/categories/999999', admin, { title: 'x' }), 404);
      const invalid = await refusedWithoutChange(() => call('PATCH', url, admin, { title: '', display_order: -5 }), 422);
      assert.deepEqual(invalid.json().errors, { title: ['The title field is required.'], display_order: ['The display order field must be at least 0.'] });
      assert.equal((await call('GET', url)).json().data.title, 'Keep me');
    });
  });

  describe('deleting', () => {
    it('deletes an empty category (204, then 404), and refuses 401, 403, 404', async () => {
      const category = await newCategory('Short-lived');
      const url = `/api/categories/${category.id}`;
      await refusedWithoutChange(() => call('DELETE', url), 401);
      await refusedWithoutChange(() => call('DELETE', url, moderator), 403);
      const deleted = await call('DELETE', url, admin);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, '');
      assert.equal((await call('GET', url)).statusCode, 404);
      await refusedWithoutChange(() => call('DELETE', url, admin), 404);
    });

    it('refuses a category that still holds forums (409), and deletes it once they moved out', async () => {
      const category = await newCategory('Busy');
      const forum = await newForum('Holds it', { category_id: category.id });
      const refused = await refusedWithoutChange(() => call('DELETE', `/api/categories/${category.id}`, admin), 409);
      assert.equal(refused.json().error.code, 'CONFLICT');
      assert.equal(refused.json().message, 'The category still has forums. Move them to another category, or to none, first.');
      assert.equal((await call('PATCH', `/api/forums/${forum.id}`, admin, { category_id: null })).json().data.category_id, null);
      assert.equal((await call('DELETE', `/api/categories/${category.id}`, admin)).statusCode, 204);
      assert.equal((await call('GET', `/api/forums/${forum.id}`)).json().data.category_id, null, 'the forum stays');
    });

    it('is held by the database too: a category with forums cannot be deleted by any path', async () => {
      const category = await newCategory('Held by the database');
      await newForum('Keeps it', { category_id: category.id });
      await assert.rejects(t.database.db.deleteFrom('categories').where('id', '=', category.id).execute());
      assert.equal((await call('GET', `/api/categories/${category.id}`)).statusCode, 200);
    });
  });

  describe("a forum's category", () => {
    it('is set on create and update, null by default, and cleared with null', async () => {
      const one = await newCategory('One');
      const two = await newCategory('Two');
      const plain = await newForum('Plain');
      assert.equal(plain.category_id, null);
      const forum = await newForum('Categorised', { category_id: one.id });
      assert.equal(forum.category_id, one.id);
      assert.equal((await call('GET', `/api/forums/${forum.id}`)).json().data.category_id, one.id);
      const moved = await call('PATCH', `/api/forums/${forum.id}`, admin, { category_id: two.id });
      assert.equal(moved.statusCode, 200);
      assert.equal(moved.json().data.category_id, two.id);
      assert.equal((await call('PATCH', `/api/forums/${forum.id}`, admin, { name: 'Renamed only' })).json().data.category_id, two.id, 'kept when not given');
      assert.equal((await call('PATCH', `/api/forums/${forum.id}`, admin, { category_id: null })).json().data.category_id, null);
    });

    it('refuses an unknown category (422) on create and update, changing nothing', async () => {
      const forum = await newForum('Stays put');
      for (const [method, url] of [
        ['POST', '/api/forums'],
        ['PATCH', `/api/forums/${forum.id}`],
      ] as const) {
        for (const [categoryId, message] of [
          [999999, 'The selected category id is invalid.'],
          [0, 'The selected category id is invalid.'],
          [-1, 'The selected category id is invalid.'],
          [99999999999, 'The selected category id is invalid.'],
          ['x', 'The category id field must be an integer.'],
          [true, 'The category id field must be an integer.'],
        ] as const) {
          const response = await refusedWithoutChange(() => call(method, url, admin, { name: 'Unknown category', category_id: categoryId }), 422);
          assert.deepEqual(response.json().errors, { category_id: [message] }, `${method} ${String(categoryId)}`);
        }
      }
    });

    it('gives a subforum none of its own: 422 when given one, and a forum put inside another leaves its category', async () => {
      const category = await newCategory('Parents');
      const parent = await newForum('Parent', { category_id: category.id });
      const refusedCreate = await refusedWithoutChange(
        () => call('POST', '/api/forums', admin, { name: 'Child', parent_id: parent.id, category_id: category.id }),
        422,
      );
      assert.deepEqual(refusedCreate.json().errors, { category_id: ["A subforum has no category of its own: it is listed in its parent forum's category."] });
      const child = await newForum('Child', { parent_id: parent.id });
      assert.equal(child.category_id, null);
      await refusedWithoutChange(() => call('PATCH', `/api/forums/${child.id}`, admin, { category_id: category.id }), 422);
      // Both fields wrong: both reported.
      const both = await refusedWithoutChange(() => call('POST', '/api/forums', admin, { name: 'Both', parent_id: 999999, category_id: 999999 }), 422);
      assert.deepEqual(Object.keys(both.json().errors).sort(), ['category_id', 'parent_id']);

      const other = await newForum('Goes inside', { category_id: category.id });
      const nested = await call('PATCH', `/api/forums/${other.id}`, admin, { parent_id: parent.id });
      assert.equal(nested.statusCode, 200);
      assert.deepEqual([nested.json().data.parent_id, nested.json().data.category_id], [parent.id, null]);
      const out = await call('PATCH', `/api/forums/${other.id}`, admin, { parent_id: null, category_id: category.id });
      assert.deepEqual([out.json().data.parent_id, out.json().data.category_id], [null, category.id], 'taken out and put in a category at once');
    });

    it('is held by the database: a subforum cannot get a category by any path', async () => {
      const category = await newCategory('Check constraint');
      const parent = await newForum('Top', { category_id: category.id });
      const child = await newForum('Below', { parent_id: parent.id });
      await assert.rejects(t.database.db.updateTable('forums').set({ category_id: category.id }).where('id', '=', child.id).execute());
    });
  });

  it('is documented in the OpenAPI document with every status', async () => {
    const document = (await call('GET', '/api/openapi.json')).json();
    const list = document.paths['/api/categories'];
    const one = document.paths['/api/categories/{id}'];
    assert.ok(list.get.responses['200'] && list.post.responses['201'] && list.post.responses['422']);
    assert.ok(one.get.responses['404'] && one.patch.responses['200'] && one.patch.responses['422']);
    assert.ok(one.delete.responses['204'] && one.delete.responses['409'] && one.delete.responses['403']);
    const forumBody = document.paths['/api/forums'].post.requestBody.content['application/json'].schema;
    assert.ok(forumBody.properties.category_id, 'forum create takes category_id');
  });
});
