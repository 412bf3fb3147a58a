// The login throttle under parallel guesses (issue 27, item 3): an attempt is
// reserved before the password is hashed, so guesses sent at once cannot all
// read the counter before any of them writes it. On both databases, with the
// counters in memory and (TEST_REDIS_URL) in Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { LOGIN_FAILURES_ALLOWED } from '../../src/auth/login-throttle.ts';
import { GUEST_CSRF_COOKIE } from '../../src/auth/csrf.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';

const redisUrl = process.env['TEST_REDIS_URL'];
const STORES: ReadonlyArray<'memory' | 'redis'> = redisUrl ? ['memory', 'redis'] : ['memory'];

/** Names and addresses of their own per run: Redis keeps counters between runs for a minute. */
function fresh(prefix: string): { name: string; address: string } {
  const [a, b, c] = randomBytes(3);
  return { name: `${prefix} ${randomBytes(4).toString('hex')}`, address: `10.${a}.${b}.${c}` };
}

/** Counts the password hashes checked while `run` runs (a wrong name checks a dummy hash: counted too). */
async function countingHashChecks<T>(t: TestApp, run: () => Promise<T>): Promise<{ result: T; checks: number }> {
  const passwords = t.services.users.passwords;
  const verify = passwords.verify.bind(passwords);
  let checks = 0;
  passwords.verify = async (password: string, stored: string) => {
    checks += 1;
    return verify(password, stored);
  };
  try {
    return { result: await run(), checks };
  } finally {
    passwords.verify = verify;
  }
}

function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** 40 guesses, the right one among them (not first, as an attacker would not know where it is). */
const GUESSES = Array.from({ length: 40 }, (_, i) => (i === 23 ? TEST_PASSWORD : `wrong guess ${i}`));

describeEachDatabase('login throttle', (db) => {
  for (const store of STORES) {
    describe(`counters in ${store}`, () => {
      let t: TestApp;
      before(async () => {
        t = await db.start({ env: store === 'redis' ? { REDIS_URL: redisUrl! } : {} });
      });
      after(() => t.close());

      const apiLogin = (username: string, password: string, address: string) =>
        t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: address });

      it(`40 guesses at once through the API (39 wrong, 1 right): at most ${LOGIN_FAILURES_ALLOWED} hash checks, the rest 429`, async () => {
        const { name, address } = fresh('Parallel Api');
        await createUser(t, { name });
        const { result, checks } = await countingHashChecks(t, () => Promise.all(GUESSES.map((password) => apiLogin(name, password, address))));
        const statuses = result.map((response) => response.statusCode);
        assert.ok(checks <= LOGIN_FAILURES_ALLOWED, `${checks} hash checks; statuses ${JSON.stringify(tally(statuses))}`);
        assert.equal(statuses.filter((status) => status === 429).length, GUESSES.length - checks, JSON.stringify(tally(statuses)));
        for (const response of result.filter((r) => r.statusCode === 429)) {
          assert.equal(response.json().error.code, 'RATE_LIMITED');
          assert.ok(Number(response.headers['retry-after']) >= 1);
        }
        // The name stays locked: the right password from elsewhere is refused without a hash.
        const later = await countingHashChecks(t, () => apiLogin(name, TEST_PASSWORD, fresh('x').address));
        assert.equal(later.result.statusCode, 429);
        assert.equal(later.checks, 0);
      });

      it(`40 guesses at once through the login form: at most ${LOGIN_FAILURES_ALLOWED} hash checks, the rest 429`, async () => {
        const { name, address } = fresh('Parallel Form');
        await createUser(t, { name });
        const token = 'loginThrottleGuestToken_0123456789';
        const post = (password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/login/',
            cookies: { [GUEST_CSRF_COOKIE]: token },
            payload: new URLSearchParams({ _csrf: token, username: name, password, next: '/settings/' }).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            remoteAddress: address,
          });
        const { result, checks } = await countingHashChecks(t, () => Promise.all(GUESSES.map(post)));
        const statuses = result.map((response) => response.statusCode);
        assert.ok(checks <= LOGIN_FAILURES_ALLOWED, `${checks} hash checks; statuses ${JSON.stringify(tally(statuses))}`);
        assert.equal(statuses.filter((status) => status === 429).length, GUESSES.length - checks, JSON.stringify(tally(statuses)));
        assert.ok(checks > 0 && statuses.every((status) => [303, 401, 429].includes(status)), JSON.stringify(tally(statuses)));
      });

      if (store === 'redis') {
        it('40 guesses at once split over two instances on one Redis: five hash checks in all', async () => {
          const second = await db.start({ env: { REDIS_URL: redisUrl! } });
          try {
            const { name, address } = fresh('Two Instances');
            await createUser(t, { name });
            await createUser(second, { name });
            const both = await countingHashChecks(t, () =>
              countingHashChecks(second, () =>
                Promise.all(
                  GUESSES.map((password, i) =>
                    (i % 2 === 0 ? t : second).app.inject({ method: 'POST', url: '/api/login', payload: { username: name, password }, remoteAddress: address }),
                  ),
                ),
              ),
            );
            const checks = both.checks + both.result.checks;
            assert.ok(checks <= LOGIN_FAILURES_ALLOWED, `${checks} hash checks (${both.checks} and ${both.result.checks})`);
            assert.equal(both.result.result.filter((response) => response.statusCode === 429).length, GUESSES.length - checks);
          } finally {
            await second.close();
          }
        });
      }

      it('guesses at one name from many addresses at once: the name allows five hash checks', async () => {
        const { name } = fresh('Many Addresses');
        await createUser(t, { name });
        const { result, checks } = await countingHashChecks(t, () => Promise.all(GUESSES.map((password) => apiLogin(name, password, fresh('x').address))));
        assert.ok(checks <= LOGIN_FAILURES_ALLOWED, `${checks} hash checks`);
        assert.equal(result.filter((response) => response.statusCode === 429).length, GUESSES.length - checks);
      });

      it('guesses at many names from one address at once: the address allows five hash checks', async () => {
        const { address } = fresh('x');
        const { result, checks } = await countingHashChecks(t, () => Promise.all(GUESSES.map((password, i) => apiLogin(`nobody ${i}`, password, address))));
        assert.ok(checks <= LOGIN_FAILURES_ALLOWED, `${checks} hash checks`);
        assert.equal(result.filter((response) => response.statusCode === 429).length, GUESSES.length - checks);
      });

      it('lets the right password in within the limit; a success clears the name’s failures, not the address’s', async () => {
        const { name, address } = fresh('Careful Typist');
        await createUser(t, { name });
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED - 1; i++) assert.equal((await apiLogin(name, 'typo', address)).statusCode, 401);
        assert.equal((await apiLogin(name, TEST_PASSWORD, address)).statusCode, 200, 'the last attempt within the limit');
        // The name starts afresh: five more failures from another address before it locks.
        const other = fresh('x').address;
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED; i++) assert.equal((await apiLogin(name, 'typo', other)).statusCode, 401, `failure ${i + 1}`);
        assert.equal((await apiLogin(name, TEST_PASSWORD, fresh('x').address)).statusCode, 429);
        // The address keeps its four failures; the success did not count against it.
        assert.equal((await apiLogin('someone else', 'typo', address)).statusCode, 401);
        assert.equal((await apiLogin('someone else', 'typo', address)).statusCode, 429);
      });

      it('logins that succeed do not use up an address (an office behind one address)', async () => {
        const { address } = fresh('x');
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED * 2; i++) {
          const { name } = fresh('Colleague');
          await createUser(t, { name });
          assert.equal((await apiLogin(name, TEST_PASSWORD, address)).statusCode, 200, `colleague ${i + 1}`);
        }
        assert.equal((await apiLogin('typo name', 'typo', address)).statusCode, 401);
      });

      it('a refused attempt does not count against the other key', async () => {
        const { name } = fresh('Locked Name');
        await createUser(t, { name });
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED; i++) assert.equal((await apiLogin(name, 'typo', fresh('x').address)).statusCode, 401);
        const { address } = fresh('x');
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED * 2; i++) assert.equal((await apiLogin(name, 'typo', address)).statusCode, 429);
        // The address was refused ten times for the locked name, and still has all its attempts.
        for (let i = 0; i < LOGIN_FAILURES_ALLOWED; i++) assert.equal((await apiLogin(`free name ${i}`, 'typo', address)).statusCode, 401, `attempt ${i + 1}`);
        assert.equal((await apiLogin('free name', 'typo', address)).statusCode, 429);
      });
    });
  }
});
