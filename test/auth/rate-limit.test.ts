import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { signIn } from '../helpers/auth.ts';
import { routedPath } from '../../src/http/error-handler.ts';

const LIMITS = { RATE_LIMIT_GUEST: '3', RATE_LIMIT_AUTHENTICATED: '5' };

describeEachDatabase('rate limits', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: LIMITS });
  });
  after(() => t.close());

  const hello = (address: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/hello', remoteAddress: address, headers });

  it('puts X-RateLimit-Limit, -Remaining and -Reset (Unix time) on every /api response', async () => {
    const response = await hello('10.9.0.1');
    assert.equal(response.headers['x-ratelimit-limit'], '3');
    assert.equal(response.headers['x-ratelimit-remaining'], '2');
    const reset = Number(response.headers['x-ratelimit-reset']);
    const now = Date.now() / 1000;
    assert.ok(Number.isInteger(reset) && reset > now && reset <= now + 61, String(reset));
    const notFound = await t.app.inject({ method: 'GET', url: '/api/nowhere', remoteAddress: '10.9.0.1' });
    assert.equal(notFound.headers['x-ratelimit-remaining'], '1');
  });

  it('gives each guest address its own budget and answers 429 with Retry-After past it', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await hello('10.9.1.1')).statusCode, 200);
    const limited = await hello('10.9.1.1');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error.code, 'RATE_LIMITED');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60);
    assert.equal((await hello('10.9.1.2')).statusCode, 200, 'another address is not affected');
  });

  it('counts authenticated requests per user with the authenticated limit, wherever they come from', async () => {
    const caller = await signIn(t);
    for (let i = 0; i < 5; i++) {
      const response = await hello(`10.9.2.${i}`, caller.headers);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['x-ratelimit-limit'], '5');
    }
    assert.equal((await hello('10.9.2.99', caller.headers)).statusCode, 429);
  });

  it('leaves pages outside /api alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.9.1.1' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['x-ratelimit-limit'], undefined);
  });
});

// The attacker's way round the limit: spell the path so that the router
// still finds the API route but a check on the raw URL does not see "/api".
const ROUTED_SPELLINGS = ['/api/hello', '/%61pi/hello', '/%61%70%69/hello', '/api/hell%6F', '/api/v1/hello', '/api/v1/hell%6f'];
// Spellings that reach no route answer 404, and still count: probing costs budget too.
const UNROUTED_SPELLINGS = ['/API/hello', '/Api/v1/hello', '/%61pi/v1/hello', '/api//hello', '/api/hello/', '/api/%76%31/hello'];

describeEachDatabase('rate limits, whatever the spelling of the path', (db) => {
  const limit = ROUTED_SPELLINGS.length + UNROUTED_SPELLINGS.length;
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: { RATE_LIMIT_GUEST: String(limit), RATE_LIMIT_AUTHENTICATED: '1000' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  const get = (url: string, address: string) => t.app.inject({ method: 'GET', url, remoteAddress: address });

  it('counts each spelling that reaches an API route against the same budget', async () => {
    const address = '10.8.0.1';
    for (const [index, url] of [...ROUTED_SPELLINGS, ...UNROUTED_SPELLINGS].entries()) {
      const response = await get(url, address);
      assert.equal(response.statusCode, index < ROUTED_SPELLINGS.length ? 200 : 404, url);
      assert.equal(response.headers['x-ratelimit-remaining'], String(limit - index - 1), url);
      if (response.statusCode === 404) assert.equal(response.json().error.code, 'NOT_FOUND', `${url}: the API's error body`);
    }
    for (const url of ROUTED_SPELLINGS) assert.equal((await get(url, address)).statusCode, 429, url);
  });

  it('counts dot segments and doubled slashes sent as they are on the wire', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const raw = (path: string) =>
      new Promise<{ status: number; remaining: string | undefined }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, remaining: res.headers['x-ratelimit-remaining'] as string | undefined }));
        });
        req.on('error', reject);
        req.end();
      });
    // Every request over the socket comes from 127.0.0.1: a budget of its own.
    const spellings = ['/./api/hello', '/api/./hello', '//api/hello', '/x/../api/hello', '/%2e/api/hello'];
    const remaining: Array<string | undefined> = [];
    for (const path of spellings) remaining.push((await raw(path)).remaining);
    assert.deepEqual(
      remaining,
      spellings.map((_, index) => String(limit - index - 1)),
    );
  });

  it('counts login attempts under any spelling of /api/login, and the login throttle holds', async () => {
    const address = '10.8.0.2';
    const spellings = ['/api/login', '/%61pi/login', '/api/v1/logi%6e', '/%61pi/l%6Fgin', '/api/%6cogin'];
    for (const [index, url] of spellings.entries()) {
      const response = await t.app.inject({ method: 'POST', url, remoteAddress: address, payload: { username: 'nobody-here', password: 'guess' } });
      assert.equal(response.statusCode, 401, `${url}: a JSON login, no CSRF form needed`);
      assert.equal(response.headers['x-ratelimit-remaining'], String(limit - index - 1), url);
    }
    const throttled = await t.app.inject({
      method: 'POST',
      url: '/%61pi/login',
      remoteAddress: '10.8.0.3',
      payload: { username: 'nobody-here', password: 'guess' },
    });
    assert.equal(throttled.statusCode, 429, 'five failures for one name, under five spellings, throttle it');
    assert.equal(throttled.json().error.code, 'RATE_LIMITED');
  });
});

describeEachDatabase('rate limits and the API documentation', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: LIMITS });
  });
  after(() => t.close());

  it('does not count the documentation pages, but does count what only starts like them', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.css']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '10.7.0.1' });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['x-ratelimit-limit'], undefined, url);
    }
    for (const url of ['/api/docsx', '/api/docs/nothing-here', '/api/docs%2F..%2Fhello']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '10.7.0.2' });
      assert.equal(response.headers['x-ratelimit-limit'], '3', url);
    }
  });
});

describe('routedPath', () => {
  it('reads a path the way a lenient router would, for deciding what counts', () => {
    assert.equal(routedPath('/%61pi/hello?x=/y'), '/api/hello');
    assert.equal(routedPath('//API/./v1//hello/'), '/api/v1/hello');
    assert.equal(routedPath('/a/../%2e%2e/api/x%2Fy'), '/api/x/y');
    assert.equal(routedPath('/\\api\\hello'), '/api/hello');
    assert.equal(routedPath('/%E2%82%AC/%zz'), '/%e2%82%ac/%zz');
  });
});

const redisUrl = process.env['TEST_REDIS_URL'];

describe('rate limits shared through Redis', { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' }, () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  it('two instances on one Redis share one budget', async () => {
    // A fresh key space per run: the address is random, so other runs' counters never interfere.
    const address = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const env = { ...LIMITS, REDIS_URL: redisUrl! };
    const first = await startTestApp('sqlite', { env });
    const second = await startTestApp('sqlite', { env });
    apps.push(first, second);
    const statuses: number[] = [];
    for (const instance of [first, second, first, second]) {
      statuses.push((await instance.app.inject({ method: 'GET', url: '/api/hello', remoteAddress: address })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  it('keeps answering when Redis is unreachable, counting in memory instead', async () => {
    const dead = await startTestApp('sqlite', { env: { ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' } });
    apps.push(dead);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await dead.app.inject({ method: 'GET', url: '/api/hello', remoteAddress: '10.250.0.1' })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429], 'the in-memory fallback still limits');
  });
});
