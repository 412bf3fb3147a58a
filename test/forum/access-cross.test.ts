// Reads across forums keep to what each reader may read (docs/access.md):
// search (page and API, results and totals, the forum filter), the feeds,
// unread counts and marks, and the watchlist with its reply mails. A
// team-only forum (view and read private, granted to a group) is nowhere for
// guests and for members outside the group, totals included, and everywhere
// for the group's members; a forum everyone may view but only the group may
// read shows its name and no content.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { forumFeedPath, topicFeedPath } from '../../src/urls/paths.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/clock.ts';
import { asAuthUser, createForum, createTopic, loggedIn, mailsTo, reply, type Member } from '../helpers/forum.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

const OPEN = OPEN_LEVELS;
/** Only the team: neither guests nor other members know it exists. */
const TEAM_ONLY = { ...OPEN, view: 'private', read: 'private' } as const;
/** Everyone sees its name; only the team reads it. */
const NAME_ONLY = { ...OPEN, read: 'private' } as const;

/** A member with a browser session (pages), an API token, and who they are to the services (with their groups, as their credentials bring them). */
interface Reader extends Member {
  headers: Record<string, string>;
  auth: AuthUser;
}

interface SearchBody {
  data: Array<{ post_id: number; topic: { id: number }; forum: { id: number } }>;
  meta: { total: number };
  error?: { details: Record<string, unknown> };
}

describeEachDatabase('reads across forums keep to the readable forums', (db) => {
  let t: TestApp;
  const clock = new TestClock('2026-05-01T12:00:00.000Z');
  let admin: UserRow;
  let outsider: Reader;
  let teammate: Reader;
  let keeper: Reader;
  let teamGroupId: number;
  let open: ForumRow;
  let team: ForumRow;
  let nameOnly: ForumRow;
  let openTopic: TopicWithAuthor;
  let teamTopic: TopicWithAuthor;
  let nameOnlyTopic: TopicWithAuthor;

  async function reader(name: string, groupIds: number[] = []): Promise<Reader> {
    const member = await loggedIn(t, { name });
    const issued = await t.services.auth.issueToken(member.user);
    return { ...member, headers: { authorization: `Bearer ${issued.token}` }, auth: { ...asAuthUser(member.user), groupIds } };
  }

  async function join(who: Reader, groupId: number): Promise<void> {
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: who.user.id, role: 'member', status: 'accepted', created_at: clock.now().toISOString() })
      .execute();
  }

  async function setPermissions(forum: ForumRow, levels: Record<string, string>, grants: unknown[]): Promise<void> {
    const adminToken = await t.services.auth.issueToken(admin);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/forums/${forum.id}/permissions`,
      headers: { authorization: `Bearer ${adminToken.token}` },
      payload: { levels, grants },
    });
    assert.equal(response.statusCode, 200, response.body);
  }

  async function api(method: 'GET' | 'POST', url: string, who: Reader | null) {
    const response = await t.app.inject({ method, url, headers: who?.headers ?? {} });
    return { status: response.statusCode, body: response.body === '' ? null : (response.json() as SearchBody) };
  }

  async function topicOf(forum: ForumRow, title: string, body: string): Promise<TopicWithAuthor> {
    clock.advance(1000);
    return createTopic(t, admin, forum, title, body);
  }

  before(async () => {
    t = await db.start({ clock });
    admin = (await loggedIn(t, { name: 'Cross Admin', role: 'admin' })).user;
    const now = clock.now().toISOString();
    teamGroupId = (
      await t.database.db
        .insertInto('user_groups')
        .values({ name: 'Cross team', name_key: 'cross team', type: 'closed', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    outsider = await reader('Cross Outsider');
    teammate = await reader('Cross Teammate', [teamGroupId]);
    await join(teammate, teamGroupId);
    // Moderates the team forum by a grant of their own, without being in the group.
    keeper = await reader('Cross Keeper');

    open = await createForum(t, 'Cross open');
    team = await createForum(t, 'Cross team room');
    nameOnly = await createForum(t, 'Cross name only');
    await setPermissions(team, TEAM_ONLY, [
      { group_id: teamGroupId, actions: ['view', 'read', 'post', 'reply'], moderate: false },
      { user_id: keeper.user.id, actions: ['view'], moderate: true },
    ]);
    await setPermissions(nameOnly, NAME_ONLY, [{ group_id: teamGroupId, actions: ['view', 'read'], moderate: false }]);
    keeper.auth = { ...keeper.auth, moderatedForums: [team.id] };

    openTopic = await topicOf(open, 'Open zebra talk', 'zebraword for everyone');
    teamTopic = await topicOf(team, 'Secret zebra plans', 'zebraword for the team');
    nameOnlyTopic = await topicOf(nameOnly, 'Hidden zebra notes', 'zebraword behind a name');
    clock.advance(1000);
    await reply(t, admin, teamTopic, 'zebraword again for the team');
  });
  after(() => t.close());

  describe('search', () => {
    it('finds for guests and outsiders only what they may read, and counts only that', async () => {
      for (const who of [null, outsider]) {
        const found = await api('GET', '/api/search?search=zebraword&per_page=50', who);
        assert.equal(found.status, 200);
        assert.deepEqual(
          found.body!.data.map((hit) => hit.topic.id),
          [openTopic.id],
        );
        assert.equal(found.body!.meta.total, 1, 'the total counts the readable forums only');
      }
    });

    it('finds everything the team may read for a member of the group', async () => {
      const found = await api('GET', '/api/search?search=zebraword&per_page=50', teammate);
      assert.equal(found.status, 200);
      assert.deepEqual(new Set(found.body!.data.map((hit) => hit.topic.id)), new Set([openTopic.id, teamTopic.id, nameOnlyTopic.id]));
      assert.equal(found.body!.meta.total, 4);
      const inTeam = await api('GET', `/api/search?search=zebraword&forum_id=${team.id}`, teammate);
      assert.equal(inTeam.body!.meta.total, 2);
    });

    it('refuses a forum filter naming a forum one may not view exactly as an unknown forum, and finds nothing in one one may not read', async () => {
      const unknown = await api('GET', '/api/search?search=zebraword&forum_id=999999', outsider);
      assert.equal(unknown.status, 422);
      for (const who of [null, outsider]) {
        const hidden = await api('GET', `/api/search?search=zebraword&forum_id=${team.id}`, who);
        assert.equal(hidden.status, 422);
        assert.deepEqual(hidden.body!.error?.details, unknown.body!.error?.details);
        const unreadable = await api('GET', `/api/search?search=zebraword&forum_id=${nameOnly.id}`, who);
        assert.equal(unreadable.status, 200);
        assert.deepEqual(unreadable.body!.meta.total, 0);
      }
    });

    it('shows on /search/ neither the results, their count nor the forum itself', async () => {
      const page = await outsider.browser.get('/search/?search=zebraword');
      assert.equal(page.status, 200);
      assert.match(page.body, /Open zebra talk/);
      assert.doesNotMatch(page.body, /Secret zebra plans|Hidden zebra notes/);
      assert.doesNotMatch(page.body, /Cross team room/, 'not even in the forum filter');
      assert.match(page.body, /Cross name only/, 'a forum one may view is in the filter');
      assert.match(page.body, /\b1 post\b/);

      const filtered = await outsider.browser.get(`/search/?search=zebraword&forum_id=${team.id}`);
      assert.equal(filtered.status, 422);
      assert.doesNotMatch(filtered.body, /Secret zebra plans|Cross team room/);

      const forTeam = await teammate.browser.get('/search/?search=zebraword');
      assert.match(forTeam.body, /Secret zebra plans/);
      assert.match(forTeam.body, /Cross team room/);
      assert.match(forTeam.body, /\b4 posts\b/);
    });
  });

  describe('feeds', () => {
    it('list in the site feed only the topics guests may read, whoever asks', async () => {
      for (const format of ['atom', 'rss'] as const) {
        for (const browser of [new Browser(t), teammate.browser]) {
          const { status, body } = await browser.get(`/feed.${format}`);
          assert.equal(status, 200);
          assert.match(body, /Open zebra talk/);
          assert.doesNotMatch(body, /Secret zebra plans|Hidden zebra notes|zebraword for the team|behind a name/);
        }
      }
    });

    it("answer 404 for a forum's or topic's feed where guests may not view the forum, 403 where they may view but not read it", async () => {
      const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
      for (const format of ['atom', 'rss'] as const) {
        assert.equal(await get(forumFeedPath(open, format)), 200);
        assert.equal(await get(topicFeedPath(openTopic, format)), 200);
        assert.equal(await get(forumFeedPath(team, format)), 404);
        assert.equal(await get(topicFeedPath(teamTopic, format)), 404);
        assert.equal(await get(forumFeedPath(nameOnly, format)), 403);
        assert.equal(await get(topicFeedPath(nameOnlyTopic, format)), 403);
      }
      const missing = await t.app.inject({ method: 'GET', url: topicFeedPath(teamTopic, 'atom') });
      assert.doesNotMatch(missing.body, new RegExp(`\\b${team.id}\\b|Cross team room|Secret zebra`), 'nothing about the forum in the 404');
    });
  });

  describe('unread', () => {
    it('counts no unread topics in forums one may not read', async () => {
      const listed = async (who: Reader) => {
        const response = await api('GET', '/api/forums?per_page=100', who);
        assert.equal(response.status, 200);
        const forums = (response.body as unknown as { data: Array<{ id: number; unread_topics: number }> }).data;
        return new Map(forums.map((forum) => [forum.id, forum.unread_topics]));
      };
      const forOutsider = await listed(outsider);
      assert.equal(forOutsider.get(open.id), 1);
      assert.equal(forOutsider.has(team.id), false);
      assert.equal(forOutsider.get(nameOnly.id), 0, 'listed by name, nothing in it counted');
      const forTeam = await listed(teammate);
      assert.deepEqual([forTeam.get(open.id), forTeam.get(team.id), forTeam.get(nameOnly.id)], [1, 1, 1]);

      const perForum = await t.services.forum.unread.forumsWithUnread(outsider.auth);
      assert.deepEqual([...perForum.keys()], [open.id]);
    });

    it('gives no unread markers for topics of forums one may not read, whatever topics are asked about', async () => {
      const topicIds = [openTopic.id, teamTopic.id, nameOnlyTopic.id];
      const forOutsider = await t.services.forum.unread.ofTopics(outsider.auth, topicIds);
      assert.deepEqual([...forOutsider.keys()], [openTopic.id]);
      const forTeam = await t.services.forum.unread.ofTopics(teammate.auth, topicIds);
      assert.deepEqual(new Set(forTeam.keys()), new Set(topicIds));
      assert.equal(forTeam.get(teamTopic.id)!.unread_posts, 2);
      // More topics than a compiled query takes: the same answer by the other path.
      const many = [...topicIds, ...Array.from({ length: 120 }, (_, n) => 1_000_000 + n)];
      assert.deepEqual([...(await t.services.forum.unread.ofTopics(outsider.auth, many)).keys()], [openTopic.id]);
    });

    it('marks read a forum one may read; 404 for one one may not view, 403 for one one may only view', async () => {
      assert.equal((await api('POST', `/api/forums/${team.id}/read`, outsider)).status, 404);
      assert.equal((await api('POST', `/api/forums/${nameOnly.id}/read`, outsider)).status, 403);
      assert.equal((await api('POST', `/api/forums/999999/read`, outsider)).status, 404);
      assert.equal((await api('POST', `/api/forums/${team.id}/read`, teammate)).status, 204);
      assert.equal((await t.services.forum.unread.forumsWithUnread(teammate.auth)).has(team.id), false);
    });
  });

  describe('the watchlist', () => {
    it('hides, and does not count, topics of forums the member may not read', async () => {
      // The outsider watched these before the forums closed: the rows stay, the topics are not shown.
      for (const topic of [openTopic, teamTopic, nameOnlyTopic]) {
        await t.database.db.insertInto('watchlist').values({ user_id: outsider.user.id, topic_id: topic.id, created_at: clock.now().toISOString() }).execute();
        await t.services.forum.watch(teammate.auth, topic.id);
      }
      const page = { page: 1, perPage: 50, offset: 0 };
      const forOutsider = await t.services.forum.watchedTopics(outsider.auth, page);
      assert.deepEqual(
        forOutsider.rows.map((row) => row.id),
        [openTopic.id],
      );
      assert.equal(forOutsider.total, 1);
      const forTeam = await t.services.forum.watchedTopics(teammate.auth, page);
      assert.equal(forTeam.total, 3);

      const list = await outsider.browser.get('/profile/watchlist/');
      assert.equal(list.status, 200);
      assert.match(list.body, /Open zebra talk/);
      assert.doesNotMatch(list.body, /Secret zebra plans|Hidden zebra notes/);
    });

    it('mails a reply only to watchers who may read its forum, each asked with their own groups and grants', async () => {
      for (const who of [outsider, teammate, keeper])
        await t.database.db
          .insertInto('watchlist')
          .values({ user_id: who.user.id, topic_id: teamTopic.id, created_at: clock.now().toISOString() })
          .onConflict((oc) => oc.columns(['user_id', 'topic_id']).doNothing())
          .execute();
      const count = async (who: Reader) => (await mailsTo(t, who.user.email)).length;
      const before = { outsider: await count(outsider), teammate: await count(teammate), keeper: await count(keeper) };
      clock.advance(1000);
      await reply(t, admin, teamTopic, 'A reply the team hears of.');
      assert.equal(await count(outsider), before.outsider, 'no mail to a watcher outside the group');
      assert.equal(await count(teammate), before.teammate + 1);
      assert.equal(await count(keeper), before.keeper + 1, 'a moderator of the forum by a grant reads it');

      // Out of the group: no more mails, though the row stays.
      await t.database.db.deleteFrom('group_members').where('user_id', '=', teammate.user.id).execute();
      clock.advance(1000);
      await reply(t, admin, teamTopic, 'A reply the former member does not hear of.');
      assert.equal(await count(teammate), before.teammate + 1);
      assert.equal(await count(keeper), before.keeper + 2);
      await join(teammate, teamGroupId);
    });
  });
});
