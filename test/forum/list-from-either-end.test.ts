// A page past the middle of a forum's list is read from the far end
// (forum/repository.ts listSlice: issue 36), so the last page of a huge forum
// costs what the first does. Whichever end a page is read from, every viewer's
// pages, in the API and on the forum page, are the whole list cut in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listSlice } from '../../src/forum/repository.ts';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { createForum, createRule, createTopic, reply } from '../helpers/forum.ts';

describe('listSlice', () => {
  it('reads the first half from the start and the rest from the end, never past either', () => {
    assert.deepEqual(listSlice(0, 50, 100_000), { offset: 0, limit: 50, direction: 'desc' });
    assert.deepEqual(listSlice(49_950, 50, 100_000), { offset: 49_950, limit: 50, direction: 'desc' });
    assert.deepEqual(listSlice(50_000, 50, 100_000), { offset: 49_950, limit: 50, direction: 'asc' });
    assert.deepEqual(listSlice(99_950, 50, 100_000), { offset: 0, limit: 50, direction: 'asc' });
    assert.deepEqual(listSlice(100, 50, 103), { offset: 0, limit: 3, direction: 'asc' });
    assert.deepEqual(listSlice(150, 50, 103), { offset: 0, limit: 0, direction: 'asc' }, 'past the end: nothing');
    assert.deepEqual(listSlice(0, 50, 0), { offset: 0, limit: 0, direction: 'asc' });
  });
});

describeEachDatabase('a forum’s pages read from either end', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let member: SignedIn;
  let forum: ForumRow;
  const TOPICS = 103;
  const topicIds: number[] = [];

  before(async () => {
    t = await db.start();
    moderator = await signIn(t, 'moderator');
    member = await signIn(t, 'user');
    forum = await createForum(t, 'Paged both ways');
    const author = await t.services.users.get(moderator.user.id);
    for (let n = 1; n <= TOPICS; n++) topicIds.push((await createTopic(t, author, forum, `Paged topic ${n}`)).id);
    // Activity, pins, an announcement, a hidden topic and a member's held one: every part of the order and of who sees what.
    await reply(t, author, { id: topicIds[10]! }, 'Back to the top.');
    const act = async (url: string) => assert.equal((await t.app.inject({ method: 'POST', url, headers: moderator.headers })).statusCode, 200, url);
    await act(`/api/topics/${topicIds[20]}/pin`);
    await act(`/api/topics/${topicIds[90]}/pin`);
    await act(`/api/topics/${topicIds[60]}/announce`);
    await act(`/api/topics/${topicIds[30]}/hide`);
    await createRule(t, 'heldpagedword', 'moderate', ['topics']);
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/topics',
      headers: member.headers,
      payload: { forum_id: forum.id, title: 'Held heldpagedword', body: 'Waits.' },
    });
    assert.equal(held.json().data.status, 'pending');
  });
  after(() => t.close());

  /** The whole list: its first 100 read from the start, the rest from the end. */
  const whole = async (who: SignedIn | null) => {
    const [first, rest] = [await listed(who, 'per_page=100'), await listed(who, 'per_page=100&page=2')];
    return { ids: [...first.ids, ...rest.ids], total: first.total };
  };
  const listed = async (who: SignedIn | null, query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}/topics?${query}`, headers: who?.headers ?? {} });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    return { ids: (body.data as Array<{ id: number }>).map((row) => row.id), total: body.meta.total as number };
  };

  it('cuts every viewer’s whole list in order, page by page, in the API', async () => {
    for (const [name, who, seen] of [
      ['guest', null, TOPICS - 1],
      ['member', member, TOPICS],
      ['moderator', moderator, TOPICS + 1],
    ] as const) {
      const all = await whole(who);
      assert.equal(all.total, seen, `${name}: total`);
      assert.equal(all.ids.length, seen, `${name}: rows`);
      assert.deepEqual(all.ids.slice(0, 3), [topicIds[60], topicIds[90], topicIds[20]], `${name}: announced, then pinned`);
      assert.ok(all.ids.slice(3, 5).includes(topicIds[10]!), `${name}: the topic replied to next (after a held one, for those who see it)`);
      assert.equal(all.ids.at(-1), topicIds[0], `${name}: the quietest last`);
      assert.equal(new Set(all.ids).size, seen, `${name}: no topic twice`);
      const pages: number[] = [];
      for (let page = 1; page <= Math.ceil(seen / 7) + 1; page++) {
        const cut = await listed(who, `per_page=7&page=${page}`);
        assert.equal(cut.total, seen, `${name}: total on page ${page}`);
        pages.push(...cut.ids);
      }
      assert.deepEqual(pages, all.ids, `${name}: pages of 7 end to end`);
    }
  });

  it('lists the same topics on the forum page, its last page read from the end', async () => {
    const expected = (await whole(null)).ids;
    const browser = new Browser(t);
    const pages: number[] = [];
    const forumPage = (await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}` })).json().data.url as string;
    for (const page of [1, 2, 3]) {
      const response = await browser.get(`${forumPage}${page === 1 ? '' : `?page=${page}`}`);
      assert.equal(response.status, 200);
      // Each row's topic, in order of first mention (its last-post link names it again).
      const ids = [...response.body.matchAll(/href="\/topic\/[^"]*?\.(\d+)\//g)].map((match) => Number(match[1]));
      pages.push(...ids.filter((id, index) => ids.indexOf(id) === index));
    }
    assert.deepEqual(pages, expected);
  });
});
