// The login under attack (issue 27): batches of guesses sent at once, mixed
// over a few names and addresses, through the API and the form, some with the
// right password; and hostile `next` values, for a signed-in visitor of
// /login/ and after sign-in. With the counters in memory and, when
// TEST_REDIS_URL is set, in Redis. See docs/security.md, "Fuzzing".
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { GUEST_CSRF_COOKIE } from '../../src/auth/csrf.ts';
import { LOGIN_FAILURES_ALLOWED } from '../../src/auth/login-throttle.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { redirectTarget, staysOnSite } from './redirect-targets.ts';
import { FUZZ_SCALE, FUZZ_SEED } from './settings.ts';

const redisUrl = process.env['TEST_REDIS_URL'];
const STORES: ReadonlyArray<'memory' | 'redis'> = redisUrl ? ['memory', 'redis'] : ['memory'];
const GUEST_TOKEN = 'fuzzLoginGuestToken_0123456789';

/** Batches of guesses per store and database (× FUZZ_RUNS). */
const BATCHES = 20;
/** Hostile `next` values per store and database (× FUZZ_RUNS). */
const NEXT_RUNS = 150;

interface Guess {
  /** Which of the batch's three names: two members, one name nobody has. */
  name: number;
  /** Which of the batch's three addresses. */
  address: number;
  right: boolean;
  via: 'api' | 'form';
  next: string;
}

const guess: fc.Arbitrary<Guess> = fc.record({
  name: fc.nat({ max: 2 }),
  address: fc.nat({ max: 2 }),
  right: fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  via: fc.constantFrom('api' as const, 'form' as const),
  next: redirectTarget(),
});

function seedOf(name: string): number {
  return Number.parseInt(createHash('sha256').update(`${FUZZ_SEED} ${name}`).digest('hex').slice(0, 8), 16) | 0;
}

function count<K>(keys: readonly K[]): Map<K, number> {
  const counts = new Map<K, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

describeEachDatabase('fuzz: the login', ({ start }) => {
  for (const store of STORES) {
    describe(`counters in ${store}`, () => {
      let t: TestApp;
      // Names and addresses of this process only: Redis keeps counters between runs for a minute.
      const run = randomBytes(4).toString('hex');
      let batch = 0;
      before(async () => {
        t = await start({ env: store === 'redis' ? { REDIS_URL: redisUrl! } : {} });
      });
      after(() => t?.close());

      const send = (one: Guess, name: string, address: string) =>
        one.via === 'api'
          ? t.app.inject({
              method: 'POST',
              url: '/api/login',
              payload: { username: name, password: one.right ? TEST_PASSWORD : 'wrong guess' },
              remoteAddress: address,
            })
          : t.app.inject({
              method: 'POST',
              url: '/login/',
              cookies: { [GUEST_CSRF_COOKIE]: GUEST_TOKEN },
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({
                _csrf: GUEST_TOKEN,
                username: name,
                password: one.right ? TEST_PASSWORD : 'wrong guess',
                next: one.next,
              }).toString(),
              remoteAddress: address,
            });

      it(`guesses sent at once: at most ${LOGIN_FAILURES_ALLOWED} hash checks per name and address between successes, the rest 429`, async () => {
        const passwords = t.services.users.passwords;
        const verify = passwords.verify.bind(passwords);
        let checks = 0;
        passwords.verify = async (password: string, stored: string) => {
          checks += 1;
          return verify(password, stored);
        };
        try {
          await fc.assert(
            fc.asyncProperty(fc.array(guess, { minLength: LOGIN_FAILURES_ALLOWED + 1, maxLength: 40 }), async (guesses) => {
              batch += 1;
              const names = [`fuzz login ${run} ${batch} a`, `fuzz login ${run} ${batch} b`, `fuzz nobody ${run} ${batch}`];
              const addresses = [0, 1, 2].map((i) => `10.${100 + i}.${Number.parseInt(run.slice(0, 2), 16)}.${batch % 256}`);
              for (const name of names.slice(0, 2)) await createUser(t, { name });
              checks = 0;
              const answers = await Promise.all(guesses.map((one) => send(one, names[one.name]!, `${addresses[one.address]!}`)));
              const statuses = answers.map((answer) => answer.statusCode);
              const hashed = guesses.filter((_, i) => statuses[i] !== 429);
              const succeeded = guesses.filter((_, i) => statuses[i] === 200 || statuses[i] === 303);
              const report = `statuses ${JSON.stringify([...count(statuses)])}, ${checks} hash checks`;
              assert.ok(
                statuses.every((status) => [200, 303, 401, 429].includes(status)),
                report,
              );
              assert.equal(checks, hashed.length, `every answer but 429 checked one hash, and no 429 did: ${report}`);
              const hashedByName = count(hashed.map((one) => one.name));
              const successesByName = count(succeeded.map((one) => one.name));
              for (const [name, hashes] of hashedByName) {
                // A success clears the name's failures: five more may follow it.
                assert.ok(hashes <= LOGIN_FAILURES_ALLOWED * (1 + (successesByName.get(name) ?? 0)), `name ${name}: ${hashes} hashes; ${report}`);
              }
              const hashedByAddress = count(hashed.map((one) => one.address));
              const successesByAddress = count(succeeded.map((one) => one.address));
              for (const [address, hashes] of hashedByAddress) {
                // A success gives the address its attempt back.
                assert.ok(hashes <= LOGIN_FAILURES_ALLOWED + (successesByAddress.get(address) ?? 0), `address ${address}: ${hashes} hashes; ${report}`);
              }
              for (const [i, one] of guesses.entries()) {
                if (statuses[i] === 429) continue;
                const member = one.name < 2;
                const expected = member && one.right ? (one.via === 'api' ? 200 : 303) : 401;
                assert.equal(statuses[i], expected, `guess ${i} ${JSON.stringify(one)}; ${report}`);
                const location = answers[i]!.headers['location'];
                if (typeof location === 'string') assert.ok(staysOnSite(location), `next ${JSON.stringify(one.next)} → ${location}`);
              }
            }),
            { seed: seedOf(`login ${store} guesses`), numRuns: Math.max(1, Math.round(BATCHES * FUZZ_SCALE)) },
          );
        } finally {
          passwords.verify = verify;
        }
      });

      it('hostile next: a signed-in visitor of /login/ and a member signing in both stay on the site', async () => {
        const member = await createUser(t, { name: `fuzz next ${run}` });
        const visitor = new Browser(t);
        assert.equal((await visitor.logIn(member.username, TEST_PASSWORD)).status, 303);
        await fc.assert(
          fc.asyncProperty(redirectTarget(), fc.boolean(), async (next, signingIn) => {
            const response = signingIn
              ? await t.app.inject({
                  method: 'POST',
                  url: '/login/',
                  cookies: { [GUEST_CSRF_COOKIE]: GUEST_TOKEN },
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  payload: new URLSearchParams({ _csrf: GUEST_TOKEN, username: member.username, password: TEST_PASSWORD, next }).toString(),
                })
              : await t.app.inject({ method: 'GET', url: `/login/?next=${encodeURIComponent(next)}`, cookies: Object.fromEntries(visitor.cookies) });
            assert.equal(response.statusCode, 303);
            const location = String(response.headers['location']);
            assert.ok(staysOnSite(location), `${JSON.stringify(next)} → ${location}`);
          }),
          { seed: seedOf(`login ${store} next`), numRuns: Math.max(1, Math.round(NEXT_RUNS * FUZZ_SCALE)) },
        );
      });
    });
  }
});
