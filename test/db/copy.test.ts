import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import type { ColumnInfo, TableInfo } from '../../src/db/copy/catalog.ts';
import { TableChecksum, normalize } from '../../src/db/copy/checksum.ts';
import { CopyRefused, copyDatabase, tableChecksums, type CopyReport, type TableSummary } from '../../src/db/copy/copy.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { startTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from '../helpers/databases.ts';
import { FILLED_TABLES, fillWithEveryKindOfContent, type Filled } from './every-kind-of-content.ts';
import { CHILD_PROCESS_MS } from '../helpers/processes.ts';

const log = pino({ level: 'silent' });
const node = process.execPath;
const cli = new URL('../../src/db/copy-cli.ts', import.meta.url).pathname;

/** sqlite → postgres → sqlite when PostgreSQL is configured; sqlite → sqlite otherwise. */
const [first, second]: [DatabaseKind, DatabaseKind] = databaseKinds().includes('postgres') ? ['sqlite', 'postgres'] : ['sqlite', 'sqlite'];

function byName(summaries: readonly TableSummary[]): Record<string, { rows: number; checksum: string }> {
  return Object.fromEntries(summaries.map((s) => [s.name, { rows: s.rows, checksum: s.checksum }]));
}

describe(`npm run db:copy (${first} → ${second} → ${first})`, () => {
  let source: TestApp;
  let filled: Filled;
  let sourceSums: TableSummary[];
  let middle: TestDatabase;
  let back: TestDatabase;
  let report: CopyReport;
  let backReport: CopyReport;
  let adminHeaders: Record<string, string>;
  const handles: DatabaseHandle[] = [];
  const open = (database: TestDatabase): DatabaseHandle => {
    const handle = openDatabase(database.config, log);
    handles.push(handle);
    return handle;
  };

  before(async () => {
    source = await startTestApp(first, { sqliteFile: true });
    filled = await fillWithEveryKindOfContent(source);
    const admin = await source.services.auth.issueToken(await source.services.users.get(1));
    adminHeaders = { authorization: `Bearer ${admin.token}` };
    sourceSums = await tableChecksums(source.database);
    middle = await createTestDatabase(second, { sqliteFile: true });
    back = await createTestDatabase(first, { sqliteFile: true });
    report = await copyDatabase(open(source.testDatabase), open(middle), log);
    // Before the tests below write to the copy.
    backReport = await copyDatabase(open(middle), open(back), log);
  });
  after(async () => {
    for (const handle of handles) await handle.close();
    await source.close();
    await middle.drop();
    await back.drop();
  });

  it('copies every table of the source, each verified by row count and checksum', () => {
    assert.deepEqual(byName(report.tables), byName(sourceSums));
    for (const name of FILLED_TABLES) assert.ok((byName(report.tables)[name]?.rows ?? 0) > 0, `${name} has rows in the fixture`);
  });

  it('leaves a target whose own checksums, computed independently, equal the source', async () => {
    assert.deepEqual(byName(await tableChecksums(open(middle))), byName(sourceSums));
  });

  describe('the service on the copy', () => {
    let copy: BuiltApp;
    const uploads = mkdtempSync(join(tmpdir(), 'forum-uploads-'));
    before(async () => {
      copy = await buildApp(testConfig(middle, { UPLOAD_DIR: uploads }), { logger: log });
    });
    after(async () => {
      await copy.app.close();
      rmSync(uploads, { recursive: true, force: true });
    });

    it('answers the API exactly as the original did (ids, timestamps, booleans, relations)', async () => {
      for (const url of [
        `/api/word-filters/${filled.wordFilterId}`,
        '/api/emoji/emojis?with_category=1&with_aliases=1',
        '/api/emoji/categories?with_emojis=1',
      ]) {
        const original = await source.app.inject({ method: 'GET', url, headers: adminHeaders });
        // The token was copied with the rest: it opens the copy too.
        const copied = await copy.app.inject({ method: 'GET', url, headers: adminHeaders });
        assert.equal(copied.statusCode, 200, url);
        assert.deepEqual(copied.json(), original.json(), url);
      }
    });

    it('lets members log in with their old password and shows their topic', async () => {
      const login = await copy.app.inject({ method: 'POST', url: '/api/login', payload: filled.member });
      assert.equal(login.statusCode, 200);
      const topic = await copy.app.inject({ method: 'GET', url: `/api/topics/${filled.topicId}` });
      assert.equal(topic.statusCode, 200);
      assert.equal(topic.json().data.title, 'Привет, мир: the first topic');
    });

    it('finds the copied posts once its start-up has indexed them (the search index is made, not copied)', async () => {
      await copy.services.searchBackfill.run();
      const found = await copy.app.inject({ method: 'GET', url: '/api/search?search=мир+hello' });
      assert.equal(found.statusCode, 200);
      assert.equal(found.json().meta.total, 1);
    });

    it('gives new rows new ids past the copied ones (sequences moved)', async () => {
      const highest = await copy.database.db
        .selectFrom('forums')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      const created = await copy.services.forum.createForum({ name: 'Made after the copy', description: '' });
      assert.equal(created.id, Number(highest.id) + 1);
      const user = await copy.services.users.create({
        username: 'aftercopy',
        email: 'after@example.test',
        password: 'correct horse battery',
        role: 'user',
        status: 'active',
      });
      const users = sourceSums.find((s) => s.name === 'users')!.rows;
      assert.ok(user.id > users, `new user id ${user.id} above the ${users} copied`);
      await copy.services.users.delete(user.id);
      await copy.services.forum.deleteForum(created.id);
    });
  });

  it(`copies back the other way (${second} → ${first}) to the same checksums`, async () => {
    assert.deepEqual(byName(backReport.tables), byName(sourceSums));
    assert.deepEqual(byName(await tableChecksums(open(back))), byName(sourceSums));
  });

  it('refuses a target that already holds rows, and leaves it as it was', async () => {
    const target = open(middle);
    const before = await tableChecksums(target);
    await assert.rejects(copyDatabase(open(source.testDatabase), target, log), (error: unknown) => {
      assert.ok(error instanceof CopyRefused);
      assert.match(error.message, /not empty.*users \(\d+ rows\)/);
      return true;
    });
    assert.deepEqual(await tableChecksums(target), before);
  });

  it('refuses a source that lacks migrations', async () => {
    const bare = await createTestDatabase(first, { sqliteFile: true });
    const empty = await createTestDatabase(second, { sqliteFile: true });
    try {
      await assert.rejects(copyDatabase(open(bare), open(empty), log), /source lacks migrations 0001_users/);
    } finally {
      await bare.drop();
      await empty.drop();
    }
  });

  it('refuses when source and target schemas differ, naming the difference', async () => {
    const target = await createTestDatabase(second, { sqliteFile: true });
    try {
      const handle = open(target);
      await sql`create table local_notes (id integer primary key, note text)`.execute(handle.db);
      await assert.rejects(copyDatabase(open(source.testDatabase), handle, log), (error: unknown) => {
        assert.ok(error instanceof CopyRefused);
        assert.match(error.message, /schemas differ:\n {2}table local_notes exists only in the target/);
        return true;
      });
    } finally {
      await target.drop();
    }
  });

  it('checksums catch a changed value, and the checksum differs from the unchanged table', async () => {
    const handle = open(back);
    const beforeChange = byName(await tableChecksums(handle))['posts'];
    await sql`update posts set body = body || '.' where id = (select min(id) from posts)`.execute(handle.db);
    const afterChange = byName(await tableChecksums(handle))['posts'];
    assert.equal(afterChange?.rows, beforeChange?.rows);
    assert.notEqual(afterChange?.checksum, beforeChange?.checksum);
  });

  describe('the command', () => {
    it('copies into an empty database and prints what it verified (exit 0)', async () => {
      const fresh = await createTestDatabase('sqlite', { sqliteFile: true });
      try {
        const run = spawnSync(node, [cli, '--from', source.testDatabase.url, '--to', fresh.url], { encoding: 'utf8', timeout: CHILD_PROCESS_MS });
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /^Copied \d+ tables, \d+ rows in \d+ ms; row counts and checksums verified\./);
        assert.match(run.stdout, /\n {2}posts +3 +[0-9a-f]{32}\n/);
      } finally {
        await fresh.drop();
      }
    });

    it('refuses a non-empty target with a message and exit 2', () => {
      const run = spawnSync(node, [cli, '--from', source.testDatabase.url, '--to', middle.url], { encoding: 'utf8', timeout: CHILD_PROCESS_MS });
      assert.equal(run.status, 2);
      assert.match(run.stderr, /^Copy refused: the target is not empty/);
    });

    it('explains its arguments when one is missing or not a database URL (exit 2)', () => {
      const missing = spawnSync(node, [cli, '--from', source.testDatabase.url], { encoding: 'utf8', timeout: CHILD_PROCESS_MS });
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /--to is required\nusage: npm run db:copy/);
      const wrong = spawnSync(node, [cli, '--from', 'mysql://x', '--to', 'sqlite:/tmp/x.db'], { encoding: 'utf8', timeout: CHILD_PROCESS_MS });
      assert.equal(wrong.status, 2);
      assert.match(wrong.stderr, /--from must start with sqlite: or postgres:\/\//);
    });
  });
});

describe('table checksums', () => {
  const column = (name: string, kind: ColumnInfo['kind']): ColumnInfo => ({ name, type: kind, kind });
  const table: TableInfo = {
    name: 't',
    columns: [column('id', 'other'), column('flag', 'boolean'), column('data', 'other')],
    primaryKey: ['id'],
    references: [],
    sequenced: [],
  };
  const sum = (...rows: Record<string, unknown>[]): string => {
    const checksum = new TableChecksum(table);
    for (const row of rows) checksum.add(row);
    return checksum.value;
  };

  it('normalize SQLite and PostgreSQL forms of one value alike (0/1 and booleans, bigints, blobs and bytea)', () => {
    assert.equal(normalize(1, column('b', 'boolean')), normalize(true, column('b', 'boolean')));
    assert.equal(normalize(0, column('b', 'boolean')), normalize(false, column('b', 'boolean')));
    assert.equal(normalize(12n, column('n', 'other')), normalize(12, column('n', 'other')));
    assert.equal(normalize(new Uint8Array([1, 255]), column('x', 'other')), normalize(Buffer.from([1, 255]), column('x', 'other')));
    assert.equal(normalize('{"b":1,"a":2}', column('j', 'json')), normalize({ a: 2, b: 1 }, column('j', 'json')));
    assert.notEqual(normalize(null, column('s', 'other')), normalize('', column('s', 'other')));
  });

  it('do not depend on row order, but count a repeated row twice', () => {
    const a = { id: 1, flag: 1, data: 'x' };
    const b = { id: 2, flag: 0, data: null };
    assert.equal(sum(a, b), sum(b, a));
    assert.notEqual(sum(a, b), sum(a, b, b));
    assert.notEqual(sum(a), sum({ ...a, data: 'y' }));
  });
});
