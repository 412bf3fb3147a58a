// Issue 27 item 6: no new name may look like an existing one. Invisible
// characters are refused in names (422 on `username`, naming the character),
// and a name whose skeleton (Unicode TR 39, db/username-skeleton.ts) is a
// member's is "taken", in registration and in an admin's rename, held by the
// database under concurrent requests. Look-alike names kept from before
// (imported) go on working. docs/members.md, "Look-alike names".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { isUniqueViolation } from '../../src/db/dialect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { usernameSkeleton } from '../../src/db/username-skeleton.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn, TEST_PASSWORD, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';
import { dom } from '../helpers/dom.ts';

const PASSWORD = 'a long secret';
const TAKEN = 'The username has already been taken.';

/** Names that display exactly as `admin` or `mod`, each with the invisible character it holds. */
const INVISIBLE: ReadonlyArray<[string, string]> = [
  ['admin\u034f', 'U+034F'],
  ['admin\ufe00', 'U+FE00'],
  ['ad\u180bmin', 'U+180B'],
  ['mod\u034f', 'U+034F'],
  ['ad\u200dmin', 'U+200D'],
  ['\u3164admin', 'U+3164'],
];

describe('the skeleton of a name', () => {
  it('is the same for names a reader takes for each other, whatever their case', () => {
    const alike: Array<[string, string]> = [
      ['\u0410dmin', 'admin'], // Cyrillic А
      ['admin\u034f', 'admin'],
      ['ad\u180bmin', 'admin'],
      ['𝔭𝒶ỿ𝕡𝕒ℓ', 'paypal'],
      ['Ivan', 'lvan'],
      ['rnod', 'mod'],
      ['B0B', 'bob'],
      ['ADMIN', 'admin'],
      ['ADM\u0406N', 'admin'], // Cyrillic І in capitals
      ['ADMlN', 'admin'], // a small L among capitals
      ['adm\u0131n', 'admin'], // dotless ı
    ];
    for (const [one, other] of alike) assert.equal(usernameSkeleton(one), usernameSkeleton(other), `${one} / ${other}`);
    for (const [one, other] of [
      ['admin', 'admins'],
      ['José', 'Jose'],
      ['Ёлка', 'Елка'],
    ] as const)
      assert.notEqual(usernameSkeleton(one), usernameSkeleton(other), `${one} / ${other}`);
  });
});

describeEachDatabase('look-alike user names', (db) => {
  let t: TestApp;
  let admin: SignedIn;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'admin');
    await createUser(t, { name: 'mod' });
  });
  after(() => t.close());

  const create = (username: string, email = `${Buffer.from(username).toString('hex').slice(0, 40)}@example.test`) =>
    t.app.inject({ method: 'POST', url: '/api/users', headers: admin.headers, payload: { username, email, password: PASSWORD } });
  const countUsers = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function register(values: Record<string, string>, language?: string) {
    const browser = new Browser(t, language === undefined ? {} : { 'accept-language': language });
    await browser.get('/register/');
    return browser.post('/register/', { password: PASSWORD, password_confirmation: PASSWORD, ...values });
  }

  describe('invisible characters', () => {
    it('are refused in a new name with a 422 on username that names the character, in the API and on the registration page', async () => {
      const before = await countUsers();
      for (const [name, character] of INVISIBLE) {
        const message = `The username field contains an invisible character (${character}); use only characters that show.`;
        const api = await create(name);
        assert.equal(api.statusCode, 422, JSON.stringify(name));
        assert.deepEqual(api.json().errors, { username: [message] }, JSON.stringify(name));
        const page = await register({ username: name, email: `page.${character.slice(2)}@example.test` });
        assert.equal(page.status, 422, JSON.stringify(name));
        assert.equal(dom(page).text('#username-error'), message);
      }
      assert.equal(await countUsers(), before, 'nobody was created');
    });

    it('are refused on the page in the reader’s language', async () => {
      const page = await register({ username: 'admin\u034f', email: 'ru.reader@example.test' }, 'ru');
      assert.equal(page.status, 422);
      assert.match(dom(page).text('#username-error'), /невидимый символ \(U\+034F\)/);
    });

    it('are refused in an admin’s rename', async () => {
      const member = await createUser(t, { name: 'Renamed Rita' });
      const response = await t.app.inject({ method: 'PATCH', url: `/api/users/${member.id}`, headers: admin.headers, payload: { username: 'Rita\u2060' } });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, { username: ['The username field contains an invisible character (U+2060); use only characters that show.'] });
      assert.equal((await t.services.users.get(member.id)).username, 'Renamed Rita');
    });
  });

  describe('names that look like a member’s', () => {
    it('are taken, with the same words as the name itself', async () => {
      const before = await countUsers();
      const exact = await create('ADMIN');
      assert.equal(exact.statusCode, 422);
      assert.deepEqual(exact.json().errors, { username: [TAKEN] });
      for (const name of ['\u0410dmin', '\u0430dmin', 'adm\u0456n', 'ADM\u0406N', 'ADMlN', 'rnod', 'MOD']) {
        const response = await create(name);
        assert.equal(response.statusCode, 422, name);
        assert.deepEqual(response.json(), exact.json(), `${name}: the refusal tells no more than the one for the name itself`);
      }
      const page = await register({ username: '\u0410dmin', email: 'cyrillic.a@example.test' });
      assert.equal(page.status, 422);
      assert.equal(dom(page).text('#username-error'), TAKEN);
      assert.equal(await countUsers(), before);
    });

    it('are taken in an admin’s rename; a change that looks as the name did is not', async () => {
      const bob = await createUser(t, { name: 'Bob Builder' });
      const url = `/api/users/${bob.id}`;
      const rename = (username: string) => t.app.inject({ method: 'PATCH', url, headers: admin.headers, payload: { username } });
      const refused = await rename('adm\u0131n'); // a dotless ı
      assert.equal(refused.statusCode, 422);
      assert.deepEqual(refused.json().errors, { username: [TAKEN] });
      assert.equal((await rename('BOB BUILDER')).statusCode, 200, 'the same name in capitals');
      assert.equal((await rename('Bob Bui1der')).statusCode, 200, 'a look-alike of their own name');
      assert.equal((await rename('Robert')).statusCode, 200);
      assert.equal((await create('Bob Builder')).statusCode, 201, 'the old name is free again');
    });

    it('are held by the database: of two look-alike names registered at once, one is created and the other refused', async () => {
      const results = await Promise.all([create('Carol Concurrent', 'carol.1@example.test'), create('C\u0430rol Concurrent', 'carol.2@example.test')]);
      assert.deepEqual(results.map((response) => response.statusCode).sort(), [201, 422]);
      assert.deepEqual(results.find((response) => response.statusCode === 422)!.json().errors, { username: [TAKEN] });
      const now = new Date().toISOString();
      const row = (username: string) => ({ username, email: `${username}@direct.test`, password_hash: 'x', role: 'user' as const, status: 'active' as const });
      await t.services.users.repository.insert(row('Dave Direct'), now);
      await assert.rejects(
        t.services.users.repository.insert(row('D\u0430ve Direct'), now),
        (error) => isUniqueViolation(error),
        'the unique index refuses it',
      );
    });
  });

  describe('look-alike names kept from before (an imported board)', () => {
    let kept: number;
    before(async () => {
      // As the TorrentPier import and migration 0027 leave them: the later name marked as a look-alike of the older.
      const hash = await t.services.users.passwords.hash(TEST_PASSWORD);
      const now = new Date().toISOString();
      const { id } = await t.database.db
        .insertInto('users')
        .values({
          username: 'M\u043ed',
          username_key: 'm\u043ed',
          username_skeleton: usernameSkeleton('M\u043ed'),
          username_lookalike: true,
          email: 'kept@example.test',
          email_key: 'kept@example.test',
          password_hash: hash,
          role: 'user',
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      kept = id;
    });

    it('log in and are changed as before, and keep their mark while their name looks the same', async () => {
      const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'M\u043ed', password: TEST_PASSWORD } });
      assert.equal(login.statusCode, 200);
      const headers = { authorization: `Bearer ${login.json().data.token}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', headers })).json().data.name, 'M\u043ed');
      const url = `/api/users/${kept}`;
      const patch = (payload: object) => t.app.inject({ method: 'PATCH', url, headers: admin.headers, payload });
      assert.equal((await patch({ role: 'moderator' })).statusCode, 200);
      assert.equal((await patch({ username: 'M\u041eD' })).statusCode, 200, 'capitals of the same look-alike name');
      assert.equal(Boolean((await t.services.users.get(kept)).username_lookalike), true);
      assert.equal((await patch({ username: 'Moderator Kept' })).statusCode, 200);
      const renamed = await t.services.users.get(kept);
      assert.equal(Boolean(renamed.username_lookalike), false, 'a name of its own: an ordinary name from now on');
      assert.equal((await create('M\u043ederator Kept')).statusCode, 422, 'and no one may look like it');
    });
  });
});

for (const kind of databaseKinds()) {
  describe(`[${kind}] migration 0027: skeletons of the names already there`, () => {
    const log = pino({ level: 'silent' });
    let database: TestDatabase;
    let handle: DatabaseHandle;
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    it('gives every user the skeleton of their name, marks the later of look-alikes, and lets none be added', async () => {
      database = await createTestDatabase(kind, { sqliteFile: true });
      handle = openDatabase(database.config, log);
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo('0026_swarm_credit')).error, undefined);
      const at = '2026-01-01T00:00:00.000Z';
      // Names as a TorrentPier board may hold them: MySQL's collation let these in side by side.
      const names = ['admin', 'Someone', '\u0410dmin', 'admin\u034f', 'Nobody', 's\u043emeone'];
      for (const name of names) {
        await sql`insert into users (username, username_key, email, email_key, password_hash, role, status, created_at, updated_at)
          values (${name}, ${name.toLowerCase()}, ${`${names.indexOf(name)}@old.test`}, ${`${names.indexOf(name)}@old.test`}, 'x', 'user', 'active', ${at}, ${at})`.execute(
          handle.db,
        );
      }
      await migrateToLatest(handle, log);
      const rows = await handle.db.selectFrom('users').select(['username', 'username_skeleton', 'username_lookalike']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((row) => [row.username, row.username_skeleton, Boolean(row.username_lookalike)]),
        names.map((name, i) => [name, usernameSkeleton(name), i === 2 || i === 3 || i === 5]),
      );
      await assert.rejects(
        handle.db
          .insertInto('users')
          .values({
            username: 'ADMIN\u200b',
            username_key: 'admin\u200b',
            username_skeleton: usernameSkeleton('admin'),
            email: 'new@old.test',
            email_key: 'new@old.test',
            password_hash: 'x',
            role: 'user',
            status: 'active',
            created_at: at,
            updated_at: at,
          })
          .execute(),
        (error) => isUniqueViolation(error),
      );
    });
  });
}
