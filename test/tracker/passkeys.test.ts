import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { systemClock } from '../../src/clock.ts';
import { openDatabase } from '../../src/db/database.ts';
import { redactUrl } from '../../src/http/request-log.ts';
import { PasskeyService, generatePasskey, isPasskeyShape } from '../../src/tracker/passkeys.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';

it('passkeys are 20 random letters and digits', () => {
  const keys = new Set(Array.from({ length: 200 }, generatePasskey));
  assert.equal(keys.size, 200);
  for (const key of keys) assert.match(key, /^[A-Za-z0-9]{20}$/);
  assert.equal(isPasskeyShape('a'.repeat(20)), true);
  assert.equal(isPasskeyShape('a'.repeat(19)), false);
  assert.equal(isPasskeyShape(`${'a'.repeat(19)}-`), false);
});

it('a passkey in an announce or scrape URL never reaches the request log', () => {
  assert.equal(redactUrl('/bt/announce.php?info_hash=%AA&uk=AbCdEfGhIjKlMnOpQrSt&port=6881'), '/bt/announce.php?info_hash=%AA&uk=***&port=6881');
  assert.equal(redactUrl('/bt/scrape?uk=AbCdEfGhIjKlMnOpQrSt'), '/bt/scrape?uk=***');
  // The path style of other trackers, which clients keep: not served here, but logged as a 404.
  assert.equal(redactUrl('/bt/AbCdEfGhIjKlMnOpQrSt/announce?info_hash=%AA'), '/bt/***/announce?info_hash=%AA');
  assert.equal(redactUrl('/announce/AbCdEfGhIjKlMnOpQrSt'), '/announce/***');
  assert.equal(redactUrl('/AbCdEfGhIjKlMnOpQrSt/announce.php?port=1'), '/***/announce.php?port=1');
  assert.equal(redactUrl('/bt/scrape/AbCdEfGhIjKlMnOpQrSt?x=1'), '/bt/scrape/***?x=1');
  assert.equal(redactUrl('/topic/abcdefghijabcdefghij/'), '/topic/abcdefghijabcdefghij/', 'elsewhere a segment is only a segment');
});

describeEachDatabase('the request log', (db) => {
  it('never carries a passkey put in the path of a tracker URL', async () => {
    const lines: string[] = [];
    const t = await db.start({ logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) });
    try {
      const passkey = generatePasskey();
      const response = await t.app.inject({ method: 'GET', url: `/bt/${passkey}/announce?info_hash=%AA&port=6881` });
      assert.equal(response.statusCode, 404);
      assert.ok(
        lines.some((line) => line.includes('/bt/***/announce')),
        'the request is logged',
      );
      assert.ok(!lines.some((line) => line.includes(passkey)));
    } finally {
      await t.close();
    }
  });
});

describeEachDatabase('passkeys', (db) => {
  let t: TestApp;
  let passkeys: PasskeyService;
  before(async () => {
    t = await db.start();
    passkeys = t.services.tracker.passkeys;
  });
  after(() => t.close());

  it('are created on first need and stay the same after', async () => {
    const user = await createUser(t);
    assert.equal(await passkeys.current(user.id), null);
    const first = await passkeys.forUser(user.id);
    assert.ok(isPasskeyShape(first));
    assert.equal(await passkeys.forUser(user.id), first);
    assert.equal(await passkeys.lookup(first), user.id);
  });

  it('create exactly one passkey when several first needs arrive together', async () => {
    const user = await createUser(t);
    const keys = await Promise.all(Array.from({ length: 5 }, () => passkeys.forUser(user.id)));
    assert.equal(new Set(keys).size, 1);
    assert.equal(await passkeys.current(user.id), keys[0]);
  });

  it('stop working at once when rotated; the new one works', async () => {
    const user = await createUser(t);
    const old = await passkeys.forUser(user.id);
    assert.equal(await passkeys.lookup(old), user.id); // now cached
    const fresh = await passkeys.rotate(user.id);
    assert.notEqual(fresh, old);
    assert.equal(await passkeys.lookup(old), null);
    assert.equal(await passkeys.lookup(fresh), user.id);
    assert.equal(await passkeys.current(user.id), fresh);
  });

  it('stop working at once when revoked; the next need creates a new one', async () => {
    const user = await createUser(t);
    const old = await passkeys.forUser(user.id);
    await passkeys.lookup(old);
    assert.equal(await passkeys.revoke(user.id), true);
    assert.equal(await passkeys.lookup(old), null);
    assert.equal(await passkeys.current(user.id), null);
    assert.equal(await passkeys.revoke(user.id), false);
    const next = await passkeys.forUser(user.id);
    assert.notEqual(next, old);
    assert.equal(await passkeys.lookup(next), user.id);
  });

  it('answer unknown and malformed passkeys with null', async () => {
    assert.equal(await passkeys.lookup(generatePasskey()), null);
    assert.equal(await passkeys.lookup('short'), null);
    assert.equal(await passkeys.lookup("' or 1=1 --aaaaaaaaa"), null);
  });

  it('answer repeated lookups from memory, without the database', async () => {
    const user = await createUser(t);
    const key = await passkeys.forUser(user.id);
    const unknown = generatePasskey();
    await passkeys.lookup(key);
    await passkeys.lookup(unknown);
    // Change the database behind the cache's back: a cached answer does not see it.
    await t.database.db
      .updateTable('passkeys')
      .set({ user_id: (await createUser(t)).id })
      .where('passkey', '=', key)
      .execute();
    assert.equal(await passkeys.lookup(key), user.id);
    assert.equal(await passkeys.lookup(unknown), null);
  });

  it('are forgotten with their user', async () => {
    const user = await createUser(t);
    const key = await passkeys.forUser(user.id);
    await t.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    assert.equal(await t.database.db.selectFrom('passkeys').select('passkey').where('passkey', '=', key).executeTakeFirst(), undefined);
  });

  if (db.kind === 'postgres') {
    it('stop working on every instance when rotated on one (change feed)', async () => {
      const other = openDatabase(t.testDatabase.config, pino({ level: 'silent' }));
      try {
        const elsewhere = new PasskeyService(other.db, other.changes, systemClock);
        const user = await createUser(t);
        const old = await passkeys.forUser(user.id);
        assert.equal(await elsewhere.lookup(old), user.id); // cached on the other instance
        await new Promise((resolve) => setTimeout(resolve, 200)); // its LISTEN connection is up
        await passkeys.rotate(user.id);
        const deadline = Date.now() + 3000;
        while ((await elsewhere.lookup(old)) !== null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(await elsewhere.lookup(old), null);
      } finally {
        await other.close();
      }
    });
  }
});
