// Migration 0023: an index written before word pairs existed is indexed again by the backfill, and phrases are found
// as pairs once it has run.
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
  describe(`[${kind}] migration 0023: word pairs in the search index`, () => {
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

    it('marks every post for indexing again; the backfill makes phrases findable', async () => {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo('0021_reading_settings');
      assert.equal(error, undefined);
      const db = handle.db;
      const postId = await insertOnePost(db, 'Seeding needs an open port.');
      // The index as migration 0012 wrote it: words only.
      if (kind === 'postgres')
        await sql`insert into post_search (post_id, document) values (${postId}, ${"'old':1A 'topic':2A 'seeding':4 'needs':5 'an':6 'open':7 'port':8"}::tsvector)`.execute(
          db,
        );
      else await sql`insert into post_search (rowid, title, body) values (${postId}, 'old topic', 'seeding needs an open port')`.execute(db);
      await sql`update search_backfill set next_post_id = 2, last_post_id = 1 where id = 1`.execute(db);

      await migrateToLatest(handle, log);
      const mark = await db.selectFrom('search_backfill').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([mark.next_post_id, mark.last_post_id], [1, postId]);

      const index = new SearchRepository(db, handle.dialect);
      const find = async (text: string): Promise<number[]> => {
        const parsed = parseQuery(text);
        assert.ok(parsed.ok);
        return (await index.find(parsed.query, everywhere, guests, 'relevance', 'desc', 0, 10)).rows.map((row) => row.id);
      };
      // Before the backfill: PostgreSQL still finds the words of the old documents, SQLite's new index is empty.
      assert.deepEqual(await find('open'), kind === 'postgres' ? [postId] : []);
      assert.deepEqual(await find('"open port"'), []);
      while ((await index.backfill(100)) > 0);
      assert.deepEqual(await find('"open port"'), [postId]);
      assert.deepEqual(await find('"needs an open port"'), [postId]);
      assert.deepEqual(await find('"port open"'), []);
      assert.deepEqual(await find('open'), [postId]);
    });
  });
}
