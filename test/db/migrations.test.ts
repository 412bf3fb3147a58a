import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Migrator, sql, type Insertable } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import type { ModerationLogTable } from '../../src/db/schema.ts';
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

    /** `work` on a new database migrated up to `name`, then migrated to the latest by `work` itself; dropped after. */
    async function fromMigration(name: string, work: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
      const earlier = await createTestDatabase(kind, { sqliteFile: true });
      const handle = openDatabase(earlier.config, log);
      try {
        const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
        assert.equal((await migrator.migrateTo(name)).error, undefined);
        await work(handle);
      } finally {
        await handle.close();
        await earlier.drop();
      }
    }
    const logEntry = (handle: DatabaseHandle, entry: Insertable<ModerationLogTable>) => handle.db.insertInto('moderation_log').values(entry).execute();
    const at = '2026-01-02T03:04:05.678Z';

    it('0024 lets the moderation log take avatar removals and keeps its earlier entries', async () => {
      await fromMigration('0022_forum_moderators', async (handle) => {
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
        await logEntry(handle, { ...entry, action: 'ban' });
        await assert.rejects(logEntry(handle, { ...entry, action: 'remove_avatar' }), 'refused before 0024');
        await migrateToLatest(handle, log);
        await logEntry(handle, { ...entry, action: 'remove_avatar', subject: 'Someone' });
        const rows = await handle.db.selectFrom('moderation_log').selectAll().orderBy('id').execute();
        assert.equal(rows[0]!.id, 1, 'the earlier entry keeps its id');
        assert.deepEqual(
          rows.map((row) => [row.action, row.user_id, row.subject, row.created_at]),
          [
            ['ban', 7, 'Someone: spam', at],
            ['remove_avatar', 7, 'Someone', at],
          ],
        );
        await assert.rejects(logEntry(handle, { ...entry, action: 'explode' as 'ban' }), 'still a closed list');
      });
    });

    it('0030 adds announcements: topics start unannounced, the log takes announce and unannounce, the forum list stays an index walk', async () => {
      await fromMigration('0029_forum_access', async (handle) => {
        const forum = await handle.db.insertInto('forums').values({ name: 'Before', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
        const topic = {
          forum_id: forum.id,
          title: 'Sticky before',
          author_id: null,
          status: 'published',
          pinned: true,
          last_post_at: at,
          created_at: at,
          updated_at: at,
        } as const;
        await handle.db.insertInto('topics').values(topic).execute();
        const entry = {
          actor_id: null,
          forum_id: forum.id,
          to_forum_id: null,
          topic_id: 1,
          post_id: null,
          user_id: null,
          subject: topic.title,
          created_at: at,
        };
        await logEntry(handle, { ...entry, action: 'pin' });
        await assert.rejects(logEntry(handle, { ...entry, action: 'announce' }), 'refused before 0030');

        await migrateToLatest(handle, log);
        const kept = await handle.db.selectFrom('topics').select(['title', 'pinned', 'announced']).execute();
        assert.deepEqual(
          kept.map((row) => [row.title, Boolean(row.pinned), Boolean(row.announced)]),
          [['Sticky before', true, false]],
        );
        await logEntry(handle, { ...entry, action: 'announce' });
        await logEntry(handle, { ...entry, action: 'unannounce' });
        const entries = await handle.db.selectFrom('moderation_log').select(['id', 'action']).orderBy('id').execute();
        assert.equal(entries[0]!.id, 1, 'the earlier entry keeps its id');
        assert.deepEqual(
          entries.map((row) => row.action),
          ['pin', 'announce', 'unannounce'],
        );
        await assert.rejects(logEntry(handle, { ...entry, action: 'explode' as 'ban' }), 'still a closed list');
        assert.deepEqual(await listingPlan(handle, forum.id), { index: true, sort: false });
      });
    });
  });
}

/**
 * How a forum's list (forum/repository.ts, listingOrder) is read: through
 * topics_forum_listing, and without sorting. PostgreSQL is told to avoid
 * sequential scans and sorts, as it would on a forum of any size; a plan
 * that sorts all the same means no index gives the order.
 */
async function listingPlan(handle: DatabaseHandle, forumId: number): Promise<{ index: boolean; sort: boolean }> {
  const listing = sql`select id from topics where forum_id = ${forumId} order by announced desc, pinned desc, last_post_at desc, id desc limit 50`;
  if (handle.dialect === 'sqlite') {
    const plan = (await sql<{ detail: string }>`explain query plan ${listing}`.execute(handle.db)).rows.map((row) => row.detail).join('\n');
    return { index: plan.includes('topics_forum_listing'), sort: plan.includes('TEMP B-TREE') };
  }
  return handle.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_sort = off`.execute(trx);
    const plan = (await sql<{ 'QUERY PLAN': string }>`explain ${listing}`.execute(trx)).rows.map((row) => row['QUERY PLAN']).join('\n');
    return { index: plan.includes('topics_forum_listing'), sort: /\bSort\b/.test(plan) };
  });
}
