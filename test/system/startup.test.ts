import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';

/** Connections the service holds to the test database (PostgreSQL), or whether SQLite's WAL is still open. */
async function stillOpen(database: TestDatabase): Promise<boolean> {
  if (database.config.dialect === 'sqlite') return existsSync(`${database.config.path}-wal`);
  const admin = new pg.Client({ connectionString: process.env['TEST_DATABASE_URL'] });
  await admin.connect();
  try {
    const name = new URL(database.url).pathname.slice(1);
    // A closed client's server process leaves pg_stat_activity a moment later (sooner on an idle
    // machine): open means still listed after two seconds.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      if (Number(rows[0]?.n) === 0) return false;
      await sleep(100);
    }
    return true;
  } finally {
    await admin.end();
  }
}

for (const kind of databaseKinds()) {
  describe(`[${kind}] buildApp start-up`, () => {
    // With TEST_REDIS_URL the limiters and the swarm store hold Redis connections too: left open, this file would never exit.
    const redis: Record<string, string> = process.env['TEST_REDIS_URL'] ? { REDIS_URL: process.env['TEST_REDIS_URL'] } : {};

    async function failedStart(env: Record<string, string>, startupStep?: () => Promise<void>): Promise<{ error: unknown; open: boolean }> {
      const database = await createTestDatabase(kind, { sqliteFile: true });
      const uploads = mkdtempSync(join(tmpdir(), 'forum-uploads-'));
      try {
        const config = testConfig(database, { UPLOAD_DIR: uploads, ...redis, ...env });
        const error = await buildApp(config, { logger: pino({ level: 'silent' }), ...(startupStep ? { startupStep } : {}) }).then(
          async (built) => {
            await built.app.close();
            return undefined;
          },
          (failure: unknown) => failure,
        );
        return { error, open: await stillOpen(database) };
      } finally {
        await database.drop();
        rmSync(uploads, { recursive: true, force: true });
      }
    }

    it('closes the database, limiters, timers and swarm store when the last step fails', async () => {
      const failure = new Error('injected start-up failure');
      const { error, open } = await failedStart({}, async () => {
        throw failure;
      });
      assert.equal(error, failure);
      assert.equal(open, false);
    });

    it('closes what it opened when the upload folder is unusable', async () => {
      const blocker = join(mkdtempSync(join(tmpdir(), 'forum-blocked-')), 'a-file');
      writeFileSync(blocker, 'not a folder');
      try {
        const { error, open } = await failedStart({ UPLOAD_DIR: join(blocker, 'uploads') });
        assert.ok(error instanceof Error);
        assert.equal(open, false);
      } finally {
        rmSync(blocker, { force: true });
      }
    });
  });
}
