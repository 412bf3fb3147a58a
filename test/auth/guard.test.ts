import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ADMINS, STAFF, requireRole } from '../../src/auth/guard.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn } from '../helpers/auth.ts';

describeEachDatabase('the guard', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
    t.app.post('/api/test/admin-only', { preHandler: requireRole(ADMINS) }, async (request) => ({ id: request.user?.id }));
    t.app.get('/api/test/staff', { preHandler: requireRole(STAFF) }, async () => ({ ok: true }));
  });
  after(() => t.close());

  it('answers 401 without credentials and with an invalid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-real-token-at-all' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/test/staff', headers });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error.code, 'UNAUTHENTICATED');
    }
  });

  it('answers 403 for a role that is not listed, 200 for one that is', async () => {
    const user = await signIn(t, 'user');
    const moderator = await signIn(t, 'moderator');
    const admin = await signIn(t, 'admin');
    const forbidden = await t.app.inject({ method: 'GET', url: '/api/test/staff', headers: user.headers });
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().error.code, 'FORBIDDEN');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/test/staff', headers: moderator.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/test/admin-only', headers: moderator.headers })).statusCode, 403);
    const ok = await t.app.inject({ method: 'POST', url: '/api/test/admin-only', headers: admin.headers });
    assert.deepEqual(ok.json(), { id: admin.user.id });
  });

  it('treats a session cookie like a token, and demands the CSRF token on state changes', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const session = await t.services.auth.startSession(admin.id);
    const cookies = { forum_session: session.cookieValue };

    const read = await t.app.inject({ method: 'GET', url: '/api/test/staff', cookies });
    assert.equal(read.statusCode, 200, 'reads need no CSRF token');

    const withoutToken = await t.app.inject({ method: 'POST', url: '/api/test/admin-only', cookies });
    assert.equal(withoutToken.statusCode, 403);
    assert.match(withoutToken.json().message, /CSRF/);

    const wrongToken = await t.app.inject({ method: 'POST', url: '/api/test/admin-only', cookies, headers: { 'x-csrf-token': 'guess' } });
    assert.equal(wrongToken.statusCode, 403);

    const withToken = await t.app.inject({ method: 'POST', url: '/api/test/admin-only', cookies, headers: { 'x-csrf-token': session.csrfToken } });
    assert.equal(withToken.statusCode, 200);
    assert.deepEqual(withToken.json(), { id: admin.id });
  });

  it('ends a session on logout and when the user is banned', async () => {
    const member = await createUser(t);
    const first = await t.services.auth.startSession(member.id);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies: { forum_session: first.cookieValue },
      headers: { 'x-csrf-token': first.csrfToken },
    });
    assert.equal(out.statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: first.cookieValue } })).statusCode, 401);

    const second = await t.services.auth.startSession(member.id);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: second.cookieValue } })).statusCode, 200);
    await t.services.users.update(member.id, { status: 'banned' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: second.cookieValue } })).statusCode, 401);
  });
});

describeEachDatabase('guards come before validation', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  for (const url of ['/api/word-filters', '/api/emoji/emojis', '/api/emoji/aliases', '/api/emoji/categories', '/api/users']) {
    it(`POST ${url} with an invalid body: 401 for a guest, 403 for a member, before any 422`, async () => {
      assert.equal((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode, 401);
      const member = await signIn(t);
      assert.equal((await t.app.inject({ method: 'POST', url, payload: {}, headers: member.headers })).statusCode, 403);
    });
  }
});
