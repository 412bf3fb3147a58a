import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';

/** The policy as a map of directive → values. */
function csp(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  assert.equal(typeof header, 'string', 'a Content-Security-Policy header');
  return new Map(
    (header as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name, ...values]) => [name!, values]),
  );
}

describeEachDatabase('security headers', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const responses: Array<[string, string, number]> = [
    ['a page', '/login/', 200],
    ['a page error', '/no/such/page/', 404],
    ['a stylesheet', '/assets/style.css', 200],
  ];

  /** The API's whole set (OWASP REST): nothing of a page's that means nothing to JSON. */
  function assertApiHeaders(response: LightMyRequestResponse, https = false): void {
    assert.equal(response.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal(response.headers['strict-transport-security'], https ? 'max-age=15552000' : undefined);
    for (const pageOnly of [
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
      'x-powered-by',
    ]) {
      assert.equal(response.headers[pageOnly], undefined, pageOnly);
    }
    assert.match(String(response.headers['x-request-id']), /^[\w-]+-[0-9a-z]+$/);
  }

  for (const [what, url, status] of [
    ['an API answer', '/api/hello', 200],
    ['an API error', '/api/no-such-thing', 404],
    ['an API answer under /api/v1/', '/api/v1/hello', 200],
  ] as const) {
    it(`puts the API's security headers on ${what} (${url})`, async () => {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, status);
      assertApiHeaders(response);
      assert.equal(response.headers['cache-control'], 'no-store', 'kept by nobody');
    });
  }

  it('numbers request ids per process, and keeps a sane id the caller sent', async () => {
    const [first, second] = [await t.app.inject({ method: 'GET', url: '/api/hello' }), await t.app.inject({ method: 'GET', url: '/login/' })];
    const id = String(first.headers['x-request-id']);
    const [prefix, count] = [id.slice(0, id.lastIndexOf('-')), id.slice(id.lastIndexOf('-') + 1)];
    assert.equal(second.headers['x-request-id'], `${prefix}-${(Number.parseInt(count, 36) + 1).toString(36)}`);
    const sent = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { 'x-request-id': 'trace.abc-123' } });
    assert.equal(sent.headers['x-request-id'], 'trace.abc-123');
    const refused = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { 'x-request-id': 'no spaces <here>' } });
    assert.notEqual(refused.headers['x-request-id'], 'no spaces <here>');
  });

  for (const [what, url, status] of responses) {
    it(`puts the security headers on ${what} (${url})`, async () => {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, status);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin');
      assert.equal(response.headers['cross-origin-opener-policy'], 'same-origin');
      assert.equal(response.headers['cross-origin-resource-policy'], 'same-origin');
      assert.equal(response.headers['x-powered-by'], undefined);
      assert.equal(response.headers['strict-transport-security'], undefined, 'no HSTS for a site not known to be on https');
      const policy = csp(response);
      assert.deepEqual(policy.get('default-src'), ["'self'"]);
      assert.deepEqual(policy.get('script-src'), ["'self'"], 'no inline script, no eval');
      assert.deepEqual(policy.get('script-src-attr'), ["'none'"], 'no event handler attributes');
      assert.deepEqual(policy.get('style-src'), ["'self'"], 'no <style> elements');
      assert.deepEqual(policy.get('style-src-attr'), ["'unsafe-inline'"], 'style attributes: sprite emojis');
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
      assert.deepEqual(policy.get('object-src'), ["'none'"]);
      assert.deepEqual(policy.get('base-uri'), ["'self'"]);
      assert.deepEqual(policy.get('form-action'), ["'self'"]);
      assert.equal(policy.has('upgrade-insecure-requests'), false, 'plain http stays usable');
    });
  }

  // The router refuses these before any hook runs (Fastify's frameworkErrors).
  const routerRefusals: Array<[string, number, string]> = [
    ['/forum/%zz/', 400, 'text/html'],
    ['/api/emoji/emojis/%c0%ae', 400, 'application/json'],
    [`/forum/${'x'.repeat(600)}/`, 404, 'text/html'],
    [`/api/emoji/emojis/${'9'.repeat(600)}`, 404, 'application/json'],
  ];
  for (const [url, status, type] of routerRefusals) {
    it(`puts them, and the usual error body, on the router's own refusal of ${url.slice(0, 40)} (${status})`, async () => {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, status);
      if (type === 'application/json') assertApiHeaders(response);
      else assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(csp(response).get('frame-ancestors'), ["'none'"]);
      assert.ok(String(response.headers['content-type']).startsWith(type));
      if (type === 'application/json') {
        const body = response.json();
        assert.equal(body.success, false);
        assert.equal(body.error.code, status === 400 ? 'BAD_REQUEST' : 'NOT_FOUND');
      } else {
        assert.ok(!response.body.includes('<script'));
      }
    });
  }

  it('puts them on a 400 for a bad Host too', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { host: 'bad host' } });
    assert.equal(api.statusCode, 400);
    assertApiHeaders(api);
    const page = await t.app.inject({ method: 'GET', url: '/login/', headers: { host: 'bad host' } });
    assert.equal(page.statusCode, 400);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.ok(csp(page).has('script-src'));
  });

  it('gives a spelling of an API path that reaches the API (/%61pi/…) the page’s fuller set', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/%61pi/hello' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
  });

  it('gives /api/docs (Swagger UI) its own policy: inline styles and data: images, still no inline script', async () => {
    for (const url of ['/api/docs/', '/api/docs/static/swagger-initializer.js']) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      const policy = csp(response);
      assert.deepEqual(policy.get('script-src'), ["'self'"], url);
      assert.deepEqual(policy.get('style-src'), ["'self'", "'unsafe-inline'"], url);
      assert.deepEqual(policy.get('img-src'), ["'self'", 'data:'], url);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], url);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    }
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    const scripts = dom(page.body).all('script');
    assert.ok(scripts.length > 0);
    for (const script of scripts) assert.ok(script.hasAttribute('src'), 'Swagger UI runs no inline script');
  });

  it('lets other sites embed emoji images (Cross-Origin-Resource-Policy: cross-origin)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/emojis/custom/missing.png' });
    assert.equal(response.headers['cross-origin-resource-policy'], 'cross-origin');
  });

  it('has no inline script or style element on a page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login/' });
    const login = dom(page.body);
    assert.equal(login.count('style'), 0);
    for (const script of login.all('script')) assert.match(script.getAttribute('src') ?? '', /^\/assets\//);
    const handlers = login.all('*').flatMap((element) => Object.keys(element.attributes).filter((name) => /^on[a-z]+$/i.test(name)));
    assert.deepEqual(handlers, [], 'no event handler attributes');
  });
});

describe('security headers on a site behind https (BASE_URL https://…)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite', { env: { BASE_URL: 'https://forum.example.org' } });
  });
  after(() => t.close());

  it('sends HSTS and upgrade-insecure-requests', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/login/' });
    assert.equal(response.headers['strict-transport-security'], 'max-age=15552000');
    assert.ok(csp(response).has('upgrade-insecure-requests'));
  });

  it('sends HSTS on API answers too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { host: 'forum.example.org' } });
    assert.equal(response.headers['strict-transport-security'], 'max-age=15552000');
  });
});
