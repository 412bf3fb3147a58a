// Polls in topics through the API (docs/polls.md) on each database: starting
// one with a topic or later, its rules, voting (single, several, changed,
// taken back), who sees the counts, closing and deleting, the forum's `vote`
// and `poll_create` rights, a locked topic, racing votes counted once, and
// refusals that change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { TestClock } from '../helpers/clock.ts';
import { createRule } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface Poll {
  id: number;
  topic_id: number;
  question: string;
  options: Array<{ id: number; text: string; votes: number | null }>;
  max_choices: number;
  results: string;
  allow_change: boolean;
  ends_at: string | null;
  closed_at: string | null;
  open: boolean;
  voters: number;
  results_shown: boolean;
  my_vote: number[] | null;
  permissions: { vote: boolean; change: boolean; manage: boolean };
}

type Who = SignedIn | null;

describeEachDatabase('polls API', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let forum: ForumRow;
  const clock = new TestClock('2026-03-01T10:00:00.000Z');

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Who, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
    return {
      status: response.statusCode,
      body: response.body === '' ? null : (response.json() as { data: Poll; errors?: Record<string, string[]>; message?: string }),
    };
  };

  /** A new topic with this poll (defaults filled in), by `who`; answers the topic's id and its poll. */
  async function topicWithPoll(poll: Record<string, unknown>, who: SignedIn = alice, forumId = forum.id): Promise<{ topicId: number; poll: Poll }> {
    clock.advance(60_000);
    const created = await api('POST', '/api/topics', who, {
      forum_id: forumId,
      title: 'Which client do you seed with?',
      body: 'Vote below.',
      poll: { question: 'Your client?', options: ['qBittorrent', 'Transmission', 'Deluge'], ...poll },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const topicId = (created.body!.data as unknown as { id: number }).id;
    const read = await api('GET', `/api/topics/${topicId}/poll`, who);
    assert.equal(read.status, 200);
    return { topicId, poll: read.body!.data };
  }

  const vote = (topicId: number, who: Who, optionIds: number[]) => api('PUT', `/api/topics/${topicId}/poll/vote`, who, { option_ids: optionIds });
  const pollOf = async (topicId: number, who: Who) => (await api('GET', `/api/topics/${topicId}/poll`, who)).body!.data;

  /** Nothing in any table changed while `request` ran (a token's use is recorded first, by a read). */
  async function writesNothing<R>(request: () => Promise<R>, who: Who = null): Promise<R> {
    if (who !== null) await api('GET', '/api/user', who);
    const before = await snapshotTables(t);
    const result = await request();
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return result;
  }

  before(async () => {
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    admin = await signIn(t, 'admin', 'Poll Admin');
    moderator = await signIn(t, 'moderator', 'Poll Moderator');
    alice = await signIn(t, 'user', 'Poll Alice');
    bob = await signIn(t, 'user', 'Poll Bob');
    forum = await t.services.forum.createForum({ name: 'Polls' });
  });
  after(() => t.close());

  describe('starting a poll', () => {
    it('opens with a topic: the question, the answers in order, nothing counted yet', async () => {
      const { topicId, poll } = await topicWithPoll({});
      assert.equal(poll.topic_id, topicId);
      assert.equal(poll.question, 'Your client?');
      assert.deepEqual(
        poll.options.map((option) => option.text),
        ['qBittorrent', 'Transmission', 'Deluge'],
      );
      assert.deepEqual([poll.max_choices, poll.results, poll.allow_change, poll.ends_at, poll.open, poll.voters], [1, 'after_vote', false, null, true, 0]);
      // Results after voting: the author, who has not voted, sees no counts yet; may vote and manage.
      assert.equal(poll.results_shown, false);
      assert.ok(poll.options.every((option) => option.votes === null));
      assert.deepEqual(poll.permissions, { vote: true, change: false, manage: true });
      assert.equal(poll.my_vote, null);
      // A guest sees it, may do nothing with it.
      const seen = await pollOf(topicId, null);
      assert.deepEqual(seen.permissions, { vote: false, change: false, manage: false });
    });

    it('refuses a poll that breaks its rules, naming the field, and writes neither topic nor poll', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ options: ['Yes', 'yes'] }, 'poll.options'],
        [{ options: ['Yes', '  '] }, 'poll.options'],
        [{ options: ['Only one'] }, 'poll.options'],
        [{ options: Array.from({ length: 51 }, (_, n) => `Answer ${n}`) }, 'poll.options'],
        [{ max_choices: 4 }, 'poll.max_choices'],
        [{ max_choices: 0 }, 'poll.max_choices'],
        [{ ends_at: '2026-02-01T00:00:00Z' }, 'poll.ends_at'],
        [{ ends_at: '2040-01-01T00:00:00Z' }, 'poll.ends_at'],
        [{ ends_at: '2026-13-45T00:00:00Z' }, 'poll.ends_at'],
        [{ results: 'never' }, 'poll.results'],
        [{ question: '' }, 'poll.question'],
      ];
      for (const [poll, field] of cases) {
        const answer = await writesNothing(
          () =>
            api('POST', '/api/topics', alice, {
              forum_id: forum.id,
              title: 'Refused poll',
              body: 'Text.',
              poll: { question: 'Q?', options: ['A', 'B', 'C'], ...poll },
            }),
          alice,
        );
        assert.equal(answer.status, 422, `${JSON.stringify(poll)}: ${JSON.stringify(answer.body)}`);
        assert.ok(
          Object.keys(answer.body!.errors ?? {}).some((key) => key.startsWith(field)),
          `${JSON.stringify(poll)} names ${field}: ${JSON.stringify(answer.body)}`,
        );
      }
    });

    it('screens the question and answers with the word filters: a blocked word is refused, a replaced one shown replaced', async () => {
      await createRule(t, 'pollblockedword', 'block', ['posts']);
      await createRule(t, 'pollrudeword', 'replace', ['posts'], 'nice');
      const refused = await writesNothing(
        () =>
          api('POST', '/api/topics', alice, {
            forum_id: forum.id,
            title: 'Filtered',
            body: 'Text.',
            poll: { question: 'Q?', options: ['A', 'pollblockedword'] },
          }),
        alice,
      );
      assert.equal(refused.status, 422);
      assert.ok(refused.body!.errors!['poll.options']);
      const { poll } = await topicWithPoll({ question: 'A pollrudeword question?', options: ['pollrudeword', 'B'] });
      assert.equal(poll.question, 'A nice question?');
      assert.equal(poll.options[0]!.text, 'nice');
    });

    it('is added to an existing topic by its author or a moderator, once', async () => {
      const topic = await t.services.forum.createTopic(alice.user, { forum_id: forum.id, title: 'No poll yet', body: 'Text.' });
      const body = { question: 'Later?', options: ['Yes', 'No'] };
      assert.equal((await writesNothing(() => api('POST', `/api/topics/${topic.id}/poll`, bob, body), bob)).status, 403);
      assert.equal((await api('POST', `/api/topics/${topic.id}/poll`, null, body)).status, 401);
      const added = await api('POST', `/api/topics/${topic.id}/poll`, alice, body);
      assert.equal(added.status, 201);
      assert.equal(added.body!.data.question, 'Later?');
      assert.equal((await writesNothing(() => api('POST', `/api/topics/${topic.id}/poll`, moderator, body), moderator)).status, 409);
      assert.equal((await api('GET', `/api/topics/${topic.id + 1000}/poll`, alice)).status, 404);
      // Two at once: the topic's one poll is the database's rule.
      const racing = await t.services.forum.createTopic(alice.user, { forum_id: forum.id, title: 'Racing polls', body: 'Text.' });
      const answers = await Promise.all([alice, moderator, alice].map((who) => api('POST', `/api/topics/${racing.id}/poll`, who, body)));
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409, 409]);
    });
  });

  describe('voting', () => {
    it('counts one vote per member; a second is refused unless the poll lets voters change', async () => {
      const { topicId, poll } = await topicWithPoll({});
      const [first, second, third] = poll.options.map((option) => option.id) as [number, number, number];
      const voted = await vote(topicId, alice, [second]);
      assert.equal(voted.status, 200);
      assert.deepEqual(voted.body!.data.my_vote, [second]);
      assert.equal(voted.body!.data.results_shown, true);
      assert.deepEqual(
        voted.body!.data.options.map((option) => option.votes),
        [0, 1, 0],
      );
      assert.deepEqual(voted.body!.data.permissions, { vote: false, change: false, manage: true });
      assert.equal((await writesNothing(() => vote(topicId, alice, [third]), alice)).status, 409);
      assert.equal((await writesNothing(() => vote(topicId, bob, [first, third]), bob)).status, 422, 'one answer only');
      assert.equal((await writesNothing(() => vote(topicId, bob, [999_999]), bob)).status, 422, 'an answer of no poll');
      assert.equal((await writesNothing(() => vote(topicId, bob, []), bob)).status, 422);
      assert.equal((await writesNothing(() => vote(topicId, null, [first]), null)).status, 401);
      assert.equal((await writesNothing(() => api('DELETE', `/api/topics/${topicId}/poll/vote`, alice), alice)).status, 403, 'no change allowed');
      // Bob has not voted: the counts are not his to see yet.
      assert.ok((await pollOf(topicId, bob)).options.every((option) => option.votes === null));
      assert.equal((await pollOf(topicId, bob)).voters, 1);
    });

    it('takes several answers up to the maximum, and lets voters change or take back their vote where allowed', async () => {
      const { topicId, poll } = await topicWithPoll({ max_choices: 2, allow_change: true, results: 'always' });
      const [first, second, third] = poll.options.map((option) => option.id) as [number, number, number];
      assert.ok(poll.results_shown, 'always: shown before voting');
      assert.equal((await vote(topicId, bob, [first, second, third])).status, 422);
      assert.equal((await vote(topicId, bob, [first, second, second])).status, 200, 'an answer named twice counts once');
      assert.deepEqual((await pollOf(topicId, bob)).my_vote, [first, second]);
      const changed = await vote(topicId, bob, [third]);
      assert.equal(changed.status, 200);
      assert.deepEqual(
        changed.body!.data.options.map((option) => option.votes),
        [0, 0, 1],
      );
      assert.deepEqual(changed.body!.data.permissions, { vote: false, change: true, manage: false });
      const taken = await api('DELETE', `/api/topics/${topicId}/poll/vote`, bob);
      assert.equal(taken.status, 200);
      assert.deepEqual([taken.body!.data.voters, taken.body!.data.my_vote], [0, null]);
      assert.equal((await api('DELETE', `/api/topics/${topicId}/poll/vote`, bob)).status, 409);
    });

    it('counts racing votes once each: many members at once, and one member many times at once', async () => {
      const { topicId, poll } = await topicWithPoll({});
      const options = poll.options.map((option) => option.id);
      const voters = await Promise.all(Array.from({ length: 12 }, (_, n) => signIn(t, 'user', `Racer ${n}`)));
      const answers = await Promise.all(voters.map((voter, n) => vote(topicId, voter, [options[n % 3]!])));
      assert.deepEqual(
        answers.map((answer) => answer.status),
        voters.map(() => 200),
      );
      const twice = await Promise.all(Array.from({ length: 8 }, (_, n) => vote(topicId, alice, [options[n % 3]!])));
      assert.deepEqual(twice.map((answer) => answer.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
      const counted = await pollOf(topicId, admin);
      assert.equal(counted.voters, 13);
      assert.equal(
        counted.options.reduce((sum, option) => sum + option.votes!, 0),
        13,
      );
      // Four racers chose each answer; Alice's one counted vote adds to hers.
      const alicesChoice = (await pollOf(topicId, alice)).my_vote![0];
      assert.deepEqual(
        counted.options.map((option) => option.votes),
        counted.options.map((option) => (option.id === alicesChoice ? 5 : 4)),
      );
    });

    it('races changes of one member’s vote to one answer, never several', async () => {
      const { topicId, poll } = await topicWithPoll({ allow_change: true });
      const options = poll.options.map((option) => option.id);
      const changes = await Promise.all(Array.from({ length: 8 }, (_, n) => vote(topicId, bob, [options[n % 3]!])));
      assert.ok(changes.every((answer) => answer.status === 200));
      const counted = await pollOf(topicId, bob);
      assert.equal(counted.voters, 1);
      assert.equal(counted.my_vote!.length, 1);
      assert.equal(
        counted.options.reduce((sum, option) => sum + option.votes!, 0),
        1,
      );
    });

    it('takes a member’s ballot with their account', async () => {
      const { topicId, poll } = await topicWithPoll({ results: 'always' });
      const leaving = await signIn(t, 'user', 'Poll Leaver');
      await vote(topicId, leaving, [poll.options[0]!.id]);
      assert.equal((await pollOf(topicId, null)).voters, 1);
      await t.services.users.delete(leaving.user.id);
      const after = await pollOf(topicId, null);
      assert.deepEqual([after.voters, after.options[0]!.votes], [0, 0]);
    });
  });

  describe('results, ends and closing', () => {
    it('shows the counts after the end only, to voters too; moderators see them all along', async () => {
      const { topicId, poll } = await topicWithPoll({ results: 'after_end', ends_at: '2026-03-10T00:00:00Z' });
      const answer = await vote(topicId, bob, [poll.options[0]!.id]);
      assert.equal(answer.body!.data.results_shown, false);
      assert.ok(answer.body!.data.options.every((option) => option.votes === null));
      assert.equal((await pollOf(topicId, moderator)).options[0]!.votes, 1);
      clock.set('2026-03-10T00:00:01.000Z');
      const ended = await pollOf(topicId, null);
      assert.deepEqual([ended.open, ended.results_shown, ended.options[0]!.votes], [false, true, 1]);
      assert.equal((await writesNothing(() => vote(topicId, alice, [poll.options[1]!.id]), alice)).status, 403, 'ended');
    });

    it('is closed and reopened by its author or a moderator, who alone may delete it (a moderator’s acts logged)', async () => {
      const { topicId, poll } = await topicWithPoll({});
      assert.equal((await writesNothing(() => api('PATCH', `/api/topics/${topicId}/poll`, bob, { closed: true }), bob)).status, 403);
      const closed = await api('PATCH', `/api/topics/${topicId}/poll`, alice, { closed: true });
      assert.equal(closed.status, 200);
      assert.deepEqual([closed.body!.data.open, closed.body!.data.results_shown], [false, true]);
      assert.equal((await writesNothing(() => vote(topicId, bob, [poll.options[0]!.id]), bob)).status, 403);
      const reopened = await api('PATCH', `/api/topics/${topicId}/poll`, moderator, { closed: false });
      assert.equal(reopened.body!.data.open, true);
      assert.equal((await vote(topicId, bob, [poll.options[0]!.id])).status, 200);

      assert.equal((await writesNothing(() => api('DELETE', `/api/topics/${topicId}/poll`, bob), bob)).status, 403);
      assert.equal((await api('DELETE', `/api/topics/${topicId}/poll`, moderator)).status, 204);
      assert.equal((await api('GET', `/api/topics/${topicId}/poll`, alice)).status, 404);
      const log = await t.services.forum.moderationLog.list({ action: null, actorName: null, topicId }, { page: 1, perPage: 10, offset: 0 });
      assert.deepEqual(
        log.rows.map((row) => row.action),
        ['delete_poll', 'reopen_poll'],
      );
    });

    it('takes no vote in a locked topic', async () => {
      const { topicId, poll } = await topicWithPoll({});
      await t.services.forum.topicModeration.lock(topicId, moderator.user, true);
      assert.equal((await writesNothing(() => vote(topicId, bob, [poll.options[0]!.id]), bob)).status, 403);
      assert.equal((await pollOf(topicId, bob)).permissions.vote, false);
    });
  });

  describe("the forum's rights", () => {
    it('follows vote and poll_create: refused where the level is above the member, hidden where the forum is', async () => {
      const strict = await t.services.forum.createForum({ name: 'Strict polls' });
      const { topicId, poll } = await topicWithPoll({}, moderator, strict.id);
      const set = await api('PUT', `/api/forums/${strict.id}/permissions`, admin, {
        levels: { ...OPEN_LEVELS, vote: 'moderators', poll_create: 'admins' },
        grants: [],
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal((await pollOf(topicId, bob)).permissions.vote, false);
      assert.equal((await writesNothing(() => vote(topicId, bob, [poll.options[0]!.id]), bob)).status, 403);
      assert.equal((await vote(topicId, moderator, [poll.options[0]!.id])).status, 200);
      const refused = await writesNothing(
        () => api('POST', '/api/topics', bob, { forum_id: strict.id, title: 'No polls for me', body: 'Text.', poll: { question: 'Q?', options: ['A', 'B'] } }),
        bob,
      );
      assert.equal(refused.status, 403);
      assert.equal((await api('POST', '/api/topics', bob, { forum_id: strict.id, title: 'A topic is fine', body: 'Text.' })).status, 201);

      await api('PUT', `/api/forums/${strict.id}/permissions`, admin, { levels: { ...OPEN_LEVELS, view: 'moderators', read: 'moderators' }, grants: [] });
      assert.equal((await api('GET', `/api/topics/${topicId}/poll`, bob)).status, 404);
      assert.equal((await writesNothing(() => vote(topicId, bob, [poll.options[0]!.id]), bob)).status, 404);
    });
  });
});
