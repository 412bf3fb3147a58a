// A hidden topic moved to another forum, or deleted, used to be taken off
// its forum's counts a second time (it left them when it was hidden). Guests'
// totals of a forum's topics come from these counters (issue 36), so they are
// counted once more from the topics: the published, shown ones, and their
// published, shown posts as each topic counts them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const counted = sql`topics.forum_id = forums.id and topics.status = 'published' and topics.hidden_at is null`;
  await sql`update forums set
    topics_count = (select count(*) from topics where ${counted}),
    posts_count = (select coalesce(sum(topics.posts_count), 0) from topics where ${counted})`.execute(db);
}
