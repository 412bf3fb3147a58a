// Big forums (issue 36, docs/big-forums.md): the tracker list filters on its
// topic (the forum a reader may read, and whether the topic is published and
// shown), so a deep page used to read the topic of every torrent it skipped.
// The torrent row now carries what the list filters on, and one index holds
// the list's order with those columns, so a page of ids is read from the
// index alone, as a forum's list is.
//
// Triggers keep the copy, not the services: a topic changes forum, status,
// visibility or author in many places (moves, moderation, the importer, the
// database copy), and the database sees all of them.
//
// `topic_visibility` is who may see the topic, hence the torrent:
// `everyone` (published and shown), `author` (held or rejected, shown: its
// author and moderators) or `moderators` (hidden).
import { sql, type Kysely } from 'kysely';
import { dialectOf, oneOfCheck } from '../dialect.ts';

const VISIBILITY = sql`case when topics.hidden_at is not null then 'moderators' when topics.status = 'published' then 'everyone' else 'author' end`;
const NEW_VISIBILITY = sql`case when new.hidden_at is not null then 'moderators' when new.status = 'published' then 'everyone' else 'author' end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('torrents').addColumn('forum_id', 'integer').execute();
  await db.schema.alterTable('torrents').addColumn('topic_author_id', 'integer').execute();
  await db.schema
    .alterTable('torrents')
    .addColumn('topic_visibility', 'text', (c) =>
      c
        .notNull()
        .defaultTo('moderators')
        .check(oneOfCheck('topic_visibility', ['everyone', 'author', 'moderators'])),
    )
    .execute();
  await sql`update torrents set (forum_id, topic_author_id, topic_visibility) =
    (select topics.forum_id, topics.author_id, ${VISIBILITY} from topics where topics.id = torrents.topic_id)`.execute(db);

  // The list's order (newest first) with everything its filters read: a page of ids never reads a row.
  await db.schema.dropIndex('torrents_registered').execute();
  await db.schema.createIndex('torrents_listing').on('torrents').columns(['registered_at', 'id', 'topic_visibility', 'forum_id', 'topic_author_id']).execute();

  if (dialectOf(db) === 'postgres') {
    await sql`create function torrents_copy_topic() returns trigger language plpgsql as $$
begin
  select topics.forum_id, topics.author_id, ${VISIBILITY}
    into new.forum_id, new.topic_author_id, new.topic_visibility
    from topics where topics.id = new.topic_id;
  return new;
end $$`.execute(db);
    await sql`create trigger torrents_topic_copy before insert or update of topic_id on torrents
for each row execute function torrents_copy_topic()`.execute(db);
    await sql`create function topics_copy_to_torrents() returns trigger language plpgsql as $$
begin
  update torrents set forum_id = new.forum_id, topic_author_id = new.author_id, topic_visibility = ${NEW_VISIBILITY}
    where topic_id = new.id;
  return null;
end $$`.execute(db);
    await sql`create trigger topics_torrent_copy after update of forum_id, author_id, status, hidden_at on topics
for each row execute function topics_copy_to_torrents()`.execute(db);
  } else {
    // SQLite's triggers cannot change the row being inserted: the copy is written just after it.
    const copy = sql`update torrents set (forum_id, topic_author_id, topic_visibility) =
      (select topics.forum_id, topics.author_id, ${VISIBILITY} from topics where topics.id = new.topic_id) where id = new.id`;
    await sql`create trigger torrents_topic_copy_insert after insert on torrents begin ${copy}; end`.execute(db);
    await sql`create trigger torrents_topic_copy_update after update of topic_id on torrents begin ${copy}; end`.execute(db);
    await sql`create trigger topics_torrent_copy after update of forum_id, author_id, status, hidden_at on topics
begin
  update torrents set forum_id = new.forum_id, topic_author_id = new.author_id, topic_visibility = ${NEW_VISIBILITY}
    where topic_id = new.id;
end`.execute(db);
  }
}
