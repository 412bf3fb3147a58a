import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';
import { describe } from 'node:test';
import { usernameSkeleton } from '../../src/db/username-skeleton.ts';

const log = pino({ level: 'silent' });

for (const kind of databaseKinds()) {
  describe(`[${kind}] migrations`, () => {
    let testDatabase: TestDatabase;
    const handles: DatabaseHandle[] = [];
    const open = (): DatabaseHandle => {
      const handle = openDatabase(testDatabase.config, log);
      handles.push(handle);
      return handle;
    };

    before(async () => {
      testDatabase = await createTestDatabase(kind, { sqliteFile: true });
    });
    after(async () => {
      for (const handle of handles) await handle.close();
      await testDatabase.drop();
    });

    it('apply every migration once, and a second run changes nothing', async () => {
      await migrateToLatest(open(), log);
      await migrateToLatest(open(), log);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(open().db);
      assert.deepEqual(
        applied.rows.map((row) => row.name),
        Object.keys(migrations).sort(),
      );
    });

    if (kind === 'postgres') {
      it('are safe when several instances start together', async () => {
        const fresh = await createTestDatabase('postgres');
        const starters = Array.from({ length: 4 }, () => openDatabase(fresh.config, log));
        try {
          await Promise.all(starters.map((handle) => migrateToLatest(handle, log)));
          const applied = await sql<{ count: number }>`select count(*) as count from kysely_migration`.execute(starters[0]!.db);
          assert.equal(applied.rows[0]?.count, Object.keys(migrations).length);
        } finally {
          for (const handle of starters) await handle.close();
          await fresh.drop();
        }
      });
    }

    it('store timestamps as UTC ISO strings that read back unchanged', async () => {
      const handle = open();
      const at = '2026-01-02T03:04:05.678Z';
      await handle.db
        .insertInto('users')
        .values({
          username: 'clock',
          username_key: 'clock',
          username_skeleton: usernameSkeleton('clock'),
          email: 'clock@example.org',
          email_key: 'clock@example.org',
          password_hash: 'x',
          role: 'user',
          status: 'active',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const row = await handle.db.selectFrom('users').select(['created_at']).where('username_key', '=', 'clock').executeTakeFirstOrThrow();
      assert.equal(row.created_at, at);
    });

    it('0024 lets the moderation log take avatar removals and keeps its earlier entries', async () => {
      const earlier = await createTestDatabase(kind, { sqliteFile: true });
      const handle = openDatabase(earlier.config, log);
      try {
        const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
        const upTo = await migrator.migrateTo('0022_forum_moderators');
        assert.equal(upTo.error, undefined);
        const at = '2026-01-02T03:04:05.678Z';
        const entry = {
          actor_id: null,
          forum_id: null,
          to_forum_id: null,
          topic_id: null,
          post_id: null,
          user_id: 7,
          subject: 'Someone: spam',
          created_at: at,
        };
        await handle.db
          .insertInto('moderation_log')
          .values({ ...entry, action: 'ban' })
          .execute();
        await assert.rejects(
          handle.db
            .insertInto('moderation_log')
            .values({ ...entry, action: 'remove_avatar' })
            .execute(),
          'refused before 0024',
        );
        await migrateToLatest(handle, log);
        await handle.db
          .insertInto('moderation_log')
          .values({ ...entry, action: 'remove_avatar', subject: 'Someone' })
          .execute();
        const rows = await handle.db.selectFrom('moderation_log').selectAll().orderBy('id').execute();
        assert.equal(rows[0]!.id, 1, 'the earlier entry keeps its id');
        assert.deepEqual(
          rows.map((row) => [row.action, row.user_id, row.subject, row.created_at]),
          [
            ['ban', 7, 'Someone: spam', at],
            ['remove_avatar', 7, 'Someone', at],
          ],
        );
        await assert.rejects(
          handle.db
            .insertInto('moderation_log')
            .values({ ...entry, action: 'explode' as 'ban' })
            .execute(),
          'still a closed list',
        );
      } finally {
        await handle.close();
        await earlier.drop();
      }
    });
  });
}
