// A post's place in its topic, kept in the row (issue 36, src/forum/post-positions.ts):
// whatever happens to a topic's posts (replies, held replies, hides,
// restores, deletes, approvals, rejections), the numbers stay those of the
// published, shown posts in id order, and every viewer's pages, totals and
// "page of this post" stay what counting the posts they see would give.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indexInLayout, sliceOfLayout, type PostLayout } from '../../src/forum/post-positions.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createRule, createTopic } from '../helpers/forum.ts';
import { random } from '../helpers/random.ts';

describe('a viewer’s layout of a topic', () => {
  // Numbered posts 1…5; this viewer also sees one post before the first, and two after the third.
  const layout: PostLayout = {
    numbered: 5,
    extras: [
      { id: 1, after: 0 },
      { id: 7, after: 3 },
      { id: 8, after: 3 },
    ],
  };
  // The viewer's list: [x1, n1, n2, n3, x7, x8, n4, n5]

  it('slices pages across numbered and other posts', () => {
    assert.deepEqual(sliceOfLayout(layout, 0, 3), { from: 1, to: 2, extraIds: [1] });
    assert.deepEqual(sliceOfLayout(layout, 3, 3), { from: 3, to: 3, extraIds: [7, 8] });
    assert.deepEqual(sliceOfLayout(layout, 6, 3), { from: 4, to: 5, extraIds: [] });
    const past = sliceOfLayout(layout, 9, 3);
    assert.ok(past.from > past.to && past.extraIds.length === 0, 'past the end: nothing');
  });

  it('places each post', () => {
    assert.equal(indexInLayout(layout, { id: 1, position: null }), 0);
    assert.equal(indexInLayout(layout, { id: 2, position: 1 }), 1);
    assert.equal(indexInLayout(layout, { id: 8, position: null }), 5);
    assert.equal(indexInLayout(layout, { id: 9, position: 4 }), 6);
    assert.equal(indexInLayout(layout, { id: 99, position: null }), null, 'a post this viewer does not see');
  });
});

describeEachDatabase('post positions', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let author: SignedIn;
  let other: SignedIn;
  let forum: ForumRow;

  before(async () => {
    t = await db.start();
    moderator = await signIn(t, 'moderator', 'Position Moderator');
    author = await signIn(t, 'user', 'Position Author');
    other = await signIn(t, 'user', 'Position Other');
    forum = await createForum(t, 'Positions');
    await createRule(t, 'holdme', 'moderate', ['posts']);
  });
  after(() => t.close());

  const send = (as: SignedIn, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: as.headers, ...(payload === undefined ? {} : { payload }) });

  interface Row {
    id: number;
    author_id: number | null;
    status: string;
    hidden_at: string | null;
    position: number | null;
  }
  const rows = (topicId: number): Promise<Row[]> =>
    t.database.db.selectFrom('posts').select(['id', 'author_id', 'status', 'hidden_at', 'position']).where('topic_id', '=', topicId).orderBy('id').execute();

  /** What each viewer should see, by counting: the oracle the kept numbers must agree with. */
  function seenBy(all: Row[], viewer: SignedIn | null): number[] {
    return all
      .filter((row) => {
        if (viewer?.user.role === 'moderator') return true;
        if (row.hidden_at !== null) return false;
        return row.status === 'published' || (viewer !== null && row.author_id === viewer.user.id);
      })
      .map((row) => row.id);
  }

  async function check(topic: TopicWithAuthor, step: string): Promise<void> {
    const all = await rows(topic.id);
    let next = 1;
    for (const row of all) {
      const numbered = row.status === 'published' && row.hidden_at === null;
      assert.equal(row.position, numbered ? next++ : null, `${step}: post ${row.id}'s number`);
    }
    for (const viewer of [null, author, other, moderator]) {
      const expected = seenBy(all, viewer);
      const who = `${step}, ${viewer?.user.name ?? 'guest'}`;
      const listed: number[] = [];
      for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / 3)) + 1; page++) {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/topics/${topic.id}/posts?per_page=3&page=${page}`,
          ...(viewer === null ? {} : { headers: viewer.headers }),
        });
        assert.equal(response.statusCode, 200, who);
        const body = response.json();
        assert.equal(body.meta.total, expected.length, `${who}: total`);
        assert.ok(body.data.length <= 3, `${who}: page ${page} holds at most per_page posts`);
        listed.push(...body.data.map((post: { id: number }) => post.id));
      }
      assert.deepEqual(listed, expected, `${who}: the pages in order`);
      const asUser = viewer === null ? null : { id: viewer.user.id, name: viewer.user.name, email: viewer.user.email, role: viewer.user.role };
      for (const [index, id] of expected.entries()) {
        assert.equal(await t.services.forum.pageOfPost(topic, id, asUser, 3), Math.floor(index / 3) + 1, `${who}: the page of post ${id}`);
      }
    }
  }

  it('stay those of the published, shown posts through every change, for every viewer', async () => {
    const next = random(36);
    const topic = await createTopic(t, await t.services.users.get(author.user.id), forum, 'Numbered topic');
    await check(topic, 'opened');
    const replies: number[] = [];
    for (let step = 0; step < 40; step++) {
      const all = (await rows(topic.id)).slice(1); // never the opening post
      const pick = (filter: (row: Row) => boolean) => {
        const candidates = all.filter(filter);
        return candidates.length === 0 ? undefined : candidates[Math.floor(next() * candidates.length)];
      };
      const roll = next();
      let done: string;
      if (roll < 0.35 || all.length < 3) {
        const writer = next() < 0.5 ? author : other;
        const held = next() < 0.3;
        const response = await send(writer, 'POST', `/api/topics/${topic.id}/posts`, { body: held ? `holdme ${step}` : `reply ${step}` });
        assert.equal(response.statusCode, 201);
        replies.push(response.json().data.id);
        done = held ? 'held reply' : 'reply';
      } else if (roll < 0.5) {
        const row = pick((row) => row.hidden_at === null);
        if (row !== undefined) assert.equal((await send(moderator, 'POST', `/api/posts/${row.id}/hide`)).statusCode, 200);
        done = `hide ${row?.id}`;
      } else if (roll < 0.62) {
        const row = pick((row) => row.hidden_at !== null);
        if (row !== undefined) assert.equal((await send(moderator, 'POST', `/api/posts/${row.id}/restore`)).statusCode, 200);
        done = `restore ${row?.id}`;
      } else if (roll < 0.74) {
        const row = pick((row) => row.status === 'pending');
        if (row !== undefined) assert.equal((await send(moderator, 'POST', `/api/posts/${row.id}/approve`)).statusCode, 200);
        done = `approve ${row?.id}`;
      } else if (roll < 0.84) {
        const row = pick((row) => row.status === 'pending');
        if (row !== undefined) assert.ok([200, 204].includes((await send(moderator, 'POST', `/api/posts/${row.id}/reject`)).statusCode));
        done = `reject ${row?.id}`;
      } else {
        const row = pick(() => true);
        if (row !== undefined) assert.ok([200, 204].includes((await send(moderator, 'DELETE', `/api/posts/${row.id}`)).statusCode));
        done = `delete ${row?.id}`;
      }
      await check(topic, `step ${step} (${done})`);
    }
    assert.ok(replies.length >= 10, 'the walk wrote replies');
  });

  it('number replies written at once one after another', async () => {
    const topic = await createTopic(t, await t.services.users.get(author.user.id), forum, 'Busy topic');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => send(n % 2 === 0 ? author : other, 'POST', `/api/topics/${topic.id}/posts`, { body: `at once ${n}` })),
    );
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      answers.map(() => 201),
    );
    const numbers = (await rows(topic.id)).map((row) => row.position);
    assert.deepEqual(
      numbers,
      numbers.map((_, index) => index + 1),
    );
  });
});
