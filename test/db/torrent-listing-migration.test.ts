// Migration 0033 copies each torrent's topic (its forum, author and who may
// see it) onto the torrent row for the tracker list (issue 36), and its
// triggers keep the copy through every later insert and topic change.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/schema.ts';
import { databaseKinds } from '../helpers/databases.ts';
import { DatabasesAtMigration, silentLog as log } from '../helpers/migrated.ts';
import type { Kysely } from 'kysely';
import { insertUser } from '../helpers/rows.ts';

const at = '2026-01-01T00:00:00.000Z';

async function topicIn(db: Kysely<Database>, forumId: number, authorId: number, status: 'published' | 'pending', hidden: boolean): Promise<number> {
  const row = await db
    .insertInto('topics')
    .values({
      forum_id: forumId,
      title: 'A release',
      author_id: authorId,
      status,
      hidden_at: hidden ? at : null,
      posts_count: 0,
      last_post_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function torrentOn(db: Kysely<Database>, topicId: number): Promise<number> {
  const row = await db
    .insertInto('torrents')
    .values({
      topic_id: topicId,
      uploader_id: null,
      info_hash_v1: createHash('sha1').update(`torrent on ${topicId}`).digest('hex'),
      info_hash_v2: null,
      info_hash_v2_short: null,
      name: `release-${topicId}`,
      size: 1,
      piece_length: 16384,
      piece_count: 1,
      files_count: 1,
      creation_date: null,
      metainfo: Buffer.from('d4:infodee'),
      status: 'checked',
      registered_at: at,
      status_changed_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

for (const kind of databaseKinds()) {
  describe(`[${kind}] migration 0033: the tracker list's copy of each torrent's topic`, () => {
    const databases = new DatabasesAtMigration(kind);
    after(() => databases.closeAll());

    it('copies the topics already there, then keeps the copy through inserts, moves, moderation and a change of author', async () => {
      const handle = await databases.at('0032_site_settings');
      const db = handle.db;
      const author = await insertUser(db, 'uploader');
      const other = await insertUser(db, 'heir');
      const forums: number[] = [];
      for (const name of ['Films', 'Music']) {
        const forum = await db
          .insertInto('forums')
          .values({ name, description: '', display_order: 1, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        forums.push(forum.id);
      }
      const [films, music] = forums as [number, number];
      const shown = await torrentOn(db, await topicIn(db, films, author, 'published', false));
      const held = await torrentOn(db, await topicIn(db, music, author, 'pending', false));
      const hidden = await torrentOn(db, await topicIn(db, films, author, 'published', true));

      await migrateToLatest(handle, log);
      const copy = async (torrentId: number) => ({
        ...(await db.selectFrom('torrents').select(['forum_id', 'topic_author_id', 'topic_visibility']).where('id', '=', torrentId).executeTakeFirstOrThrow()),
      });
      assert.deepEqual(await copy(shown), { forum_id: films, topic_author_id: author, topic_visibility: 'everyone' });
      assert.deepEqual(await copy(held), { forum_id: music, topic_author_id: author, topic_visibility: 'author' });
      assert.deepEqual(await copy(hidden), { forum_id: films, topic_author_id: author, topic_visibility: 'moderators' });

      const later = await torrentOn(db, await topicIn(db, music, other, 'published', false));
      assert.deepEqual(await copy(later), { forum_id: music, topic_author_id: other, topic_visibility: 'everyone' }, 'a new torrent');

      const topicOf = async (torrentId: number) =>
        (await db.selectFrom('torrents').select('topic_id').where('id', '=', torrentId).executeTakeFirstOrThrow()).topic_id;
      await db
        .updateTable('topics')
        .set({ forum_id: music })
        .where('id', '=', await topicOf(shown))
        .execute();
      assert.equal((await copy(shown)).forum_id, music, 'a move');
      await db
        .updateTable('topics')
        .set({ hidden_at: at })
        .where('id', '=', await topicOf(shown))
        .execute();
      assert.equal((await copy(shown)).topic_visibility, 'moderators', 'a hide');
      await db
        .updateTable('topics')
        .set({ hidden_at: null })
        .where('id', '=', await topicOf(shown))
        .execute();
      assert.equal((await copy(shown)).topic_visibility, 'everyone', 'a restore');
      await db
        .updateTable('topics')
        .set({ status: 'published' })
        .where('id', '=', await topicOf(held))
        .execute();
      assert.equal((await copy(held)).topic_visibility, 'everyone', 'an approval');
      await db
        .updateTable('topics')
        .set({ author_id: null })
        .where('id', '=', await topicOf(held))
        .execute();
      assert.equal((await copy(held)).topic_author_id, null, 'an author account removed');
      const heldElsewhere = await topicIn(db, films, other, 'pending', false);
      await db.updateTable('torrents').set({ topic_id: heldElsewhere }).where('id', '=', later).execute();
      assert.deepEqual(await copy(later), { forum_id: films, topic_author_id: other, topic_visibility: 'author' }, 'a torrent moved to another topic');
    });
  });
}
