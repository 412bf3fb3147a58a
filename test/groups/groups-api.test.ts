// Groups through the API (docs/access.md, "Groups"): every route's success
// and refusal paths, hidden groups as 404 to everyone but their members and
// admins, joining each type, leaders accepting and refusing, members leaving,
// names unique whatever their case, hostile input refused without a 500,
// membership applying on the member's next request, and the OpenAPI entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface Person {
  id: number;
  name: string;
  url: string;
}
interface Group {
  id: number;
  name: string;
  description: string;
  type: 'open' | 'closed' | 'hidden';
  members_count: number;
  leader: Person | null;
  url: string;
}
interface Member extends Person {
  role: 'member' | 'leader';
  status: 'accepted' | 'pending';
  joined_at: string;
}

describeEachDatabase('groups API', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let leader: SignedIn;
  let member: SignedIn;
  let outsider: SignedIn;
  let counter = 0;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Group Admin');
    leader = await signIn(t, 'user', 'Group Leader');
    member = await signIn(t, 'user', 'Group Member');
    outsider = await signIn(t, 'user', 'Group Outsider');
    // A token's first use is written down (last_used_at); used once here, a refused request changes no row.
    for (const who of [admin, leader, member, outsider]) await t.app.inject({ method: 'GET', url: '/api/hello', headers: who.headers });
  });
  after(() => t.close());

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, who?: SignedIn, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const unique = (name: string) => `${name} ${++counter}`;
  const newGroup = async (type: Group['type'], name = unique(`${type} group`), description = ''): Promise<Group> => {
    const response = await call('POST', '/api/groups', admin, { name, type, description });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data;
  };
  /** A group with `leader` as its leader and `member` as a plain member. */
  const staffed = async (type: Group['type']): Promise<Group> => {
    const group = await newGroup(type);
    assert.equal((await call('PUT', `/api/groups/${group.id}/members/${leader.user.id}`, admin, { role: 'leader' })).statusCode, 200);
    assert.equal((await call('PUT', `/api/groups/${group.id}/members/${member.user.id}`, admin, { role: 'member' })).statusCode, 200);
    return group;
  };
  const refusedWithoutChange = async (request: () => Promise<{ statusCode: number; body: string }>, status: number) => {
    const before = await snapshotTables(t);
    const response = await request();
    assert.equal(response.statusCode, status, response.body);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return response;
  };
  const listed = async (who?: SignedIn): Promise<Group[]> => {
    const response = await call('GET', '/api/groups?per_page=100', who);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const members = async (group: Group, who: SignedIn | undefined, status = 'accepted'): Promise<Member[]> => {
    const response = await call('GET', `/api/groups/${group.id}/members?status=${status}`, who);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };

  describe('POST /api/groups', () => {
    it('creates a group for admins (201) with its fields, no members and no leader', async () => {
      const response = await call('POST', '/api/groups', admin, { name: 'Release Team', description: 'We check releases.', type: 'closed' });
      assert.equal(response.statusCode, 201, response.body);
      const group = response.json().data;
      assert.deepEqual(Object.keys(group).sort(), ['created_at', 'description', 'id', 'leader', 'members_count', 'name', 'type', 'updated_at', 'url']);
      assert.deepEqual(
        [group.name, group.description, group.type, group.members_count, group.leader],
        ['Release Team', 'We check releases.', 'closed', 0, null],
      );
      assert.equal(group.url, `/group/release-team.${group.id}/`);
      assert.deepEqual((await call('GET', `/api/groups/${group.id}`)).json().data, group);
      // The description may be left out.
      const bare = await call('POST', '/api/groups', admin, { name: 'No description', type: 'open' });
      assert.equal(bare.statusCode, 201);
      assert.equal(bare.json().data.description, '');
    });

    it('refuses guests (401), members and moderators (403), changing nothing', async () => {
      const body = { name: 'Not yours', type: 'open' };
      assert.equal((await refusedWithoutChange(() => call('POST', '/api/groups', undefined, body), 401)).body.includes('UNAUTHENTICATED'), true);
      const moderator = await signIn(t, 'moderator');
      await call('GET', '/api/hello', moderator);
      for (const who of [member, moderator]) {
        const response = await refusedWithoutChange(() => call('POST', '/api/groups', who, body), 403);
        assert.equal(JSON.parse(response.body).error.code, 'FORBIDDEN');
      }
    });

    it('validates every field at once (422) and creates nothing', async () => {
      const cases: Array<[unknown, Record<string, string[]>]> = [
        [{}, { name: ['The name field is required.'], type: ['The type field is required.'] }],
        [
          { name: ' \u200b ', type: 'secret' },
          {
            name: ['The name field is required.', 'The name field contains an invisible character (U+200B); use only characters that show.'],
            type: ['The selected type is invalid.'],
          },
        ],
        [
          { name: 'x'.repeat(61), type: 'open', description: 'd'.repeat(2001) },
          {
            name: ['The name field must not be greater than 60 characters.'],
            description: ['The description field must not be greater than 2000 characters.'],
          },
        ],
        [
          { name: 7, type: ['open'], description: null },
          {
            name: ['The name field must be a string.'],
            type: ['The type field must be a string.', 'The selected type is invalid.'],
            description: ['The description field must be a string.'],
          },
        ],
        [{ name: 'Uploaders\u200b', type: 'open' }, { name: ['The name field contains an invisible character (U+200B); use only characters that show.'] }],
        [{ name: ' Uploaders', type: 'open' }, { name: ['The name field format is invalid.'] }],
        [{ name: 'Two\nlines', type: 'open' }, { name: ['The name field format is invalid.'] }],
      ];
      for (const [body, errors] of cases) {
        const response = await refusedWithoutChange(() => call('POST', '/api/groups', admin, body), 422);
        assert.deepEqual(JSON.parse(response.body).errors, errors, JSON.stringify(body));
      }
      // 60 code points is the limit, whatever their UTF-16 length.
      assert.equal((await call('POST', '/api/groups', admin, { name: '😀'.repeat(60), type: 'open' })).statusCode, 201);
    });

    it('refuses a name another group has, whatever its letter case or width (422), held by the unique key too', async () => {
      await newGroup('open', 'Seeders');
      for (const name of ['Seeders', 'SEEDERS', 'seeders', 'Ｓｅｅｄｅｒｓ']) {
        const response = await refusedWithoutChange(() => call('POST', '/api/groups', admin, { name, type: 'closed' }), 422);
        assert.deepEqual(JSON.parse(response.body).errors, { name: ['The name has already been taken.'] }, name);
      }
      // Two at once: one is created, the other refused, never a 500.
      const both = await Promise.all([
        call('POST', '/api/groups', admin, { name: 'Racers', type: 'open' }),
        call('POST', '/api/groups', admin, { name: 'RACERS', type: 'open' }),
      ]);
      assert.deepEqual(both.map((response) => response.statusCode).sort(), [201, 422]);
    });

    it('refuses hostile bodies without a 500: not JSON (400), an array, a NUL', async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/groups',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: '{"name":',
      });
      assert.equal(broken.statusCode, 400);
      assert.equal((await call('POST', '/api/groups', admin, [{ name: 'x', type: 'open' }])).statusCode, 422);
      const nul = await call('POST', '/api/groups', admin, { name: 'a\u0000b', type: 'open', description: 'c\u0000d' });
      assert.equal(nul.statusCode, 422, nul.body);
      assert.deepEqual(Object.keys(nul.json().errors).sort(), ['description', 'name']);
    });
  });

  describe('GET /api/groups and /api/groups/{id}', () => {
    it('lists the groups by name with their accepted members counted and their first leader', async () => {
      const group = await staffed('closed');
      const second = await signIn(t, 'user', unique('Second leader'));
      await call('PUT', `/api/groups/${group.id}/members/${second.user.id}`, admin, { role: 'leader' });
      await call('POST', `/api/groups/${group.id}/join`, outsider);
      const found = (await listed()).find((row) => row.id === group.id)!;
      assert.equal(found.members_count, 3, 'leaders and members, not the request');
      assert.deepEqual(found.leader, { id: leader.user.id, name: 'Group Leader', url: `/profile/group-leader.${leader.user.id}/` });
      const names = (await listed()).map((row) => row.name);
      assert.deepEqual(
        names,
        [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)),
      );
    });

    it('pages the list with the contract’s links and meta, and refuses a bad page (422)', async () => {
      for (let i = 0; i < 3; i++) await newGroup('open', unique('Paged'));
      const response = await call('GET', '/api/groups?per_page=2&page=2');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.data.length, 2);
      assert.equal(body.meta.current_page, 2);
      assert.equal(body.meta.per_page, 2);
      assert.ok(body.meta.total >= 3);
      assert.match(body.links.prev, /page=1/);
      for (const query of ['per_page=1000', 'page=0', 'page=abc']) assert.equal((await call('GET', `/api/groups?${query}`)).statusCode, 422, query);
    });

    it('shows a hidden group only to its accepted members and admins: 404 to everyone else, like an unknown group', async () => {
      const hidden = await staffed('hidden');
      const requester = await signIn(t, 'user', unique('Hidden requester'));
      for (const who of [undefined, outsider, requester]) {
        const response = await call('GET', `/api/groups/${hidden.id}`, who);
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), { message: `No query results for model [Group] ${hidden.id}.` });
        assert.ok(!(await listed(who)).some((row) => row.id === hidden.id), 'not listed');
        assert.equal((await call('GET', `/api/groups/${hidden.id}/members`, who)).statusCode, 404);
        const total = (await call('GET', '/api/groups', who)).json().meta.total;
        assert.equal(total, (await listed(who)).length, 'nor counted');
      }
      for (const who of [admin, leader, member]) {
        assert.equal((await call('GET', `/api/groups/${hidden.id}`, who)).statusCode, 200);
        assert.ok((await listed(who)).some((row) => row.id === hidden.id));
      }
      assert.deepEqual((await call('GET', '/api/groups/999999')).json(), { message: 'No query results for model [Group] 999999.' });
      for (const bad of ['abc', '0', '-1', '99999999999', '1.5']) assert.equal((await call('GET', `/api/groups/${bad}`)).statusCode, 404, bad);
    });
  });

  describe('PATCH and DELETE /api/groups/{id}', () => {
    it('lets admins rename, describe and retype a group (200); another group’s name in any case is a 422, its own in another case is fine', async () => {
      const group = await newGroup('open', unique('Rename me'));
      const other = await newGroup('open', unique('Taken name'));
      const renamed = await call('PATCH', `/api/groups/${group.id}`, admin, { name: 'Renamed Crew', description: 'Now described', type: 'closed' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.deepEqual([renamed.json().data.name, renamed.json().data.description, renamed.json().data.type], ['Renamed Crew', 'Now described', 'closed']);
      assert.equal(renamed.json().data.url, `/group/renamed-crew.${group.id}/`);
      assert.equal((await call('PATCH', `/api/groups/${group.id}`, admin, { name: 'RENAMED crew' })).statusCode, 200);
      const taken = await refusedWithoutChange(() => call('PATCH', `/api/groups/${group.id}`, admin, { name: other.name.toUpperCase() }), 422);
      assert.deepEqual(JSON.parse(taken.body).errors, { name: ['The name has already been taken.'] });
      await refusedWithoutChange(() => call('PATCH', `/api/groups/${group.id}`, admin, { type: 'public' }), 422);
      await refusedWithoutChange(() => call('PATCH', `/api/groups/${group.id}`, member, { name: 'Mine now' }), 403);
      await refusedWithoutChange(() => call('PATCH', `/api/groups/${group.id}`, undefined, { name: 'Mine now' }), 401);
      assert.equal((await call('PATCH', '/api/groups/999999', admin, { name: 'Nobody' })).statusCode, 404);
    });

    it('deletes a group with its memberships and requests for admins (204); then it is a 404', async () => {
      const group = await staffed('closed');
      await call('POST', `/api/groups/${group.id}/join`, outsider);
      await refusedWithoutChange(() => call('DELETE', `/api/groups/${group.id}`, leader), 403);
      await refusedWithoutChange(() => call('DELETE', `/api/groups/${group.id}`), 401);
      const deleted = await call('DELETE', `/api/groups/${group.id}`, admin);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, '');
      assert.equal((await call('GET', `/api/groups/${group.id}`, admin)).statusCode, 404);
      const rows = await t.database.db.selectFrom('group_members').select('user_id').where('group_id', '=', group.id).execute();
      assert.deepEqual(rows, []);
      assert.equal((await call('DELETE', `/api/groups/${group.id}`, admin)).statusCode, 404);
    });
  });

  describe('POST /api/groups/{id}/join', () => {
    it('makes a member of an open group at once (200); joining again changes nothing', async () => {
      const group = await newGroup('open');
      const joiner = await signIn(t, 'user', unique('Open joiner'));
      const joined = await call('POST', `/api/groups/${group.id}/join`, joiner);
      assert.equal(joined.statusCode, 200, joined.body);
      const data = joined.json().data;
      assert.deepEqual([data.id, data.name, data.role, data.status], [joiner.user.id, joiner.user.name, 'member', 'accepted']);
      assert.match(data.joined_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const again = await call('POST', `/api/groups/${group.id}/join`, joiner);
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json().data, data);
      assert.deepEqual(
        (await members(group, undefined)).map((row) => row.id),
        [joiner.user.id],
      );
    });

    it('files a request to a closed group (202), seen by its leaders, not a membership; again: 202, one request', async () => {
      const group = await staffed('closed');
      const asker = await signIn(t, 'user', unique('Closed asker'));
      const asked = await call('POST', `/api/groups/${group.id}/join`, asker);
      assert.equal(asked.statusCode, 202, asked.body);
      assert.deepEqual([asked.json().data.status, asked.json().data.role], ['pending', 'member']);
      assert.equal((await call('POST', `/api/groups/${group.id}/join`, asker)).statusCode, 202);
      assert.deepEqual(
        (await members(group, leader, 'pending')).map((row) => row.id),
        [asker.user.id],
      );
      assert.ok(!(await members(group, undefined)).some((row) => row.id === asker.user.id));
      assert.equal((await call('GET', `/api/groups/${group.id}`)).json().data.members_count, 2);
    });

    it('takes nobody into a hidden group: 404 to those who cannot see it, 403 for admins, who add members instead', async () => {
      const hidden = await staffed('hidden');
      await refusedWithoutChange(() => call('POST', `/api/groups/${hidden.id}/join`, outsider), 404);
      const refused = await refusedWithoutChange(() => call('POST', `/api/groups/${hidden.id}/join`, admin), 403);
      assert.equal(JSON.parse(refused.body).error.message, 'A hidden group takes members by invitation only: add them on the group’s page.');
      // A member already in it: the same answer as any repeated join.
      assert.equal((await call('POST', `/api/groups/${hidden.id}/join`, member)).statusCode, 200);
    });

    it('needs a signed-in member (401) and a group that exists (404)', async () => {
      const group = await newGroup('open');
      await refusedWithoutChange(() => call('POST', `/api/groups/${group.id}/join`), 401);
      await refusedWithoutChange(() => call('POST', '/api/groups/999999/join', outsider), 404);
      await refusedWithoutChange(() => call('POST', '/api/groups/abc/join', outsider), 404);
    });

    it('accepts a request made while the group was closed once it is open and the member joins again', async () => {
      const group = await newGroup('closed');
      const asker = await signIn(t, 'user', unique('Patient asker'));
      assert.equal((await call('POST', `/api/groups/${group.id}/join`, asker)).statusCode, 202);
      await call('PATCH', `/api/groups/${group.id}`, admin, { type: 'open' });
      const joined = await call('POST', `/api/groups/${group.id}/join`, asker);
      assert.equal(joined.statusCode, 200);
      assert.equal(joined.json().data.status, 'accepted');
    });
  });

  describe('GET /api/groups/{id}/members', () => {
    it('lists accepted members to anyone who sees the group, leaders first, with their role', async () => {
      const group = await staffed('open');
      const rows = await members(group, undefined);
      assert.deepEqual(
        rows.map((row) => [row.id, row.role, row.status]),
        [
          [leader.user.id, 'leader', 'accepted'],
          [member.user.id, 'member', 'accepted'],
        ],
      );
      assert.deepEqual(Object.keys(rows[0]!).sort(), ['id', 'joined_at', 'name', 'role', 'status', 'url']);
      const page = await call('GET', `/api/groups/${group.id}/members?per_page=1&page=2`);
      assert.deepEqual([page.json().data[0].id, page.json().meta.total], [member.user.id, 2]);
    });

    it('shows requests only to the group’s leaders and admins: 401 for guests, 403 for members, even accepted ones', async () => {
      const group = await staffed('closed');
      await call('POST', `/api/groups/${group.id}/join`, outsider);
      assert.equal((await call('GET', `/api/groups/${group.id}/members?status=pending`)).statusCode, 401);
      for (const who of [member, outsider]) {
        const response = await call('GET', `/api/groups/${group.id}/members?status=pending`, who);
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().error.message, 'Only the group’s leaders and admins can see its requests.');
      }
      for (const who of [leader, admin])
        assert.deepEqual(
          (await members(group, who, 'pending')).map((row) => row.id),
          [outsider.user.id],
        );
      assert.equal((await call('GET', `/api/groups/${group.id}/members?status=rejected`, admin)).statusCode, 422);
      await call('DELETE', `/api/groups/${group.id}/members/${outsider.user.id}`, outsider);
    });
  });

  describe('PUT /api/groups/{id}/members/{user_id}', () => {
    it('lets a leader accept a request (200): the requester becomes a member', async () => {
      const group = await staffed('closed');
      const asker = await signIn(t, 'user', unique('Accepted asker'));
      await call('POST', `/api/groups/${group.id}/join`, asker);
      const accepted = await call('PUT', `/api/groups/${group.id}/members/${asker.user.id}`, leader, { role: 'member' });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual([accepted.json().data.id, accepted.json().data.status, accepted.json().data.role], [asker.user.id, 'accepted', 'member']);
      assert.deepEqual(await members(group, leader, 'pending'), []);
      assert.ok((await members(group, undefined)).some((row) => row.id === asker.user.id));
      // Adding someone who never asked works the same way.
      const added = await signIn(t, 'user', unique('Added directly'));
      assert.equal((await call('PUT', `/api/groups/${group.id}/members/${added.user.id}`, leader, { role: 'member' })).statusCode, 200);
    });

    it('leaves appointing leaders to admins: a leader may not make a leader nor change one (403)', async () => {
      const group = await staffed('closed');
      const other = await signIn(t, 'user', unique('Would-be leader'));
      const appoint = await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${other.user.id}`, leader, { role: 'leader' }), 403);
      assert.equal(JSON.parse(appoint.body).error.message, 'Only admins appoint leaders.');
      const coLeader = await signIn(t, 'user', unique('Co-leader'));
      await call('PUT', `/api/groups/${group.id}/members/${coLeader.user.id}`, admin, { role: 'leader' });
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${coLeader.user.id}`, leader, { role: 'member' }), 403);
      // Admins appoint and demote.
      const promoted = await call('PUT', `/api/groups/${group.id}/members/${member.user.id}`, admin, { role: 'leader' });
      assert.deepEqual([promoted.statusCode, promoted.json().data.role], [200, 'leader']);
      const demoted = await call('PUT', `/api/groups/${group.id}/members/${member.user.id}`, admin, { role: 'member' });
      assert.deepEqual([demoted.statusCode, demoted.json().data.role], [200, 'member']);
    });

    it('refuses plain members (403, whatever the body), guests (401), unknown groups and users (404) and a bad role (422)', async () => {
      const group = await staffed('closed');
      const target = outsider.user.id;
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${target}`, member, { role: 'member' }), 403);
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${target}`, member, { role: 'emperor' }), 403);
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${target}`, undefined, { role: 'member' }), 401);
      await refusedWithoutChange(() => call('PUT', `/api/groups/999999/members/${target}`, admin, { role: 'member' }), 404);
      const unknown = await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/999999`, admin, { role: 'member' }), 404);
      assert.deepEqual(JSON.parse(unknown.body), { message: 'No query results for model [User] 999999.' });
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/abc`, admin, { role: 'member' }), 404);
      const bad = await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${target}`, leader, { role: 'emperor' }), 422);
      assert.deepEqual(JSON.parse(bad.body).errors, { role: ['The selected role is invalid.'] });
      await refusedWithoutChange(() => call('PUT', `/api/groups/${group.id}/members/${target}`, admin, {}), 422);
    });

    it('answers 404 for a hidden group to someone outside it, whatever they send', async () => {
      const hidden = await staffed('hidden');
      await refusedWithoutChange(() => call('PUT', `/api/groups/${hidden.id}/members/${outsider.user.id}`, outsider, { role: 'member' }), 404);
      await refusedWithoutChange(() => call('DELETE', `/api/groups/${hidden.id}/members/${member.user.id}`, outsider), 404);
    });
  });

  describe('DELETE /api/groups/{id}/members/{user_id}', () => {
    it('lets a member leave (204) and withdraw a request', async () => {
      const group = await newGroup('open');
      const leaver = await signIn(t, 'user', unique('Leaver'));
      await call('POST', `/api/groups/${group.id}/join`, leaver);
      const left = await call('DELETE', `/api/groups/${group.id}/members/${leaver.user.id}`, leaver);
      assert.equal(left.statusCode, 204);
      assert.deepEqual(await members(group, undefined), []);
      assert.equal((await call('DELETE', `/api/groups/${group.id}/members/${leaver.user.id}`, leaver)).statusCode, 404, 'not a member any more');
      const closed = await newGroup('closed');
      await call('POST', `/api/groups/${closed.id}/join`, leaver);
      assert.equal((await call('DELETE', `/api/groups/${closed.id}/members/${leaver.user.id}`, leaver)).statusCode, 204);
      assert.deepEqual(await members(closed, admin, 'pending'), []);
    });

    it('lets a leader remove members and refuse requests, not other leaders; admins remove anyone', async () => {
      const group = await staffed('closed');
      const asker = await signIn(t, 'user', unique('Refused asker'));
      await call('POST', `/api/groups/${group.id}/join`, asker);
      assert.equal((await call('DELETE', `/api/groups/${group.id}/members/${asker.user.id}`, leader)).statusCode, 204);
      assert.deepEqual(await members(group, leader, 'pending'), []);
      const coLeader = await signIn(t, 'user', unique('Kept leader'));
      await call('PUT', `/api/groups/${group.id}/members/${coLeader.user.id}`, admin, { role: 'leader' });
      const refused = await refusedWithoutChange(() => call('DELETE', `/api/groups/${group.id}/members/${coLeader.user.id}`, leader), 403);
      assert.equal(JSON.parse(refused.body).error.message, 'Only admins can change a leader’s membership.');
      await refusedWithoutChange(() => call('DELETE', `/api/groups/${group.id}/members/${leader.user.id}`, member), 403);
      await refusedWithoutChange(() => call('DELETE', `/api/groups/${group.id}/members/${member.user.id}`), 401);
      assert.equal((await call('DELETE', `/api/groups/${group.id}/members/${member.user.id}`, leader)).statusCode, 204);
      assert.equal((await call('DELETE', `/api/groups/${group.id}/members/${coLeader.user.id}`, admin)).statusCode, 204);
      assert.equal((await call('DELETE', `/api/groups/${group.id}/members/${outsider.user.id}`, admin)).statusCode, 404);
    });
  });

  it('applies a change of membership on the member’s next request, through their credentials', async () => {
    const hidden = await newGroup('hidden');
    const invited = await signIn(t, 'user', unique('Invited'));
    assert.equal((await call('GET', `/api/groups/${hidden.id}`, invited)).statusCode, 404);
    await call('PUT', `/api/groups/${hidden.id}/members/${invited.user.id}`, admin, { role: 'member' });
    assert.equal((await call('GET', `/api/groups/${hidden.id}`, invited)).statusCode, 200);
    assert.deepEqual((await call('GET', '/api/user', invited)).statusCode, 200);
    await call('DELETE', `/api/groups/${hidden.id}/members/${invited.user.id}`, admin);
    assert.equal((await call('GET', `/api/groups/${hidden.id}`, invited)).statusCode, 404);
  });

  it('is under /api/v1 too and documented in the OpenAPI document with every status', async () => {
    assert.equal((await call('GET', '/api/v1/groups')).statusCode, 200);
    const document = (await call('GET', '/api/openapi.json')).json();
    const list = document.paths['/api/groups'];
    const one = document.paths['/api/groups/{id}'];
    const roster = document.paths['/api/groups/{id}/members'];
    const member_ = document.paths['/api/groups/{id}/members/{user_id}'];
    const join = document.paths['/api/groups/{id}/join'];
    assert.ok(list.get.responses['200'] && list.post.responses['201'] && list.post.responses['422']);
    assert.ok(one.get.responses['404'] && one.patch.responses['200'] && one.delete.responses['204']);
    assert.ok(roster.get.responses['200'] && roster.get.responses['403']);
    assert.ok(member_.put.responses['200'] && member_.put.responses['403'] && member_.delete.responses['204']);
    assert.ok(join.post.responses['200'] && join.post.responses['202'] && join.post.responses['404']);
    assert.deepEqual(list.post.requestBody.content['application/json'].schema.required.sort(), ['name', 'type']);
  });
});
