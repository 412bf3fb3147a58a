import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser, signIn } from '../helpers/auth.ts';

describeEachDatabase('POST /api/login', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const login = (username: string, password: string, address = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: address });

  it('returns a Bearer token, its expiry and the user', async () => {
    const user = await createUser(t, { name: 'Alice Login', role: 'moderator' });
    const response = await login('Alice Login', TEST_PASSWORD);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.success, true);
    assert.equal(body.data.token_type, 'Bearer');
    assert.match(body.data.token, /^[\w-]{40,}$/);
    const days = (Date.parse(body.data.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    assert.deepEqual(body.data.user, { id: user.id, name: 'Alice Login', email: user.email, role: 'moderator' });

    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${body.data.token}` } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().data.id, user.id);
  });

  it('matches the user name ignoring case', async () => {
    await createUser(t, { name: 'CaseFolded' });
    assert.equal((await login('casefolded', TEST_PASSWORD)).statusCode, 200);
  });

  it('answers an unknown user and a wrong password with the same 401', async () => {
    await createUser(t, { name: 'Bob Known' });
    const wrong = await login('Bob Known', 'not the password', '10.0.0.2');
    const unknown = await login('Nobody Here', 'not the password', '10.0.0.3');
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(wrong.json(), unknown.json());
    assert.equal(wrong.json().error.code, 'UNAUTHENTICATED');
  });

  it('does the same password work for an unknown user as for a wrong password', async () => {
    // Counted, not timed: one scrypt check of a hash at the configured cost on both paths
    // (a timing test measured the machine's load more than the code).
    await createUser(t, { name: 'Timing User' });
    const passwords = t.services.users.passwords;
    const checked: string[] = [];
    const verify = passwords.verify.bind(passwords);
    passwords.verify = async (password: string, stored: string) => {
      checked.push(stored.split('$').slice(0, 4).join('$'));
      return verify(password, stored);
    };
    try {
      assert.equal((await login('Timing User', 'wrong password', '10.1.0.1')).statusCode, 401);
      assert.equal((await login('Timing Nobody', 'wrong password', '10.1.0.2')).statusCode, 401);
    } finally {
      passwords.verify = verify;
    }
    const cost = `scrypt$${2 ** t.config.passwordHashCost}$8$1`;
    assert.deepEqual(checked, [cost, cost]);
  });

  it('refuses a banned or not yet activated account with 403, but only with the right password', async () => {
    await createUser(t, { name: 'Banned Bea', status: 'banned' });
    await createUser(t, { name: 'Pending Pat', status: 'pending' });
    assert.equal((await login('Banned Bea', TEST_PASSWORD)).statusCode, 403);
    assert.equal((await login('Pending Pat', TEST_PASSWORD)).statusCode, 403);
    assert.equal((await login('Banned Bea', 'wrong password', '10.0.0.9')).statusCode, 401);
  });

  it('throttles a user name after five failures in a minute (429 with Retry-After)', async () => {
    await createUser(t, { name: 'Target User' });
    for (let i = 0; i < 5; i++) {
      assert.equal((await login('Target User', 'guess', `10.2.0.${i}`)).statusCode, 401);
    }
    const blocked = await login('Target User', TEST_PASSWORD, '10.2.0.99');
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
  });

  it('throttles an address after five failures in a minute, whatever the names', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await login(`someone${i}`, 'guess', '10.3.0.1')).statusCode, 401);
    }
    assert.equal((await login('someone-else', 'guess', '10.3.0.1')).statusCode, 429);
    assert.equal((await login('someone-else', 'guess', '10.3.0.2')).statusCode, 401);
  });

  it('validates the body (422)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login', payload: {} });
    assert.equal(response.statusCode, 422);
    assert.deepEqual(Object.keys(response.json().errors).sort(), ['password', 'username']);
  });
});

describeEachDatabase('tokens', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/user', headers });

  it('GET /api/user without credentials is 401 in the envelope', async () => {
    const response = await me({});
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().error.code, 'UNAUTHENTICATED');
  });

  it('POST /api/logout revokes the token used', async () => {
    const caller = await signIn(t);
    assert.equal((await me(caller.headers)).statusCode, 200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: caller.headers });
    assert.equal(out.statusCode, 200);
    assert.equal((await me(caller.headers)).statusCode, 401);
  });

  it('a tampered token is 401', async () => {
    const caller = await signIn(t);
    const tampered = caller.token.slice(0, -2) + (caller.token.endsWith('AA') ? 'BB' : 'AA');
    assert.equal((await me({ authorization: `Bearer ${tampered}` })).statusCode, 401);
    assert.equal((await me({ authorization: 'Bearer nonsense' })).statusCode, 401);
    assert.equal((await me({ authorization: caller.token })).statusCode, 401, 'the Bearer scheme is required');
  });

  it('an expired token is 401', async () => {
    const caller = await signIn(t);
    await t.database.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', caller.user.id)
      .execute();
    assert.equal((await me(caller.headers)).statusCode, 401);
  });

  it('a banned user’s tokens stop working at once', async () => {
    const caller = await signIn(t);
    assert.equal((await me(caller.headers)).statusCode, 200);
    await t.services.users.update(caller.user.id, { status: 'banned' });
    assert.equal((await me(caller.headers)).statusCode, 401);
  });

  it('tokens are stored only as hashes', async () => {
    const caller = await signIn(t);
    const rows = await t.database.db.selectFrom('api_tokens').select('token_hash').where('user_id', '=', caller.user.id).execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]?.token_hash, caller.token);
    assert.ok(!rows[0]?.token_hash.includes(caller.token));
  });

  it('passwords are stored as salted slow hashes', async () => {
    const a = await createUser(t, { password: 'same password 1' });
    const b = await createUser(t, { password: 'same password 1' });
    assert.match(a.password_hash, /^scrypt\$/);
    assert.notEqual(a.password_hash, b.password_hash);
    assert.ok(!a.password_hash.includes('same password'));
  });
});

describeEachDatabase('POST /api/login with a password hash carried over from TorrentPier', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, remoteAddress: '10.9.0.1' });
  const storedHash = async (id: number) =>
    (await t.database.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;

  for (const [scheme, make] of [
    ['bcrypt ($2y$)', (password: string) => bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2y$')],
    ['md5(md5())', (password: string) => createHash('md5').update(createHash('md5').update(password).digest('hex')).digest('hex')],
  ] as const) {
    it(`logs in with the old ${scheme} password and stores it as ours from then on`, async () => {
      const user = await createUser(t, { name: `Old ${scheme}` });
      const old = make('old forum password');
      await t.database.db.updateTable('users').set({ password_hash: old }).where('id', '=', user.id).execute();

      assert.equal((await login(`Old ${scheme}`, 'wrong password')).statusCode, 401);
      assert.equal(await storedHash(user.id), old, 'a failed login changes nothing');

      assert.equal((await login(`Old ${scheme}`, 'old forum password')).statusCode, 200);
      assert.match(await storedHash(user.id), /^scrypt\$/);
      assert.equal((await login(`Old ${scheme}`, 'old forum password')).statusCode, 200, 'the rehashed password still works');
    });
  }
});
