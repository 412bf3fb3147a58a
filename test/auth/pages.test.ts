import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';

describeEachDatabase('web login (/login/, /logout/)', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  it('shows a labelled form with a CSRF field', async () => {
    const browser = new Browser(t);
    const page = await browser.get('/login/');
    assert.equal(page.status, 200);
    assert.match(page.body, /<label for="username">/);
    assert.match(page.body, /<label for="password">/);
    assert.match(page.body, /name="_csrf" value="[\w-]{20,}"/);
    assert.match(page.body, /<link rel="canonical" href="http:\/\/localhost(:\d+)?\/login\/">/);
  });

  it('logs in with a session cookie (HttpOnly, SameSite=Lax) and goes back where the user came from', async () => {
    const user = await createUser(t, { name: 'Web Walker' });
    const browser = new Browser(t);
    const response = await browser.logIn('Web Walker', TEST_PASSWORD, '/settings/');
    assert.equal(response.status, 303);
    assert.equal(response.location, '/settings/');
    const cookie = response.setCookies.find((c) => c.name === 'forum_session');
    assert.ok(cookie, 'session cookie set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.notEqual(cookie.secure, true, 'not Secure over plain http');

    const me = await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: browser.cookies.get('forum_session')! } });
    assert.equal(me.json().data.id, user.id);
  });

  it('marks the cookie Secure behind https', async () => {
    await createUser(t, { name: 'Secure Sam' });
    const browser = new Browser(t, { 'x-forwarded-proto': 'https' });
    const response = await browser.logIn('Secure Sam', TEST_PASSWORD);
    assert.equal(response.setCookies.find((c) => c.name === 'forum_session')?.secure, true);
  });

  it('never redirects to another site after login', async () => {
    await createUser(t, { name: 'Open Redirect' });
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const response = await new Browser(t).logIn('Open Redirect', TEST_PASSWORD, next);
      assert.equal(response.location, '/', next);
    }
  });

  it('refuses a login form posted without the CSRF token', async () => {
    await createUser(t, { name: 'No Token' });
    const browser = new Browser(t);
    await browser.get('/login/');
    const response = await browser.post('/login/', { username: 'No Token', password: TEST_PASSWORD, _csrf: 'forged-token-value-123' });
    assert.equal(response.status, 403);
    assert.equal(browser.cookies.get('forum_session'), undefined);
  });

  it('shows one message for a wrong password and an unknown user', async () => {
    await createUser(t, { name: 'Known Kim' });
    const wrong = await new Browser(t, { 'x-forwarded-for': '10.7.0.1' }).logIn('Known Kim', 'wrong password');
    const unknown = await new Browser(t, { 'x-forwarded-for': '10.7.0.2' }).logIn('Unknown Uma', 'wrong password');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    const message = (body: string) => /<p class="notice error" role="alert">([^<]*)<\/p>/.exec(body)?.[1];
    assert.ok(message(wrong.body));
    assert.equal(message(wrong.body), message(unknown.body));
  });

  it('logs out: the session stops working and the cookie is cleared', async () => {
    await createUser(t, { name: 'Leaving Lee' });
    const browser = new Browser(t);
    await browser.logIn('Leaving Lee', TEST_PASSWORD);
    const session = browser.cookies.get('forum_session')!;
    await browser.get('/logout/');
    const out = await browser.post('/logout/', {});
    assert.equal(out.status, 303);
    assert.equal(browser.cookies.get('forum_session'), undefined);
    const me = await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: session } });
    assert.equal(me.statusCode, 401);
  });
});

describeEachDatabase('ADMIN_USERNAME bootstrap', (db) => {
  let t: TestApp;
  after(() => t?.close());

  it('creates an active admin once and never overwrites it', async () => {
    t = await db.start({ sqliteFile: true, env: { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'first password', ADMIN_EMAIL: 'root@example.test' } });
    const created = await t.services.users.repository.findByUsername('root');
    assert.equal(created?.role, 'admin');
    assert.equal(created?.status, 'active');
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'root', password: 'first password' } });
    assert.equal(login.statusCode, 200);

    // Starting again with other values leaves the existing admin alone.
    await t.services.users.ensureAdmin({ username: 'root', password: 'second password', email: 'other@example.test' }, pino({ level: 'silent' }));
    const again = await t.services.users.repository.findByUsername('root');
    assert.equal(again?.id, created?.id);
    assert.equal(again?.email, 'root@example.test');
    assert.equal(again?.password_hash, created?.password_hash);
  });
});
