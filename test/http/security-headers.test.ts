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
    ['an API answer', '/api/hello', 200],
    ['an API error', '/api/no-such-thing', 404],
    ['a stylesheet', '/assets/style.css', 200],
  ];

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
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['x-frame-options'], 'DENY');
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
    const response = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { host: 'bad host' } });
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.ok(csp(response).has('default-src'));
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
});
