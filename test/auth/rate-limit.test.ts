import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { signIn } from '../helpers/auth.ts';

const LIMITS = { RATE_LIMIT_GUEST: '3', RATE_LIMIT_AUTHENTICATED: '5' };

describeEachDatabase('rate limits', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start({ env: LIMITS });
  });
  after(() => t.close());

  const hello = (address: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/hello', remoteAddress: address, headers });

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
