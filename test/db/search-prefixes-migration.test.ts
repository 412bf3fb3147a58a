// Migration 0025: on PostgreSQL every document is written again with its words' prefix terms (`^rou`, `^rout`), and
// until the backfill has done so prefixes are matched the old way, so nothing is missed meanwhile. SQLite's FTS5 has
// its own prefix index: there the migration marks nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { parseQuery } from '../../src/forum/search/query.ts';
import { SearchRepository, type SearchFilters } from '../../src/forum/search/repository.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';
import { insertOnePost } from '../helpers/rows.ts';

const log = pino({ level: 'silent' });
const everywhere: SearchFilters = { in: 'all', forumId: null, authorId: null, from: null, until: null };
const guests = { viewerId: null, seesAllPending: false };

for (const kind of databaseKinds()) {
  describe(`[${kind}] migration 0025: prefix terms in the search index`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;

    before(async () => {
      testDatabase = await createTestDatabase(kind, { sqliteFile: true });
      handle = openDatabase(testDatabase.config, log);
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    it('marks every PostgreSQL post for indexing again; prefixes are found before, during and after the backfill', async () => {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo('0024_avatar_removal_log');
      assert.equal(error, undefined);
      const db = handle.db;
      const postId = await insertOnePost(db, 'Restart the router.');
      const index = new SearchRepository(db, handle.dialect);
      await index.refresh(db, [postId]);
      // The document as migration 0023 wrote it: words, pairs and the id range, no prefix terms.
      // The document as migration 0023 wrote it: words, pairs and the id range, no prefix terms.
      const stripPrefixes = async (): Promise<void> => {
        if (kind === 'postgres')
          await sql`update post_search set document = ts_delete(document, array(select lexeme from unnest(document) where lexeme like '^%')) where post_id = ${postId}`.execute(
            db,
          );
      };
      await stripPrefixes();
      await sql`update search_backfill set next_post_id = ${postId + 1}, last_post_id = ${postId} where id = 1`.execute(db);

      await migrateToLatest(handle, log);
      const mark = await db.selectFrom('search_backfill').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([mark.next_post_id, mark.last_post_id], kind === 'postgres' ? [1, postId] : [postId + 1, postId]);

      const find = async (text: string): Promise<number[]> => {
        const parsed = parseQuery(text);
        assert.ok(parsed.ok);
        return (await index.find(parsed.query, everywhere, guests, 'relevance', 'desc', 0, 10)).rows.map((row) => row.id);
      };
      for (const text of ['rou*', 'rout*', 'router*', 'resta* rou*']) assert.deepEqual(await find(text), [postId], `${text} while the backfill runs`);
      while ((await index.backfill(100)) > 0);
      for (const text of ['rou*', 'rout*', 'router*', 'resta* rou*']) assert.deepEqual(await find(text), [postId], `${text} after the backfill`);
      assert.deepEqual(await find('routes*'), []);
      assert.deepEqual(await find('rou* -rout*'), []);

      if (kind === 'postgres') {
        const { document } = await sql<{ document: string }>`select document::text as document from post_search where post_id = ${postId}`
          .execute(db)
          .then((result) => result.rows[0]!);
        assert.match(document, /'\^rout'/);
        // Once every document holds them, a prefix is matched through its prefix term alone.
        await stripPrefixes();
        assert.deepEqual(await find('rout*'), []);
      }
    });
  });
}
