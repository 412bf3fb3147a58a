import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn, type SignedIn } from '../helpers/auth.ts';

describeEachDatabase('users API', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let member: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Ada Admin');
    member = await signIn(t, 'user', 'Max Member');
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  describe('POST /api/users', () => {
    it('creates an active user by default (201), with its profile URL', async () => {
      const response = await call('POST', '/api/users', admin.headers, { username: 'Новый Юзер', email: 'new@example.test', password: 'long enough' });
      assert.equal(response.statusCode, 201);
      const user = response.json().data;
      assert.equal(user.name, 'Новый Юзер');
      assert.equal(user.status, 'active');
      assert.equal(user.role, 'user');
      assert.equal(user.url, `/profile/novyy-yuzer.${user.id}/`);
      assert.match(user.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const login = await call('POST', '/api/login', {}, { username: 'новый юзер', password: 'long enough' });
      assert.equal(login.statusCode, 200);
    });

    it('reports every invalid field (422)', async () => {
      const response = await call('POST', '/api/users', admin.headers, { username: 'ab', email: 'not-an-address', password: 'short' });
      assert.equal(response.statusCode, 422);
      const errors = response.json().errors;
      assert.deepEqual(Object.keys(errors).sort(), ['email', 'password', 'username']);
      assert.deepEqual(errors.username, ['The username field must be at least 3 characters.']);
      assert.deepEqual(errors.email, ['The email field must be a valid email address.']);
    });

    it('accepts letters of any script, digits, space and _ - . but nothing else', async () => {
      for (const good of ['José_María', '李小龍', 'ab.c-d 9']) {
        const response = await call('POST', '/api/users', admin.headers, {
          username: good,
          email: `${Buffer.from(good).toString('hex')}@example.test`,
          password: 'long enough',
        });
        assert.equal(response.statusCode, 201, good);
      }
      for (const bad of ['bad<name>', ' leading', 'trailing ', 'x'.repeat(33), 'semi;colon']) {
        const response = await call('POST', '/api/users', admin.headers, { username: bad, email: 'x@example.test', password: 'long enough' });
        assert.equal(response.statusCode, 422, bad);
        assert.ok(response.json().errors.username, bad);
      }
    });

    it('refuses a user name taken in another case, and a taken e-mail address', async () => {
      const response = await call('POST', '/api/users', admin.headers, {
        username: 'MAX MEMBER',
        email: member.user.email.toUpperCase(),
        password: 'long enough',
      });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, {
        username: ['The username has already been taken.'],
        email: ['The email has already been taken.'],
      });
    });

    it('is for admins only (401 guest, 403 member)', async () => {
      assert.equal((await call('POST', '/api/users', {}, { username: 'abc', email: 'a@b.test', password: 'long enough' })).statusCode, 401);
      assert.equal((await call('POST', '/api/users', member.headers, { username: 'abc', email: 'a@b.test', password: 'long enough' })).statusCode, 403);
    });
  });

  describe('GET /api/users/:id', () => {
    it('shows e-mail, role and status to admins and to the user only', async () => {
      const url = `/api/users/${member.user.id}`;
      const guest = (await call('GET', url)).json().data;
      assert.equal(guest.name, 'Max Member');
      assert.equal(guest.email, null);
      assert.equal(guest.role, null);
      assert.equal(guest.status, null);
      const other = await signIn(t);
      assert.equal((await call('GET', url, other.headers)).json().data.email, null);
      assert.equal((await call('GET', url, member.headers)).json().data.email, member.user.email);
      const seenByAdmin = (await call('GET', url, admin.headers)).json().data;
      assert.equal(seenByAdmin.email, member.user.email);
      assert.equal(seenByAdmin.role, 'user');
      assert.equal(seenByAdmin.status, 'active');
    });

    it('answers an unknown id with 404', async () => {
      const response = await call('GET', '/api/users/999999');
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'No query results for model [User] 999999.' });
    });
  });

  describe('GET /api/users', () => {
    it('lists by name with search, role and status filters, paginated', async () => {
      await createUser(t, { name: 'Filter Moderator', role: 'moderator' });
      await createUser(t, { name: 'Filter Banned', status: 'banned' });
      const all = (await call('GET', '/api/users?per_page=2', admin.headers)).json();
      assert.equal(all.data.length, 2);
      assert.ok(all.meta.total >= 4);
      assert.ok(all.links.next);
      const names = (url: string) => call('GET', url, admin.headers).then((r) => r.json().data.map((u: { name: string }) => u.name));
      assert.deepEqual(await names('/api/users?search=filter'), ['Filter Banned', 'Filter Moderator']);
      assert.deepEqual(await names('/api/users?search=filter&role=moderator'), ['Filter Moderator']);
      assert.deepEqual(await names('/api/users?search=filter&status=banned'), ['Filter Banned']);
      assert.equal((await call('GET', '/api/users?role=king', admin.headers)).statusCode, 422);
      assert.equal((await call('GET', '/api/users', member.headers)).statusCode, 403);
    });
  });

  describe('PATCH /api/users/:id', () => {
    it('changes role and status; a ban ends the user’s logins at once', async () => {
      const target = await signIn(t);
      const promoted = await call('PATCH', `/api/users/${target.user.id}`, admin.headers, { role: 'moderator' });
      assert.equal(promoted.json().data.role, 'moderator');
      assert.equal((await call('GET', '/api/user', target.headers)).statusCode, 200);
      const banned = await call('PATCH', `/api/users/${target.user.id}`, admin.headers, { status: 'banned' });
      assert.equal(banned.json().data.status, 'banned');
      assert.equal((await call('GET', '/api/user', target.headers)).statusCode, 401);
    });

    it('does not let an admin remove their own rights or ban themselves', async () => {
      const response = await call('PATCH', `/api/users/${admin.user.id}`, admin.headers, { role: 'user', status: 'banned' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), ['role', 'status']);
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('deletes a user (204) but not the admin’s own account', async () => {
      const target = await createUser(t);
      const response = await call('DELETE', `/api/users/${target.id}`, admin.headers);
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await call('GET', `/api/users/${target.id}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/api/users/${admin.user.id}`, admin.headers)).statusCode, 422);
    });
  });
});
