import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn, type SignedIn } from '../helpers/auth.ts';
import { createRule } from '../helpers/forum.ts';

describeEachDatabase('users: word filters on names and signatures', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Filter Admin');
    await createRule(t, 'rudeword', 'block', ['usernames']);
    await createRule(t, 'iffyword', 'moderate', ['usernames']);
    await createRule(t, 'swapword', 'replace', ['usernames'], 'swappedword');
    await createRule(t, 'postonly', 'block', ['posts']);
  });
  after(() => t.close());

  const call = (method: 'POST' | 'PATCH', url: string, payload: object) => t.app.inject({ method, url, headers: admin.headers, payload });

  it('POST /api/users refuses a blocked name (422 on username), reported with the other service checks', async () => {
    const response = await call('POST', '/api/users', { username: 'Mr rudeword', email: admin.user.email, password: 'long enough' });
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json().errors, {
      username: ['The username contains words that are not allowed here.'],
      email: ['The email has already been taken.'],
    });
  });

  it('PATCH /api/users/{id} refuses renames that a usernames rule matches: block, moderate and replace', async () => {
    const user = await createUser(t, { name: 'Plain Name' });
    const cases: Array<[string, string]> = [
      ['Now rudeword', 'The username contains words that are not allowed here.'],
      ['Now iffyword', 'The username contains words that a moderator would have to review first. Please rephrase it.'],
      ['Now swapword', 'The username contains words that are not allowed here.'],
    ];
    for (const [username, message] of cases) {
      const response = await call('PATCH', `/api/users/${user.id}`, { username });
      assert.equal(response.statusCode, 422, username);
      assert.deepEqual(response.json().errors, { username: [message] }, username);
    }
    assert.equal((await t.services.users.get(user.id)).username, 'Plain Name');
  });

  it('allows names the rules do not match, and rules of other content types do not count', async () => {
    const user = await createUser(t, { name: 'Before Rename' });
    const response = await call('PATCH', `/api/users/${user.id}`, { username: 'After postonly' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().data.name, 'After postonly');
  });

  it('does not re-check an unchanged name when other fields change', async () => {
    const user = await createUser(t, { name: 'Grandfathered' });
    await createRule(t, 'grandfathered', 'block', ['usernames']);
    const response = await call('PATCH', `/api/users/${user.id}`, { username: 'Grandfathered', role: 'moderator' });
    assert.equal(response.statusCode, 200);
  });

  it('refuses blocked and moderated signatures in the users service, and stores replaceable ones as written', async () => {
    await createRule(t, 'sigblock', 'block', ['signatures']);
    await createRule(t, 'sigswap', 'replace', ['signatures'], 'sigswapped');
    const user = await createUser(t);
    await assert.rejects(t.services.users.update(user.id, { signature: 'sigblock' }), {
      name: 'ValidationError',
      errors: { signature: ['The signature contains words that are not allowed here.'] },
    });
    await t.services.users.update(user.id, { signature: 'A sigswap here' });
    assert.equal((await t.services.users.get(user.id)).signature, 'A sigswap here');
  });
});
