import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, mailsTo } from '../helpers/forum.ts';
import { parseHost } from '../../src/http/host-check.ts';
import { dom } from '../helpers/dom.ts';

const MALFORMED_HOSTS = [
  'bad host',
  '[::1',
  'forum.example:99999',
  'forum.example:',
  'a\u00e9b.example',
  'evil.example/path',
  'user@evil.example',
  'x'.repeat(300),
];

/** Ask for a password-reset mail the way a browser does, every request naming `host`. */
async function askForReset(t: TestApp, email: string, headers: Record<string, string>) {
  const browser = new Browser(t, headers);
  await browser.get('/password-recovery/');
  return browser.post('/password-recovery/', { email });
}

function linksIn(body: string): string[] {
  return [...body.matchAll(/https?:\/\/[^\s"<>]+/g)].map((match) => match[0]);
}

describeEachDatabase('Host header without BASE_URL', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: { ALLOWED_HOSTS: 'forum.example.org,10.0.0.5:8080', TRUST_PROXY: 'true', HOST: '0.0.0.0', PORT: '8080' } });
  });
  after(() => t.close());

  it('answers a malformed Host with 400 in the usual error body, on the API and on pages', async () => {
    for (const host of MALFORMED_HOSTS) {
      const api = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis', headers: { host } });
      assert.equal(api.statusCode, 400, JSON.stringify(host));
      assert.deepEqual(api.json().error.code, 'BAD_REQUEST');
      assert.equal(api.json().success, false);
      const page = await t.app.inject({ method: 'GET', url: '/password-recovery/', headers: { host } });
      assert.equal(page.statusCode, 400, JSON.stringify(host));
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.equal(dom(page).text('h1'), 'Bad request');
    }
  });

  it('refuses a well-formed Host that is not allowed (400), so it never reaches a link', async () => {
    for (const host of ['evil.example', 'forum.example.org.evil.example', '10.0.0.5:8081', '0.0.0.0:8080']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis', headers: { host } });
      assert.equal(response.statusCode, 400, host);
      assert.equal(response.json().error.code, 'BAD_REQUEST');
      assert.ok(!response.body.includes('evil.example'), 'the host is not echoed');
    }
  });

  it('answers the probes under any well-formed Host (orchestrators call them by address)', async () => {
    for (const url of ['/healthz', '/readyz']) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: { host: '10.1.2.3:8080' } })).statusCode, 200, url);
      assert.equal((await t.app.inject({ method: 'GET', url, headers: { host: 'bad host' } })).statusCode, 400, url);
    }
  });

  it('builds API and canonical links from an allowed Host: ALLOWED_HOSTS (any port, or the one given) and loopback names', async () => {
    const cases: Array<[string, string]> = [
      ['forum.example.org', 'http://forum.example.org'],
      ['FORUM.example.org.:8443', 'http://forum.example.org.:8443'],
      ['10.0.0.5:8080', 'http://10.0.0.5:8080'],
      ['localhost:8080', 'http://localhost:8080'],
      ['127.0.0.1', 'http://127.0.0.1'],
      ['[::1]:8080', 'http://[::1]:8080'],
    ];
    for (const [host, origin] of cases) {
      const api = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis?per_page=5', headers: { host } });
      assert.equal(api.statusCode, 200, host);
      assert.equal(new URL(api.json().links.first).origin, new URL(origin).origin, host);
      const page = await t.app.inject({ method: 'GET', url: '/password-recovery/', headers: { host } });
      assert.equal(new URL(canonicalOf(page.body)!).origin, new URL(origin).origin, host);
    }
  });

  it('checks X-Forwarded-Host behind a trusted proxy the same way', async () => {
    const forged = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis', headers: { host: 'localhost', 'x-forwarded-host': 'evil.example' } });
    assert.equal(forged.statusCode, 400);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis', headers: { host: 'localhost', 'x-forwarded-host': 'evil example' } });
    assert.equal(malformed.statusCode, 400);
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/api/emoji/emojis',
      headers: { host: 'localhost', 'x-forwarded-host': 'forum.example.org', 'x-forwarded-proto': 'https' },
    });
    assert.equal(allowed.statusCode, 200);
    assert.match(allowed.json().links.first, /^https:\/\/forum\.example\.org\/api\/emoji\/emojis\?/);
  });

  it('sends no password-reset mail for a request with a forged Host', async () => {
    const user = await createUser(t, { name: 'Forged Host Fay' });
    const response = await askForReset(t, user.email, { host: 'evil.example' });
    assert.equal(response.status, 400);
    assert.deepEqual(await mailsTo(t, user.email), []);
  });

  it('builds mail links from the listen address, not from the Host, even an allowed one', async () => {
    const user = await createUser(t, { name: 'Allowed Host Al' });
    const response = await askForReset(t, user.email, { host: 'forum.example.org' });
    assert.equal(response.status, 200);
    const [mail] = await mailsTo(t, user.email);
    assert.ok(mail, 'a mail was sent');
    const links = linksIn(mail.body);
    assert.ok(links.length > 0);
    for (const link of links) assert.equal(new URL(link).origin, 'http://localhost:8080', link);
  });
});

describeEachDatabase('Host header with BASE_URL', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: { BASE_URL: 'https://forum.example.org', TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  it('still answers a malformed Host with 400', async () => {
    for (const host of MALFORMED_HOSTS) {
      const response = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { host } });
      assert.equal(response.statusCode, 400, JSON.stringify(host));
      assert.equal(response.json().error.code, 'BAD_REQUEST');
    }
  });

  it('serves any well-formed Host, with every link from BASE_URL', async () => {
    for (const headers of [{ host: 'evil.example' }, { host: 'localhost', 'x-forwarded-host': 'evil.example' }]) {
      const api = await t.app.inject({ method: 'GET', url: '/api/emoji/emojis', headers });
      assert.equal(api.statusCode, 200);
      assert.match(api.json().links.first, /^https:\/\/forum\.example\.org\/api\/emoji\/emojis\?/);
      const page = await t.app.inject({ method: 'GET', url: '/password-recovery/', headers });
      assert.equal(canonicalOf(page.body), 'https://forum.example.org/password-recovery/');
    }
  });

  it('puts BASE_URL, never a forged Host, into a password-reset mail', async () => {
    const user = await createUser(t, { name: 'Reset Rita' });
    const response = await askForReset(t, user.email, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    assert.equal(response.status, 200);
    const [mail] = await mailsTo(t, user.email);
    assert.ok(mail, 'a mail was sent');
    assert.ok(!mail.body.includes('evil.example'), mail.body);
    const links = linksIn(mail.body);
    assert.ok(
      links.some((link) => link.startsWith('https://forum.example.org/password-recovery/')),
      mail.body,
    );
    for (const link of links) assert.equal(new URL(link).origin, 'https://forum.example.org', link);
  });
});

describe('parseHost', () => {
  it('reads names, IPv4 and bracketed IPv6 addresses with optional ports', () => {
    assert.deepEqual(parseHost('Forum.Example.ORG.'), { name: 'forum.example.org', port: null });
    assert.deepEqual(parseHost('10.0.0.5:8080'), { name: '10.0.0.5', port: 8080 });
    assert.deepEqual(parseHost('[::1]:80'), { name: '[::1]', port: 80 });
    assert.deepEqual(parseHost('forum_app'), { name: 'forum_app', port: null });
    for (const bad of [...MALFORMED_HOSTS, '']) assert.equal(parseHost(bad), null, JSON.stringify(bad));
    assert.equal(parseHost('[::g]'), null);
  });
});
