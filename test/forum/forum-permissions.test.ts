// A forum's permissions (docs/access.md): the admin API that sets them whole,
// its refusals naming each bad name and changing nothing, the moderation log,
// and the rule as the forum resources show it: a team-only forum does not
// exist for guests and outsiders (404, unlisted), exists for the team and for
// admins, and each caller's `permissions` say what they may do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

const OPEN = OPEN_LEVELS;
const TEAM_ONLY = { ...OPEN, view: 'private', read: 'private', post: 'private', reply: 'private' } as const;

interface ForumResource {
  id: number;
  name: string;
  permissions: Record<string, boolean>;
}

describeEachDatabase('forum permissions', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let member: SignedIn;
  let teamMember: SignedIn;
  let forumModerator: SignedIn;
  let teamGroupId: number;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Access Admin');
    member = await signIn(t, 'user', 'Access Outsider');
    teamMember = await signIn(t, 'user', 'Access Teammate');
    forumModerator = await signIn(t, 'user', 'Access Forum Moderator');
    const now = new Date(0).toISOString();
    const group = await t.database.db
      .insertInto('user_groups')
      .values({ name: 'Release team', name_key: 'release team', type: 'closed', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    teamGroupId = group.id;
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: teamGroupId, user_id: teamMember.user.id, role: 'member', status: 'accepted', created_at: now })
      .execute();
    for (const who of [admin, member, teamMember, forumModerator]) await t.app.inject({ method: 'GET', url: '/api/hello', headers: who.headers });
  });
  after(() => t.close());

  type Method = 'GET' | 'PUT' | 'POST' | 'PATCH';
  const call = (method: Method, url: string, who?: SignedIn, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const newForum = async (name: string, fields: { parent_id?: number } = {}): Promise<ForumResource> => {
    const response = await call('POST', '/api/forums', admin, { name, ...fields });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data;
  };
  const setPermissions = async (forumId: number, body: unknown) => {
    const response = await call('PUT', `/api/forums/${forumId}/permissions`, admin, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const listedIds = async (who?: SignedIn): Promise<number[]> => {
    const response = await call('GET', '/api/forums?per_page=100', who);
    assert.equal(response.statusCode, 200);
    return response.json().data.map((forum: ForumResource) => forum.id);
  };
  const refusedWithoutChange = async <R extends { statusCode: number; body: string }>(request: () => Promise<R>, status: number): Promise<R> => {
    const before = await snapshotTables(t);
    const response = await request();
    assert.equal(response.statusCode, status, response.body);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return response;
  };

  describe('GET and PUT /api/forums/{id}/permissions', () => {
    it("shows a new forum's installer defaults and no grants", async () => {
      const forum = await newForum('Defaults');
      const response = await call('GET', `/api/forums/${forum.id}/permissions`, admin);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().data, { levels: OPEN, grants: [] });
    });

    it('replaces levels and grants whole, answers the new state and logs who did it', async () => {
      const forum = await newForum('Staff room');
      const body = {
        levels: TEAM_ONLY,
        grants: [
          { group_id: teamGroupId, actions: ['view', 'read', 'post', 'reply'], moderate: false },
          { user_id: forumModerator.user.id, actions: ['download', 'view'], moderate: true },
        ],
      };
      const state = await setPermissions(forum.id, body);
      assert.deepEqual(state, {
        levels: TEAM_ONLY,
        grants: [
          { group_id: teamGroupId, actions: ['view', 'read', 'post', 'reply'], moderate: false },
          { user_id: forumModerator.user.id, actions: ['view', 'download'], moderate: true },
        ],
      });
      assert.deepEqual((await call('GET', `/api/forums/${forum.id}/permissions`, admin)).json().data, state);
      const log = await t.database.db
        .selectFrom('moderation_log')
        .selectAll()
        .where('action', '=', 'set_permissions')
        .where('forum_id', '=', forum.id)
        .execute();
      assert.equal(log.length, 1);
      assert.equal(log[0]!.actor_id, admin.user.id);
      assert.equal(log[0]!.subject, 'Staff room');
      // The member granted `moderate` is now one of the forum's moderators (the existing moderators API reads grants);
      // the forum, team-only, has no moderators to show to a guest (it does not exist for them).
      assert.equal((await call('GET', `/api/forums/${forum.id}/moderators`)).statusCode, 404);
      assert.deepEqual((await call('GET', `/api/forums/${forum.id}/moderators`, admin)).json().data, [
        { id: forumModerator.user.id, username: 'Access Forum Moderator' },
      ]);
      const emptied = await setPermissions(forum.id, { levels: OPEN, grants: [] });
      assert.deepEqual(emptied, { levels: OPEN, grants: [] });
    });

    it('refuses guests (401), members and moderators (403), and unknown forums (404), changing nothing', async () => {
      const forum = await newForum('Guarded');
      const moderator = await signIn(t, 'moderator', 'Access Staff Moderator');
      await call('GET', '/api/hello', moderator);
      const body = { levels: TEAM_ONLY, grants: [] };
      await refusedWithoutChange(() => call('PUT', `/api/forums/${forum.id}/permissions`, undefined, body), 401);
      await refusedWithoutChange(() => call('PUT', `/api/forums/${forum.id}/permissions`, member, body), 403);
      await refusedWithoutChange(() => call('PUT', `/api/forums/${forum.id}/permissions`, moderator, body), 403);
      assert.equal((await call('GET', `/api/forums/${forum.id}/permissions`, member)).statusCode, 403);
      assert.equal((await call('GET', `/api/forums/${forum.id}/permissions`)).statusCode, 401);
      await refusedWithoutChange(() => call('PUT', '/api/forums/999999/permissions', admin, body), 404);
      assert.equal((await call('GET', '/api/forums/999999/permissions', admin)).statusCode, 404);
    });

    it('answers 422 naming each unknown action, level, group and member, a missing level and a bad holder, changing nothing', async () => {
      const forum = await newForum('Validated');
      const response = await refusedWithoutChange(
        () =>
          call('PUT', `/api/forums/${forum.id}/permissions`, admin, {
            levels: { ...OPEN, read: 'friends', download: undefined, sticky: 'all' },
            grants: [
              { group_id: 987654, actions: ['read', 'fly'] },
              { user_id: 987654, actions: [] },
              { group_id: teamGroupId, user_id: member.user.id, actions: [] },
              { actions: ['view'] },
            ],
          }),
        422,
      );
      const fields = Object.keys(response.json().errors).sort();
      assert.deepEqual(fields, ['grants.0.actions.1', 'grants.2', 'grants.3', 'levels.download', 'levels.read', 'levels.sticky']);
      // With the names right, unknown holders are named too.
      const holders = await refusedWithoutChange(
        () =>
          call('PUT', `/api/forums/${forum.id}/permissions`, admin, {
            levels: OPEN,
            grants: [
              { group_id: 987654, actions: ['read'] },
              { user_id: 987654, actions: [] },
            ],
          }),
        422,
      );
      assert.deepEqual(Object.keys(holders.json().errors).sort(), ['grants.0.group_id', 'grants.1.user_id']);
      const twice = await refusedWithoutChange(
        () =>
          call('PUT', `/api/forums/${forum.id}/permissions`, admin, {
            levels: OPEN,
            grants: [
              { group_id: teamGroupId, actions: ['read'] },
              { group_id: teamGroupId, actions: ['view'] },
            ],
          }),
        422,
      );
      assert.deepEqual(Object.keys(twice.json().errors), ['grants.1']);
      for (const hostile of [
        {},
        { levels: OPEN },
        { levels: 'all', grants: [] },
        { levels: OPEN, grants: [{ group_id: -1, actions: [] }] },
        { levels: OPEN, grants: 'x' },
      ]) {
        await refusedWithoutChange(() => call('PUT', `/api/forums/${forum.id}/permissions`, admin, hostile), 422);
      }
    });
  });

  describe('the rule, as forum resources show it', () => {
    let team: ForumResource;
    let teamSub: ForumResource;
    let open: ForumResource;

    before(async () => {
      open = await newForum('Open hall');
      team = await newForum('Release room');
      teamSub = await newForum('Release drafts', { parent_id: team.id });
      await setPermissions(team.id, { levels: TEAM_ONLY, grants: [{ group_id: teamGroupId, actions: ['view', 'read', 'post', 'reply'] }] });
      // The subforum is open by its own levels, but nobody who cannot view its parent views it.
      await setPermissions(teamSub.id, { levels: OPEN, grants: [] });
      await setPermissions(open.id, { levels: OPEN, grants: [{ user_id: forumModerator.user.id, actions: [], moderate: true }] });
    });

    it('a team-only forum and its subforums do not exist for guests and outsiders: 404 and unlisted', async () => {
      for (const who of [undefined, member, forumModerator]) {
        for (const forum of [team, teamSub]) {
          const response = await call('GET', `/api/forums/${forum.id}`, who);
          assert.equal(response.statusCode, 404);
          assert.doesNotMatch(response.body, /Release/);
        }
        const ids = await listedIds(who);
        assert.ok(ids.includes(open.id));
        assert.ok(!ids.includes(team.id) && !ids.includes(teamSub.id));
      }
    });

    it('exists for the team and for admins, with what each may do', async () => {
      for (const who of [teamMember, admin]) {
        const ids = await listedIds(who);
        assert.ok(ids.includes(team.id) && ids.includes(teamSub.id));
      }
      const asTeam = (await call('GET', `/api/forums/${team.id}`, teamMember)).json().data as ForumResource;
      assert.deepEqual(asTeam.permissions, {
        view: true,
        read: true,
        post: true,
        reply: true,
        edit: true,
        delete: true,
        pin: false,
        announce: false,
        vote: true,
        poll_create: true,
        upload: true,
        download: true,
        moderate: false,
      });
      const asAdmin = (await call('GET', `/api/forums/${team.id}`, admin)).json().data as ForumResource;
      assert.ok(Object.values(asAdmin.permissions).every(Boolean));
    });

    it("gives guests, members and a forum's moderator their own answers in an open forum", async () => {
      const of = async (who?: SignedIn) => ((await call('GET', `/api/forums/${open.id}`, who)).json().data as ForumResource).permissions;
      const guest = await of();
      assert.deepEqual(
        Object.entries(guest)
          .filter(([, may]) => may)
          .map(([action]) => action),
        ['view', 'read'],
      );
      const asMember = await of(member);
      assert.equal(asMember.post, true);
      assert.equal(asMember.pin, false);
      assert.equal(asMember.moderate, false);
      const asModerator = await of(forumModerator);
      assert.equal(asModerator.pin, true);
      assert.equal(asModerator.moderate, true);
    });

    it('follows a change of membership on the next request', async () => {
      const joiner = await signIn(t, 'user', 'Access Joiner');
      assert.equal((await call('GET', `/api/forums/${team.id}`, joiner)).statusCode, 404);
      const now = new Date(0).toISOString();
      await t.database.db
        .insertInto('group_members')
        .values({ group_id: teamGroupId, user_id: joiner.user.id, role: 'member', status: 'pending', created_at: now })
        .execute();
      assert.equal((await call('GET', `/api/forums/${team.id}`, joiner)).statusCode, 404, 'a pending request grants nothing');
      await t.database.db.updateTable('group_members').set({ status: 'accepted' }).where('user_id', '=', joiner.user.id).execute();
      assert.equal((await call('GET', `/api/forums/${team.id}`, joiner)).statusCode, 200);
      await t.database.db.deleteFrom('group_members').where('user_id', '=', joiner.user.id).execute();
      assert.equal((await call('GET', `/api/forums/${team.id}`, joiner)).statusCode, 404);
    });

    it('lists in each category only the forums the reader may view', async () => {
      const created = await call('POST', '/api/categories', admin, { title: 'Releases', display_order: 0 });
      const category = created.json().data;
      assert.equal((await call('PATCH', `/api/forums/${team.id}`, admin, { category_id: category.id })).statusCode, 200);
      const forumsIn = async (who?: SignedIn) =>
        ((await call('GET', `/api/categories/${category.id}`, who)).json().data.forums as ForumResource[]).map((forum) => forum.id);
      assert.deepEqual(await forumsIn(), []);
      assert.deepEqual(await forumsIn(member), []);
      assert.deepEqual(await forumsIn(teamMember), [team.id, teamSub.id]);
    });
  });
});
