import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { BackupError, backup, restore } from '../../src/db/backup.ts';
import { tableChecksums } from '../../src/db/copy/copy.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { describeEachDatabase, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts';
import { asAuthUser } from '../helpers/forum.ts';
import { fillWithEveryKindOfContent, type Filled } from './every-kind-of-content.ts';
import { CHILD_PROCESS_MS } from '../helpers/processes.ts';

const log = pino({ level: 'silent' });
const cli = new URL('../../src/db/backup-cli.ts', import.meta.url).pathname;

describeEachDatabase('npm run db:backup and db:restore', (db) => {
  let t: TestApp;
  let filled: Filled;
  const folder = mkdtempSync(join(tmpdir(), 'forum-backups-'));
  const databases: TestDatabase[] = [];
  const handles: DatabaseHandle[] = [];
  const emptyDatabase = async (): Promise<TestDatabase> => {
    const created = await createTestDatabase(db.kind, { sqliteFile: true });
    databases.push(created);
    return created;
  };
  const open = (database: TestDatabase): DatabaseHandle => {
    const handle = openDatabase(database.config, log);
    handles.push(handle);
    return handle;
  };

  before(async () => {
    t = await db.start({ sqliteFile: true });
    filled = await fillWithEveryKindOfContent(t);
  });
  after(async () => {
    for (const handle of handles) await handle.close();
    for (const database of databases) await database.drop();
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('restores exactly what was backed up, into an empty database the service then runs on', async () => {
    const expected = await tableChecksums(t.database);
    const file = join(folder, `quiet.${db.kind}`);
    const written = await backup(t.config.database, file);
    assert.ok(written.bytes > 0);
    const target = await emptyDatabase();
    await restore(file, target.config);
    assert.deepEqual(await tableChecksums(open(target)), expected);

    const uploads = mkdtempSync(join(tmpdir(), 'forum-uploads-'));
    const restored = await buildApp(testConfig(target, { UPLOAD_DIR: uploads }), { logger: log });
    try {
      const login = await restored.app.inject({ method: 'POST', url: '/api/login', payload: filled.member });
      assert.equal(login.statusCode, 200);
      const topic = await restored.app.inject({ method: 'GET', url: `/api/topics/${filled.topicId}` });
      assert.equal(topic.json().data.title, 'Привет, мир: the first topic');
    } finally {
      await restored.app.close();
      rmSync(uploads, { recursive: true, force: true });
    }
  });

  it('takes a consistent copy while writes go on (counters agree with the rows they count)', async () => {
    const author = asAuthUser(await t.services.users.get(1));
    const postsBefore = await countPosts(t.database);
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (let i = 0; i < 400 && writing; i += 1) {
        await t.services.forum.reply(filled.topicId, author, `Written during the backup, number ${i}`);
        written += 1;
      }
    })();
    // Let some writes land first, so the backup really runs among them.
    while (written < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    const file = join(folder, `busy.${db.kind}`);
    await backup(t.config.database, file);
    writing = false;
    await writer;

    const target = await emptyDatabase();
    await restore(file, target.config);
    const copy = open(target);
    const inBackup = await countPosts(copy);
    assert.ok(inBackup > postsBefore && inBackup <= postsBefore + written, `${inBackup} posts: between ${postsBefore} and ${postsBefore + written}`);
    const counters = await sql<{ id: number; posts_count: number; published: number }>`
      select t.id, t.posts_count, (select count(*) from posts p where p.topic_id = t.id and p.status = 'published') as published from topics t`.execute(
      copy.db,
    );
    for (const row of counters.rows) assert.equal(Number(row.posts_count), Number(row.published), `topic ${row.id}: counter and rows agree`);
  });

  it('refuses to restore over a database that holds rows, and leaves it as it was', async () => {
    const file = join(folder, `again.${db.kind}`);
    await backup(t.config.database, file);
    const before = await tableChecksums(t.database);
    await assert.rejects(
      restore(file, t.config.database),
      (error: unknown) => error instanceof BackupError && error.refused && /not empty|already has/.test(error.message),
    );
    assert.deepEqual(await tableChecksums(t.database), before);
  });

  it('never overwrites an existing file', async () => {
    const file = join(folder, `taken.${db.kind}`);
    writeFileSync(file, 'something else');
    await assert.rejects(backup(t.config.database, file), (error: unknown) => error instanceof BackupError && error.refused);
  });

  it('works from the command line with DATABASE_URL (exit 0), and restores with --from', async () => {
    const file = join(folder, `cli.${db.kind}`);
    const made = spawnSync(process.execPath, [cli, 'backup', '--to', file], {
      encoding: 'utf8',
      timeout: CHILD_PROCESS_MS,
      env: { ...process.env, DATABASE_URL: t.testDatabase.url },
    });
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /^Backup written to .* \(\d+ bytes in \d+ ms\)\./);
    assert.ok(existsSync(file));
    const target = await emptyDatabase();
    const restored = spawnSync(process.execPath, [cli, 'restore', '--from', file], {
      encoding: 'utf8',
      timeout: CHILD_PROCESS_MS,
      env: { ...process.env, DATABASE_URL: target.url },
    });
    assert.equal(restored.status, 0, restored.stderr);
    assert.deepEqual(await tableChecksums(open(target)), await tableChecksums(t.database));
    const refused = spawnSync(process.execPath, [cli, 'restore', '--from', file], {
      encoding: 'utf8',
      timeout: CHILD_PROCESS_MS,
      env: { ...process.env, DATABASE_URL: target.url },
    });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^Restore failed: /);
  });
});

async function countPosts(database: DatabaseHandle): Promise<number> {
  const row = await database.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
