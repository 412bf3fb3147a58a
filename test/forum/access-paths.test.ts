// The forum's rule on every path to one forum, topic or post (docs/access.md,
// issue 28): a team-only forum (view and read private, granted to a group)
// does not exist for guests and for members outside the group — its pages,
// its topics' pages with every way into them, the legacy URLs and the API all
// answer exactly as for an unknown id — while the group's members read and
// write there. A forum that may be viewed but not read shows its name and
// why (403) and nothing of its topics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser, type PageResponse } from '../helpers/browser.ts';
import { asAuthUser, loggedIn, mainText, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

const OPEN = OPEN_LEVELS;
type Levels = Record<keyof typeof OPEN, string>;

const TEAM_ONLY: Levels = { ...OPEN, view: 'private', read: 'private', post: 'private', reply: 'private' };
/** Listed for everyone, read by the team only. */
const NAME_ONLY: Levels = { ...OPEN, read: 'private' };
const UNKNOWN = 2_000_000_000;

/** A member with a browser (pages) and an API token (the API). */
interface Caller extends Member {
  headers: Record<string, string>;
  auth: AuthUser;
}

describeEachDatabase('the access rule on forum, topic and post paths', (db) => {
  let t: TestApp;
  let admin: AuthUser;
  let adminHeaders: Record<string, string>;
  let outsider: Caller;
  let teammate: Caller;
  let groupId: number;
  let team: ForumRow;
  let teamTopic: TopicWithAuthor;
  let teamReplyId: number;
  let library: ForumRow;
  let libraryTopic: TopicWithAuthor;
  let libraryReplyId: number;

  const caller = async (name: string): Promise<Caller> => {
    const member = await loggedIn(t, { name });
    const issued = await t.services.auth.issueToken(member.user);
    return { ...member, headers: { authorization: `Bearer ${issued.token}` }, auth: asAuthUser(member.user) };
  };
  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, who?: { headers: Record<string, string> }, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const setPermissions = async (forumId: number, levels: Levels, grants: unknown[]) => {
    const response = await api('PUT', `/api/forums/${forumId}/permissions`, { headers: adminHeaders }, { levels, grants });
    assert.equal(response.statusCode, 200, response.body);
  };
  const newForum = async (name: string): Promise<ForumRow> => t.services.forum.createForum({ name });
  /** Nothing in any table changed while `request` ran. */
  const writesNothing = async <R>(request: () => Promise<R>): Promise<R> => {
    const before = await snapshotTables(t);
    const result = await request();
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return result;
  };

  before(async () => {
    t = await db.start();
    const adminRow = await createUser(t, { role: 'admin', name: 'Paths Admin' });
    admin = asAuthUser(adminRow);
    adminHeaders = { authorization: `Bearer ${(await t.services.auth.issueToken(adminRow)).token}` };
    outsider = await caller('Paths Outsider');
    teammate = await caller('Paths Teammate');
    const now = new Date(0).toISOString();
    groupId = (
      await t.database.db
        .insertInto('user_groups')
        .values({ name: 'Vault keepers', name_key: 'vault keepers', type: 'closed', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: teammate.user.id, role: 'member', status: 'accepted', created_at: now })
      .execute();

    team = await newForum('Release vault');
    teamTopic = await t.services.forum.createTopic(admin, { forum_id: team.id, title: 'Vault plans', body: 'Secret opening words' });
    teamReplyId = (await t.services.forum.reply(teamTopic.id, admin, 'Secret second words')).id;
    await setPermissions(team.id, TEAM_ONLY, [{ group_id: groupId, actions: ['view', 'read', 'post', 'reply'], moderate: false }]);

    library = await newForum('Reading room');
    libraryTopic = await t.services.forum.createTopic(admin, { forum_id: library.id, title: 'Shelved volumes', body: 'Quiet opening words' });
    libraryReplyId = (await t.services.forum.reply(libraryTopic.id, admin, 'Quiet second words')).id;
    await setPermissions(library.id, NAME_ONLY, [{ group_id: groupId, actions: ['read'], moderate: false }]);
  });
  after(() => t.close());

  /** A browser as each outsider: a guest, and a member outside the group. */
  const outsiders = (): Array<[string, Browser]> => [
    ['guest', new Browser(t)],
    ['member outside the group', outsider.browser],
  ];

  /** The answer to an unknown id at the same kind of address: what a hidden forum's must equal. */
  async function assertLikeUnknown(who: string, browser: Browser, url: string, unknownUrl: string, secrets: readonly string[]): Promise<PageResponse> {
    const [page, unknown] = [await browser.get(url), await browser.get(unknownUrl)];
    assert.equal(unknown.status, 404, unknownUrl);
    assert.equal(page.status, 404, `${who} ${url}: ${page.status}`);
    assert.equal(page.location, undefined, url);
    assert.equal(mainText(page.body), mainText(unknown.body), url);
    for (const secret of secrets) assert.ok(!page.body.includes(secret), `${who} ${url} shows "${secret}"`);
    return page;
  }

  describe('pages', () => {
    it('a team-only forum and its topics are unknown to guests and outsiders on every address, legacy ones too', async () => {
      const secrets = ['Release vault', 'Vault plans', 'Secret', 'vault-plans'];
      for (const [who, browser] of outsiders()) {
        const pairs: Array<[string, string]> = [
          [`/forum/release-vault.${team.id}/`, `/forum/release-vault.${UNKNOWN}/`],
          [`/forum/x.${team.id}/`, `/forum/x.${UNKNOWN}/`],
          [`/forum/release-vault.${team.id}/?page=2`, `/forum/release-vault.${UNKNOWN}/?page=2`],
          [`/topic/vault-plans.${teamTopic.id}/`, `/topic/vault-plans.${UNKNOWN}/`],
          [`/topic/x.${teamTopic.id}/?post=${teamReplyId}`, `/topic/x.${UNKNOWN}/?post=${teamReplyId}`],
          [`/topic/x.${teamTopic.id}/?quote=${teamReplyId}`, `/topic/x.${UNKNOWN}/?quote=${teamReplyId}`],
          [`/topic/x.${teamTopic.id}/unread/`, `/topic/x.${UNKNOWN}/unread/`],
          [`/viewforum.php?f=${team.id}`, `/viewforum.php?f=${UNKNOWN}`],
          [`/viewtopic.php?t=${teamTopic.id}`, `/viewtopic.php?t=${UNKNOWN}`],
          [`/viewtopic.php?p=${teamReplyId}`, `/viewtopic.php?p=${UNKNOWN}`],
          [`/viewtopic?p=${teamReplyId}&start=0`, `/viewtopic?p=${UNKNOWN}&start=0`],
        ];
        for (const [url, unknownUrl] of pairs) await assertLikeUnknown(who, browser, url, unknownUrl, secrets);
      }
    });

    it('the group member reads the forum and its topics, legacy URLs lead there, and the forms are theirs', async () => {
      const forumPage = await teammate.browser.get(`/forum/release-vault.${team.id}/`);
      assert.equal(forumPage.status, 200);
      assert.ok(forumPage.body.includes('Vault plans'));
      assert.ok(forumPage.body.includes('name="title"'), 'the new-topic form');
      const legacy = await teammate.browser.get(`/viewtopic.php?p=${teamReplyId}`);
      assert.equal(legacy.status, 301);
      const topicPage = await teammate.browser.get(legacy.location!);
      assert.equal(topicPage.status, 200);
      assert.ok(topicPage.body.includes('Secret second words'));
      assert.ok(topicPage.body.includes(`action="${new URL(legacy.location!, 'http://x').pathname}reply/"`), 'the reply form');
      assert.equal((await teammate.browser.get(`/viewforum.php?f=${team.id}`)).status, 301);
    });

    it('a forum one may view but not read shows its name and why (403), nothing of its topics; its topics are 403, not redirected', async () => {
      for (const [who, browser] of outsiders()) {
        const page = await browser.get(`/forum/reading-room.${library.id}/`);
        assert.equal(page.status, 403, who);
        const text = mainText(page.body);
        assert.ok(text.includes('Reading room'), who);
        assert.ok(text.includes('Reading this forum needs a right you do not have.'), who);
        for (const url of [
          `/forum/reading-room.${library.id}/`,
          `/topic/x.${libraryTopic.id}/`,
          `/topic/shelved-volumes.${libraryTopic.id}/?post=${libraryReplyId}`,
          `/topic/x.${libraryTopic.id}/unread/`,
          `/viewtopic.php?t=${libraryTopic.id}`,
          `/viewtopic.php?p=${libraryReplyId}`,
        ]) {
          const refused = await browser.get(url);
          assert.equal(refused.status, 403, `${who} ${url}`);
          assert.equal(refused.location, undefined, url);
          for (const secret of ['Shelved volumes', 'shelved-volumes.', 'Quiet']) assert.ok(!refused.body.includes(secret), `${who} ${url} shows ${secret}`);
        }
      }
      // The legacy forum URL leads to the forum page, which says the same.
      assert.equal((await outsider.browser.get(`/viewforum.php?f=${library.id}`)).status, 301);
      const shelf = await teammate.browser.get(`/forum/reading-room.${library.id}/`);
      assert.equal(shelf.status, 200);
      assert.ok(shelf.body.includes('Shelved volumes'));
    });

    it('refuses before the page cache: a fragment filled for the team is never shown to others', async () => {
      // The team member fills the caches of the forum and topic pages first.
      assert.equal((await teammate.browser.get(`/forum/release-vault.${team.id}/`)).status, 200);
      const topicPath = (await teammate.browser.get(`/topic/x.${teamTopic.id}/`)).location!;
      assert.equal((await teammate.browser.get(topicPath)).status, 200);
      for (const [, browser] of outsiders()) {
        assert.equal((await browser.get(`/forum/release-vault.${team.id}/`)).status, 404);
        assert.equal((await browser.get(topicPath)).status, 404);
      }
    });
  });

  describe('API', () => {
    const hiddenCases = () => [
      { url: `/api/forums/${team.id}/topics`, message: `No query results for model [Forum] ${team.id}.` },
      { url: `/api/forums/${team.id}/moderators`, message: `No query results for model [Forum] ${team.id}.` },
      { url: `/api/topics/${teamTopic.id}`, message: `No query results for model [Topic] ${teamTopic.id}.` },
      { url: `/api/topics/${teamTopic.id}/posts`, message: `No query results for model [Topic] ${teamTopic.id}.` },
      { url: `/api/posts/${teamReplyId}`, message: `No query results for model [Post] ${teamReplyId}.` },
    ];

    it('answers guests and outsiders 404 for every resource of a team-only forum, as for unknown ids', async () => {
      for (const who of [undefined, outsider]) {
        for (const { url, message } of hiddenCases()) {
          const response = await api('GET', url, who);
          assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
          assert.deepEqual(response.json(), { message }, url);
          const unknown = await api('GET', url.replace(/\/\d+(\/|$)/, `/${UNKNOWN}$1`), who);
          assert.equal(unknown.statusCode, 404);
        }
      }
    });

    it('gives the group member every resource', async () => {
      for (const { url } of hiddenCases()) assert.equal((await api('GET', url, teammate)).statusCode, 200, url);
      const posts = await api('GET', `/api/topics/${teamTopic.id}/posts`, teammate);
      assert.deepEqual(
        posts.json().data.map((post: { body: string }) => post.body),
        ['Secret opening words', 'Secret second words'],
      );
    });

    it('answers 403 where the forum may be viewed but not read', async () => {
      for (const who of [undefined, outsider]) {
        for (const url of [
          `/api/forums/${library.id}/topics`,
          `/api/topics/${libraryTopic.id}`,
          `/api/topics/${libraryTopic.id}/posts`,
          `/api/posts/${libraryReplyId}`,
        ]) {
          const response = await api('GET', url, who);
          assert.equal(response.statusCode, 403, `${url}: ${response.body}`);
          assert.equal(response.json().message, 'Reading this forum needs a right you do not have.');
          assert.ok(!response.body.includes('Shelved'));
        }
      }
      assert.equal((await api('GET', `/api/forums/${library.id}`, outsider)).statusCode, 200, 'the forum itself is listed');
      assert.equal((await api('GET', `/api/topics/${libraryTopic.id}/posts`, teammate)).statusCode, 200);
    });

    it("asks the topic's forum as it is now: a topic moved into the team forum closes with it", async () => {
      const open = await newForum('Open hall');
      const topic = await t.services.forum.createTopic(admin, { forum_id: open.id, title: 'Moving soon', body: 'Soon gone' });
      assert.equal((await api('GET', `/api/topics/${topic.id}`, outsider)).statusCode, 200);
      assert.equal((await api('POST', `/api/topics/${topic.id}/move`, { headers: adminHeaders }, { forum_id: team.id })).statusCode, 200);
      assert.equal((await api('GET', `/api/topics/${topic.id}`, outsider)).statusCode, 404);
      assert.equal((await api('GET', `/api/topics/${topic.id}`, teammate)).statusCode, 200);
    });

    it("a staff moderator's revisions of a post follow the rule too (a forum kept for admins is unknown to them)", async () => {
      const moderatorRow = await createUser(t, { role: 'moderator', name: 'Paths Moderator' });
      const moderator = { headers: { authorization: `Bearer ${(await t.services.auth.issueToken(moderatorRow)).token}` } };
      const council = await newForum('Council');
      const topic = await t.services.forum.createTopic(admin, { forum_id: council.id, title: 'Council minutes', body: 'First draft' });
      const post = await t.services.forum.reply(topic.id, admin, 'Before');
      await t.services.forum.editPost(post.id, admin, 'After');
      assert.equal((await api('GET', `/api/posts/${post.id}/revisions`, moderator)).statusCode, 200);
      await setPermissions(council.id, { ...OPEN, view: 'admins', read: 'admins' }, []);
      const refused = await api('GET', `/api/posts/${post.id}/revisions`, moderator);
      assert.equal(refused.statusCode, 404, refused.body);
      assert.deepEqual(refused.json(), { message: `No query results for model [Post] ${post.id}.` });
    });
  });

  describe('writes', () => {
    it('outsiders write nothing into a team-only forum: unknown forum (422) or unknown topic and post (404)', async () => {
      const created = await writesNothing(() => api('POST', '/api/topics', outsider, { forum_id: team.id, title: 'Let me in', body: 'Knock knock' }));
      assert.equal(created.statusCode, 422, created.body);
      assert.deepEqual(created.json().errors, { forum_id: ['The selected forum id is invalid.'] });
      for (const [method, url, payload] of [
        ['POST', `/api/topics/${teamTopic.id}/posts`, { body: 'Knock knock' }],
        ['PATCH', `/api/topics/${teamTopic.id}`, { title: 'Renamed' }],
        ['POST', `/api/topics/${teamTopic.id}/pin`, undefined],
        ['PATCH', `/api/posts/${teamReplyId}`, { body: 'Changed' }],
        ['DELETE', `/api/posts/${teamReplyId}`, undefined],
      ] as const) {
        const response = await writesNothing(() => api(method, url, outsider, payload));
        assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      }
      // The page forms: the forum and topic pages are unknown, so are their forms.
      await outsider.browser.get('/');
      const reply = await writesNothing(() => outsider.browser.post(`/topic/x.${teamTopic.id}/reply/`, { body: 'Knock knock' }));
      assert.equal(reply.status, 404);
      const topic = await writesNothing(() => outsider.browser.post(`/forum/x.${team.id}/`, { title: 'Let me in', body: 'Knock knock' }));
      assert.equal(topic.status, 404);
    });

    it('the group member starts topics and replies there', async () => {
      const created = await api('POST', '/api/topics', teammate, { forum_id: team.id, title: 'Team notes', body: 'For us' });
      assert.equal(created.statusCode, 201, created.body);
      const reply = await api('POST', `/api/topics/${teamTopic.id}/posts`, teammate, { body: 'Count me in' });
      assert.equal(reply.statusCode, 201, reply.body);
    });

    describe('each right of a forum one reads', () => {
      let hall: ForumRow;
      let topic: TopicWithAuthor;
      let ownReplyId: number;
      let topicPath: string;

      before(async () => {
        hall = await newForum('Notice hall');
        topic = await t.services.forum.createTopic(outsider.auth, { forum_id: hall.id, title: 'My own notice', body: 'Opening' });
        ownReplyId = (await t.services.forum.reply(topic.id, outsider.auth, 'My own reply')).id;
        // Read by all, written by admins only; pinning granted to the group.
        await setPermissions(hall.id, { ...OPEN, post: 'admins', reply: 'admins', edit: 'admins', delete: 'admins', pin: 'private' }, [
          { group_id: groupId, actions: ['pin'], moderate: false },
        ]);
        topicPath = (await outsider.browser.get(`/topic/x.${topic.id}/`)).location!;
      });

      it('refuses a new topic without `post`, a reply without `reply`, an edit without `edit`, a delete without `delete` (403, nothing written)', async () => {
        const refusals = [
          ['POST', '/api/topics', { forum_id: hall.id, title: 'Another', body: 'Text' }, 'Starting topics in this forum needs a right you do not have.'],
          ['POST', `/api/topics/${topic.id}/posts`, { body: 'More' }, 'Replying in this forum needs a right you do not have.'],
          ['PATCH', `/api/posts/${ownReplyId}`, { body: 'Changed' }, 'Editing posts in this forum needs a right you do not have.'],
          ['PATCH', `/api/topics/${topic.id}`, { title: 'Renamed notice' }, 'Editing posts in this forum needs a right you do not have.'],
          ['DELETE', `/api/posts/${ownReplyId}`, undefined, 'Deleting posts in this forum needs a right you do not have.'],
          ['POST', `/api/topics/${topic.id}/pin`, undefined, 'Pinning topics in this forum needs a right you do not have.'],
        ] as const;
        for (const [method, url, payload, message] of refusals) {
          const response = await writesNothing(() => api(method, url, outsider, payload));
          assert.equal(response.statusCode, 403, `${method} ${url}: ${response.body}`);
          assert.equal(response.json().message, message, `${method} ${url}`);
        }
      });

      it('the pages offer no form the forum refuses, and say why', async () => {
        const forumPage = await outsider.browser.get(`/forum/notice-hall.${hall.id}/`);
        assert.equal(forumPage.status, 200);
        assert.ok(!forumPage.body.includes('name="title"'), 'no new-topic form');
        assert.ok(mainText(forumPage.body).includes('Starting topics in this forum needs a right you do not have.'));
        const page = await outsider.browser.get(topicPath);
        assert.equal(page.status, 200);
        assert.ok(!page.body.includes(`action="${topicPath}reply/"`), 'no reply form');
        assert.ok(mainText(page.body).includes('Replying in this forum needs a right you do not have.'));
        assert.ok(!page.body.includes('class="quote"'), 'no Quote links');
        assert.ok(!page.body.includes('class="edit"'), 'no Edit links');
        assert.ok(!page.body.includes(`name="post_id" value="${ownReplyId}"`), 'no Delete button');
        assert.ok(!page.body.includes(`action="${topicPath}pin/"`), 'no Pin button');
        const posted = await writesNothing(() => outsider.browser.post(`${topicPath}reply/`, { body: 'Sneaky' }));
        assert.equal(posted.status, 403);
      });

      it('the group granted `pin` pins and unpins without moderating (locking stays with moderators)', async () => {
        const page = await teammate.browser.get(topicPath);
        assert.ok(page.body.includes(`action="${topicPath}pin/"`), 'the Pin button');
        assert.ok(!page.body.includes(`action="${topicPath}lock/"`), 'no other moderation');
        const pinned = await teammate.browser.post(`${topicPath}pin/`, {});
        assert.equal(pinned.status, 303);
        assert.equal((await api('GET', `/api/topics/${topic.id}`, teammate)).json().data.pinned, true);
        const unpinned = await api('POST', `/api/topics/${topic.id}/unpin`, teammate);
        assert.equal(unpinned.statusCode, 200, unpinned.body);
        assert.equal(unpinned.json().data.pinned, false);
        // Locking stays the moderators'.
        assert.equal((await api('POST', `/api/topics/${topic.id}/lock`, teammate)).statusCode, 403);
      });
    });
  });
});
