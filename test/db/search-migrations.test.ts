// Migrations that change what the search index holds: each marks posts for the start-up backfill to index again, and
// search keeps finding what it can meanwhile.
//   0023  word pairs: phrases are found as pairs once the backfill has run
//   0025  prefix terms (PostgreSQL): every document is written again with its words' first letters (`^rou`, `^rout`);
//         until the backfill has done so prefixes are matched the old way, so nothing is missed meanwhile. SQLite's
//         FTS5 has its own prefix index: there it marks nothing.
//   0036  stems: every post is written again with its words' stems; until the backfill has done so each word is asked
//         for stemmed and as typed, so the entries written before are found as they were.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { parseQuery } from '../../src/forum/search/query.ts';
import { SearchRepository, type SearchFilters } from '../../src/forum/search/repository.ts';
import { databaseKinds } from '../helpers/databases.ts';
import { DatabasesAtMigration, silentLog as log } from '../helpers/migrated.ts';
import { insertOnePost } from '../helpers/rows.ts';

const everywhere: SearchFilters = { in: 'all', forumId: null, authorId: null, from: null, until: null };
const guests = { viewerId: null, seesAllPending: false, forums: null };

for (const kind of databaseKinds()) {
  describe(`[${kind}] migrations of the search index`, () => {
    const databases = new DatabasesAtMigration(kind);
    after(() => databases.closeAll());

    /** The ids of the posts a guest finds for `text`, best first. */
    function finder(index: SearchRepository): (text: string) => Promise<number[]> {
      return async (text) => {
        const parsed = parseQuery(text);
        assert.ok(parsed.ok);
        return (await index.find(parsed.query, everywhere, guests, 'relevance', 'desc', 0, 10)).rows.map((row) => row.id);
      };
    }

    it('0023 marks every post for indexing again; the backfill makes phrases findable', async () => {
      const handle = await databases.at('0021_reading_settings');
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
      const find = finder(index);
      // Before the backfill: PostgreSQL still finds the words of the old documents, SQLite's new index is empty.
      assert.deepEqual(await find('open'), kind === 'postgres' ? [postId] : []);
      assert.deepEqual(await find('"open port"'), []);
      while ((await index.backfill(100)) > 0);
      assert.deepEqual(await find('"open port"'), [postId]);
      assert.deepEqual(await find('"needs an open port"'), [postId]);
      assert.deepEqual(await find('"port open"'), []);
      assert.deepEqual(await find('open'), [postId]);
    });

    it('0025 marks every PostgreSQL post for indexing again; prefixes are found before, during and after the backfill', async () => {
      const handle = await databases.at('0024_avatar_removal_log');
      const db = handle.db;
      const postId = await insertOnePost(db, 'Restart the router.');
      const index = new SearchRepository(db, handle.dialect);
      await index.refresh(db, [postId]);
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
      // 0036 marks every post on both databases.
      assert.deepEqual([mark.next_post_id, mark.last_post_id], [1, postId]);

      const find = finder(index);
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

    it('0036 marks every post for indexing again; words are found as typed meanwhile, in all their forms after', async () => {
      const handle = await databases.at('0035_hide_online');
      const db = handle.db;
      const postId = await insertOnePost(db, 'Releasing routers.');
      const index = new SearchRepository(db, handle.dialect);
      // The entry as an earlier version wrote it (this post has none yet): words as written, their pairs (and on PostgreSQL the prefix terms).
      if (kind === 'postgres')
        await sql`insert into post_search (post_id, document) values (${postId}, ${"'old':1A 'topic':2A 'releasing':4 '_releasing_routers':4 'routers':5 '^rel' '^rele' '^rou' '^rout'"}::tsvector)`.execute(
          db,
        );
      else {
        await sql`delete from post_search where rowid = ${postId}`.execute(db);
        await sql`insert into post_search (rowid, title, body) values (${postId}, 'old topic', 'releasing routers _releasing_routers')`.execute(db);
      }
      await sql`update search_backfill set next_post_id = ${postId + 1}, last_post_id = ${postId} where id = 1`.execute(db);

      await migrateToLatest(handle, log);
      const mark = await db.selectFrom('search_backfill').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([mark.next_post_id, mark.last_post_id], [1, postId]);

      const find = finder(index);
      for (const text of ['releasing', '"releasing routers"', 'rout*']) assert.deepEqual(await find(text), [postId], `${text} while the backfill runs`);
      assert.deepEqual(await find('released'), [], 'other forms once the entry is written again');
      while ((await index.backfill(100)) > 0);
      for (const text of ['releasing', 'released', '"release router"', '"releasing routers"', 'rout*', 'releasi*'])
        assert.deepEqual(await find(text), [postId], `${text} after the backfill`);
      assert.deepEqual(await find('-released releasing'), []);
    });
  });
}
