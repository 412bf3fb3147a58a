import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';

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
    const html = dom(page);
    assert.ok(html.has('form label[for="username"]') && html.has('form input#username'), 'username is labelled');
    assert.ok(html.has('form label[for="password"]') && html.has('form input#password'), 'password is labelled');
    assert.match(html.fields('form')['_csrf'] as string, /^[\w-]{20,}$/);
    assert.match(html.attr('link[rel="canonical"]', 'href') ?? '', /^http:\/\/localhost(:\d+)?\/login\/$/);
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
    // Browsers drop tabs and line breaks from a Location and read a backslash as a slash.
    const elsewhere = [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example/',
      '/\n/evil.example/',
      '/\r\n/evil.example',
      '\t//evil.example/',
      '/ /evil.example',
      'javascript:alert(1)',
      'evil.example',
    ];
    for (const next of elsewhere) {
      const response = await new Browser(t).logIn('Open Redirect', TEST_PASSWORD, next);
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.location, next.startsWith('/ ') ? '/%20/evil.example' : '/', JSON.stringify(next));
    }
  });

  it('ignores a next parameter that cannot go into a Location header (CR/LF, control characters, over 2,000 characters)', async () => {
    await createUser(t, { name: 'Header Splitter' });
    for (const next of ['/\r\nSet-Cookie: x=1', '/a\u0000b', '/a\u0085b', `/${'a'.repeat(2000)}`]) {
      const page = await new Browser(t).get(`/login/?next=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200, JSON.stringify(next));
      assert.equal(dom(page).attr('input[type="hidden"][name="next"]', 'value'), '/');

      const response = await new Browser(t).logIn('Header Splitter', TEST_PASSWORD, next);
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.location, '/', JSON.stringify(next));
    }
  });

  it('keeps a local next with characters beyond Latin-1, percent-encoded', async () => {
    await createUser(t, { name: 'Unicode Walker' });
    const response = await new Browser(t).logIn('Unicode Walker', TEST_PASSWORD, '/forum/?q=Привет#часть');
    assert.equal(response.status, 303);
    assert.equal(response.location, '/forum/?q=%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82#%D1%87%D0%B0%D1%81%D1%82%D1%8C');
  });

  it('sends a signed-in visitor of /login/ to next, only when it is local', async () => {
    const member = new Browser(t);
    await createUser(t, { name: 'Already In' });
    await member.logIn('Already In', TEST_PASSWORD);
    assert.equal((await member.get(`/login/?next=${encodeURIComponent('/\t/evil.example/')}`)).location, '/');
    assert.equal((await member.get(`/login/?next=${encodeURIComponent('/\u20ac/')}`)).location, '/%E2%82%AC/');
    assert.equal((await member.get('/login/?next=/settings/')).location, '/settings/');
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
