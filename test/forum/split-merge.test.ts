// Splitting and merging topics (docs/moderation.md, "Split and merge"):
// moderators move chosen replies into a new topic or an existing one, and
// merge a topic into another; counts, positions, search titles, unread marks,
// watches, polls and views follow; the merged topic's addresses lead to the
// target; everything is logged; refusals change nothing. Through the API and
// through the pages, which need no script.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { makeTorrent } from '../helpers/torrents.ts';

interface TopicJson {
  id: number;
  title: string;
  forum_id: number;
  posts_count: number;
  url: string;
}

describeEachDatabase('splitting and merging topics', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let moderator: MemberWithToken;
  let member: MemberWithToken;
  let other: MemberWithToken;
  let releases: ForumRow;
  let talk: ForumRow;

  const api = (method: 'GET' | 'POST', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const topicOf = async (id: number) => (await api('GET', `/api/topics/${id}`, admin)).json<{ data: TopicJson }>().data;
  const forumCounts = async (id: number) => {
    const row = await t.database.db.selectFrom('forums').select(['topics_count', 'posts_count']).where('id', '=', id).executeTakeFirstOrThrow();
    return [Number(row.topics_count), Number(row.posts_count)];
  };
  const postsOf = (topicId: number) =>
    t.database.db.selectFrom('posts').select(['id', 'position', 'body']).where('topic_id', '=', topicId).orderBy('id').execute();
  /** A topic by `member` with an opening post and these replies, alternating authors. */
  const topicWith = async (forum: ForumRow, title: string, replies: readonly string[]): Promise<{ topic: TopicWithAuthor; ids: number[] }> => {
    const topic = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title, body: `Opening of ${title}.` });
    const ids: number[] = [];
    for (const [index, body] of replies.entries()) {
      ids.push((await t.services.forum.reply(topic.id, asAuthUser(index % 2 === 0 ? other.user : member.user), body)).id);
    }
    return { topic, ids };
  };
  const unchanged = async (request: () => Promise<{ statusCode: number; body: string }>, status: number, message?: RegExp) => {
    for (const who of [admin, moderator, member]) await api('GET', '/api/user', who);
    const before = await snapshotTables(t);
    const answer = await request();
    assert.equal(answer.statusCode, status, answer.body);
    if (message !== undefined) assert.match(answer.body, message);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
  };

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Split Admin', role: 'admin' });
    moderator = await loggedInWithToken(t, { name: 'Split Moderator', role: 'moderator' });
    member = await loggedInWithToken(t, { name: 'Split Member' });
    other = await loggedInWithToken(t, { name: 'Split Other' });
    releases = await t.services.forum.createForum({ name: 'Releases' });
    talk = await t.services.forum.createForum({ name: 'Talk' });
  });
  after(() => t.close());

  describe('split', () => {
    it('moves chosen replies into a new topic in another forum, with counts, positions, search, unread marks and the log following', async () => {
      const { topic, ids } = await topicWith(releases, 'Great release', ['Thanks!', 'Off topic: which player?', 'A hidden aside', 'Off topic: mpv.']);
      await t.services.forum.hiding.post(ids[2]!, asAuthUser(admin.user), true);
      // The member has read the whole topic.
      await t.services.forum.unread.viewed(asAuthUser(other.user), topic.id, ids[3]!);
      const [releasesBefore, talkBefore] = [await forumCounts(releases.id), await forumCounts(talk.id)];

      const split = await api('POST', `/api/topics/${topic.id}/split`, moderator, {
        post_ids: [ids[3]!, ids[1]!, ids[2]!],
        title: 'Which player?',
        forum_id: talk.id,
      });
      assert.equal(split.statusCode, 201, split.body);
      const made = split.json<{ data: TopicJson }>().data;
      assert.equal(made.title, 'Which player?');
      assert.equal(made.forum_id, talk.id);
      assert.equal(made.posts_count, 2, 'the hidden reply moves but counts nowhere');

      const newTopic = await t.database.db.selectFrom('topics').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
      assert.equal(newTopic.author_id, member.user.id, 'the first moved post’s author opens the new topic');
      assert.deepEqual(
        (await postsOf(made.id)).map((post) => [post.id, post.position]),
        [
          [ids[1], 1],
          [ids[2], null],
          [ids[3], 2],
        ],
      );
      assert.deepEqual(
        (await postsOf(topic.id)).map((post) => post.position),
        [1, 2],
      );
      assert.equal((await topicOf(topic.id)).posts_count, 2);
      assert.deepEqual(await forumCounts(releases.id), [releasesBefore[0], releasesBefore[1]! - 2]);
      assert.deepEqual(await forumCounts(talk.id), [talkBefore[0]! + 1, talkBefore[1]! + 2]);

      const found = await api('GET', `/api/search?search=${encodeURIComponent('which player')}`, member);
      assert.ok(
        found.json<{ data: Array<{ post_id: number }> }>().data.some((post) => post.post_id === ids[1]),
        'the new topic’s opening post is found by its title',
      );
      const mark = await t.database.db
        .selectFrom('topic_reads')
        .select('last_read_post_id')
        .where('user_id', '=', other.user.id)
        .where('topic_id', '=', made.id)
        .executeTakeFirst();
      assert.equal(mark?.last_read_post_id, ids[3], 'what they had read is still read in the new topic');

      const log = await api('GET', '/api/moderation-log?action=split_topic', admin);
      const entry = log.json<{ data: Array<{ topic_id: number; forum: { id: number }; to_forum: { id: number }; subject: string }> }>().data[0]!;
      assert.deepEqual([entry.topic_id, entry.forum.id, entry.to_forum.id, entry.subject], [made.id, releases.id, talk.id, 'Which player?']);
    });

    it('moves replies into an existing newer topic, and refuses what would break a topic, changing nothing', async () => {
      const { topic: older, ids } = await topicWith(talk, 'Older talk', ['One', 'Two', 'Three']);
      const { topic: newer, ids: newerIds } = await topicWith(talk, 'Newer talk', ['Four']);
      const { ids: foreign } = await topicWith(talk, 'Elsewhere', ['Five']);

      const moved = await api('POST', `/api/topics/${newer.id}/split`, moderator, { post_ids: [newerIds[0]!], topic_id: older.id });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json<{ data: TopicJson }>().data.posts_count, 5);
      assert.deepEqual(
        (await postsOf(older.id)).map((post) => [post.body, post.position]),
        [
          ['Opening of Older talk.', 1],
          ['One', 2],
          ['Two', 3],
          ['Three', 4],
          ['Four', 5],
        ],
      );

      const split = (who: MemberWithToken | null, id: number, body: object) => () => api('POST', `/api/topics/${id}/split`, who, body);
      const opening = (await postsOf(older.id))[0]!.id;
      await unchanged(split(moderator, older.id, { post_ids: [ids[0]!], topic_id: newer.id }), 422, /older than the target/);
      await unchanged(split(moderator, older.id, { post_ids: [opening], title: 'T', forum_id: talk.id }), 422, /opening post stays/);
      await unchanged(split(moderator, older.id, { post_ids: [foreign[0]!], title: 'T', forum_id: talk.id }), 422, /Only this topic/);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!], topic_id: older.id }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!] }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!], topic_id: newer.id, title: 'T', forum_id: talk.id }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [], title: 'T', forum_id: talk.id }), 422);
      await unchanged(split(moderator, older.id, { post_ids: Array.from({ length: 501 }, (_, n) => n + 1), title: 'T', forum_id: talk.id }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!], title: '   ', forum_id: talk.id }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!], title: 'T', forum_id: 99999999 }), 422);
      await unchanged(split(moderator, older.id, { post_ids: [ids[1]!], topic_id: 99999999 }), 422);
      await unchanged(split(moderator, 99999999, { post_ids: [ids[1]!], title: 'T', forum_id: talk.id }), 404);
      await unchanged(split(member, older.id, { post_ids: [ids[1]!], title: 'T', forum_id: talk.id }), 403);
      await unchanged(split(null, older.id, { post_ids: [ids[1]!], title: 'T', forum_id: talk.id }), 401);
    });
  });

  describe('merge', () => {
    it('moves every post, the poll, watchers and views into the older topic; the merged topic’s addresses lead there', async () => {
      const { topic: oldest } = await topicWith(talk, 'The very first', []);
      const { topic: target, ids: targetIds } = await topicWith(talk, 'The original', ['First reply']);
      const source = await t.services.forum.createTopic(asAuthUser(other.user), {
        forum_id: releases.id,
        title: 'A duplicate',
        body: 'Same question again.',
        poll: { question: 'Which one?', options: ['This', 'That'] },
      });
      const sourceReply = await t.services.forum.reply(source.id, asAuthUser(member.user), 'Answered in the original.');
      await t.services.forum.watch(asAuthUser(other.user), source.id);
      await t.database.db.updateTable('topics').set({ views_count: 7 }).where('id', '=', source.id).execute();
      await t.database.db.updateTable('topics').set({ views_count: 3 }).where('id', '=', target.id).execute();
      const oldPath = (await topicOf(source.id)).url;
      const [releasesBefore, talkBefore] = [await forumCounts(releases.id), await forumCounts(talk.id)];

      const merged = await api('POST', `/api/topics/${source.id}/merge`, moderator, { topic_id: target.id });
      assert.equal(merged.statusCode, 200, merged.body);
      assert.equal(merged.json<{ data: TopicJson }>().data.posts_count, 4);
      assert.deepEqual(
        (await postsOf(target.id)).map((post) => [post.body, post.position]),
        [
          ['Opening of The original.', 1],
          ['First reply', 2],
          ['Same question again.', 3],
          ['Answered in the original.', 4],
        ],
      );
      assert.equal(targetIds.length, 1);
      assert.equal((await api('GET', `/api/topics/${source.id}`, admin)).statusCode, 404);
      assert.deepEqual(await forumCounts(releases.id), [releasesBefore[0]! - 1, releasesBefore[1]! - 2]);
      assert.deepEqual(await forumCounts(talk.id), [talkBefore[0], talkBefore[1]! + 2]);
      const topicRow = await t.database.db.selectFrom('topics').select('views_count').where('id', '=', target.id).executeTakeFirstOrThrow();
      assert.equal(Number(topicRow.views_count), 10);
      assert.equal((await t.services.forum.polls.get(target.id, null)).question, 'Which one?');
      assert.ok(await t.services.forum.isWatching(asAuthUser(other.user), target.id), 'the duplicate’s watcher follows the original');

      const targetPath = (await topicOf(target.id)).url;
      const browser = new Browser(t);
      const page = await browser.get(oldPath);
      assert.equal(page.status, 301);
      assert.equal(page.headers['location'], targetPath);
      const legacy = await browser.get(`/viewtopic.php?t=${source.id}`);
      assert.equal(legacy.status, 301);
      assert.equal(legacy.headers['location'], targetPath);
      const post = await browser.get(`/viewtopic.php?p=${sourceReply.id}`);
      assert.match(String(post.headers['location']), new RegExp(`^${targetPath.replace(/[.]/g, '\\.')}`));

      // The original merged in turn: the duplicate's address follows it, one step, never a chain.
      assert.equal((await api('POST', `/api/topics/${target.id}/merge`, moderator, { topic_id: oldest.id })).statusCode, 200);
      const redirects = await t.database.db.selectFrom('topic_redirects').select(['from_topic_id', 'to_topic_id']).orderBy('from_topic_id').execute();
      assert.deepEqual(
        redirects.map((row) => [row.from_topic_id, row.to_topic_id]),
        [
          [target.id, oldest.id],
          [source.id, oldest.id],
        ],
      );
      const followed = await browser.get(oldPath);
      assert.equal(followed.headers['location'], (await topicOf(oldest.id)).url);
      const log = await api('GET', '/api/moderation-log?action=merge_topic', admin);
      assert.deepEqual(
        log.json<{ data: Array<{ subject: string; topic_id: number }> }>().data.map((entry) => [entry.subject, entry.topic_id]),
        [
          ['The original', oldest.id],
          ['A duplicate', target.id],
        ],
      );
    });

    it('merges once when two moderators merge the same topic at the same moment', async () => {
      const { topic: original } = await topicWith(talk, 'Raced original', ['One']);
      const { topic: duplicate } = await topicWith(talk, 'Raced duplicate', ['Two', 'Three']);
      const before = await forumCounts(talk.id);
      const answers = await Promise.all([
        api('POST', `/api/topics/${duplicate.id}/merge`, moderator, { topic_id: original.id }),
        api('POST', `/api/topics/${duplicate.id}/merge`, admin, { topic_id: original.id }),
      ]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 404], answers.map((answer) => answer.body).join('\n'));
      assert.equal((await topicOf(original.id)).posts_count, 5);
      assert.deepEqual(await forumCounts(talk.id), [before[0]! - 1, before[1]]);
      const log = await t.database.db
        .selectFrom('moderation_log')
        .select('id')
        .where('action', '=', 'merge_topic')
        .where('subject', '=', 'Raced duplicate')
        .execute();
      assert.equal(log.length, 1);
    });

    it('refuses the older into the newer, a release, two polls, itself, strangers and unknown topics, changing nothing', async () => {
      const { topic: older } = await topicWith(talk, 'Older one', ['Reply']);
      const { topic: newer } = await topicWith(talk, 'Newer one', ['Reply']);
      const merge = (who: MemberWithToken | null, id: number, target: number) => () => api('POST', `/api/topics/${id}/merge`, who, { topic_id: target });
      await unchanged(merge(moderator, older.id, newer.id), 422, /newer topic into the older/);
      await unchanged(merge(moderator, older.id, older.id), 422);
      await unchanged(merge(moderator, newer.id, 99999999), 422);
      await unchanged(merge(moderator, 99999999, older.id), 404);
      await unchanged(merge(member, newer.id, older.id), 403);
      await unchanged(merge(null, newer.id, older.id), 401);

      const release = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: releases.id, title: 'A release', body: 'Seed it.' });
      await t.services.tracker.torrents.upload(asAuthUser(member.user), release.id, makeTorrent({ name: 'merge-test.bin' }), 'http://localhost');
      await unchanged(merge(moderator, release.id, older.id), 422, /holds a release/);

      const pollOld = await t.services.forum.createTopic(asAuthUser(member.user), {
        forum_id: talk.id,
        title: 'Poll one',
        body: 'A.',
        poll: { question: 'Q1?', options: ['a', 'b'] },
      });
      const pollNew = await t.services.forum.createTopic(asAuthUser(member.user), {
        forum_id: talk.id,
        title: 'Poll two',
        body: 'B.',
        poll: { question: 'Q2?', options: ['a', 'b'] },
      });
      await unchanged(merge(moderator, pollNew.id, pollOld.id), 422, /Both topics have a poll/);
    });
  });

  describe('on the pages', () => {
    it('splits the ticked replies into a new topic and merges after asking, with no script', async () => {
      const { topic, ids } = await topicWith(talk, 'Page split', ['Keep me', 'Move me', 'Move me too']);
      const topicPath = (await topicOf(topic.id)).url;
      const panel = dom(await moderator.browser.get(topicPath));
      const splitLink = panel.links().find((link) => link.text.startsWith('Split'))!;
      assert.ok(splitLink.href.endsWith('/split/'), splitLink.href);
      assert.equal((await member.browser.get(splitLink.href)).status, 403);

      const form = dom(await moderator.browser.get(splitLink.href));
      assert.equal(form.count('input[name="post_ids"]'), 3, 'every reply has a box; the opening post none');
      const refused = await moderator.browser.post(splitLink.href, { post_ids: [], destination: 'new', title: 'Moved', forum_id: String(talk.id), topic: '' });
      assert.equal(refused.status, 422);
      for (const title of ['x'.repeat(256), '\u200b\u200b', 'a\u0000b']) {
        const bad = await moderator.browser.post(splitLink.href, {
          post_ids: [String(ids[1])],
          destination: 'new',
          title,
          forum_id: String(talk.id),
          topic: '',
        });
        assert.equal(bad.status, 422, JSON.stringify(title));
      }
      const done = await moderator.browser.post(splitLink.href, {
        post_ids: [String(ids[1]), String(ids[2])],
        destination: 'new',
        title: 'Moved away',
        forum_id: String(releases.id),
        topic: '',
      });
      assert.equal(done.status, 303);
      const moved = await t.database.db.selectFrom('topics').select('id').where('title', '=', 'Moved away').executeTakeFirstOrThrow();
      assert.equal(done.headers['location'], (await topicOf(moved.id)).url);

      const mergePath = panel.links().find((link) => link.text.startsWith('Merge'))!.href;
      await moderator.browser.get(mergePath);
      const asked = await moderator.browser.post(mergePath, { topic: `http://localhost${topicPath}#post-${ids[0]}` });
      assert.equal(asked.status, 422, 'a topic cannot be merged into itself');
      const movedPath = (await topicOf(moved.id)).url;
      await moderator.browser.get(`${movedPath.slice(0, -1)}/merge/`);
      const question = await moderator.browser.post(`${movedPath}merge/`, { topic: topicPath });
      assert.equal(question.status, 200);
      assert.match(dom(question).text(), /Move “Moved away” and its 2 posts into “Page split”\?/);
      assert.equal((await topicOf(moved.id)).id, moved.id, 'asking merges nothing');
      const merged = await moderator.browser.post(`${movedPath}merge/`, { topic: String(topic.id), confirmed: '1' });
      assert.equal(merged.status, 303);
      assert.equal(merged.headers['location'], topicPath);
      assert.equal((await topicOf(topic.id)).posts_count, 4);
    });
  });
});
