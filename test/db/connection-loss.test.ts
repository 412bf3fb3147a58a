import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts';

describe(
  '[postgres] a database connection lost while in use',
  {
    skip: process.env['TEST_DATABASE_URL'] ? false : 'needs PostgreSQL (TEST_DATABASE_URL)',
  },
  () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    before(async () => {
      database = await createTestDatabase('postgres');
      handle = openDatabase(database.config, pino({ level: 'silent' }));
    });
    after(async () => {
      await handle.close();
      await database.drop();
    });

    it('fails the work that used it, does not end the process, and the next query gets a fresh connection', async () => {
      const killer = new pg.Client({ connectionString: database.url });
      await killer.connect();
      try {
        const work = handle.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // Between two statements the connection is checked out and idle: cut it there.
          await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          await sleep(200);
          await sql`select 1`.execute(trx);
        });
        await assert.rejects(work);
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
        assert.equal(rows[0]?.one, 1);
      } finally {
        await killer.end();
      }
    });
  },
);
