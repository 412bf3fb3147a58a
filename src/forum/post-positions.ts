// A post's place in its topic, kept in the row (docs/big-forums.md): the
// published, shown posts of a topic are numbered 1, 2, 3… in id order, and
// every other post (pending, hidden) has no number. A page of a topic, the
// page that holds a post and the topic's size are then index look-ups on
// (topic_id, position), whatever the topic's size or the page's depth,
// instead of counting or skipping every post before them.
//
// Whoever changes whether a post is numbered (writes it, publishes or holds
// it, hides or shows it, deletes it) renumbers its topic from that post on,
// inside the same transaction, after `lockTopicPositions`.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A post counts in its topic's numbering exactly when a guest would see it (were the topic public). */
const NUMBERED = sql<boolean>`status = 'published' and hidden_at is null`;

/**
 * Takes the topic's row lock, so that two writers numbering posts of one
 * topic at once (two replies on PostgreSQL) run one after the other, and the
 * second sees the first's numbers. Taken before the post is changed, so that
 * two moderators hiding posts of one topic cannot each hold what the other
 * waits for. (SQLite runs one writer at a time anyway.)
 */
export async function lockTopicPositions(db: Kysely<Database>, topicId: number): Promise<void> {
  await sql`update topics set posts_count = posts_count where id = ${topicId}`.execute(db);
}

/**
 * Renumbers the topic's posts from `fromPostId` on (that post included); the
 * posts before it keep their numbers. Answers the number of the last numbered
 * post before it (0: none), so a writer knows a numbered post's own number.
 */
export async function renumberPositions(db: Kysely<Database>, topicId: number, fromPostId: number): Promise<number> {
  const before = await db
    .selectFrom('posts')
    .select('position')
    .where('topic_id', '=', topicId)
    .where('id', '<', fromPostId)
    .where('position', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const base = before?.position ?? 0;
  await sql`update posts set position = null
    where topic_id = ${topicId} and id >= ${fromPostId} and position is not null and not (${NUMBERED})`.execute(db);
  await sql`update posts set position = numbered.position
    from (select id, ${base} + row_number() over (order by id) as position
          from posts where topic_id = ${topicId} and id >= ${fromPostId} and ${NUMBERED}) as numbered
    where posts.id = numbered.id and (posts.position is null or posts.position <> numbered.position)`.execute(db);
  return base;
}

/** Numbers every topic's posts afresh: after an import, which writes posts in bulk. */
export async function numberAllPositions(db: Kysely<Database>): Promise<void> {
  await sql`update posts set position = null where position is not null and not (${NUMBERED})`.execute(db);
  await sql`update posts set position = numbered.position
    from (select id, row_number() over (partition by topic_id order by id) as position from posts where ${NUMBERED}) as numbered
    where posts.id = numbered.id and (posts.position is null or posts.position <> numbered.position)`.execute(db);
}

/**
 * The posts of a topic one viewer sees, laid out around the numbered ones:
 * the numbered posts, and the few others this viewer sees too (their own
 * pending posts; a moderator's pending and hidden ones), each with the number
 * of the numbered post it follows (0: it comes first). For a guest there are
 * no others.
 */
export interface PostLayout {
  numbered: number;
  extras: ReadonlyArray<{ id: number; after: number }>;
}

/** How many posts of the topic this viewer sees. */
export function layoutTotal(layout: PostLayout): number {
  return layout.numbered + layout.extras.length;
}

/** Where a post this viewer sees is in their list of the topic's posts (0 first); null for a post they do not see. */
export function indexInLayout(layout: PostLayout, post: { id: number; position: number | null }): number | null {
  const { position } = post;
  if (position !== null) return position - 1 + layout.extras.filter((extra) => extra.after < position).length;
  const index = layout.extras.findIndex((extra) => extra.id === post.id);
  return index === -1 ? null : index + layout.extras[index]!.after;
}

/** The viewer's posts [offset, offset + limit): numbered posts `from`…`to` (none when from > to) and these others. */
export interface LayoutSlice {
  from: number;
  to: number;
  extraIds: number[];
}

export function sliceOfLayout(layout: PostLayout, offset: number, limit: number): LayoutSlice {
  let extrasBefore = 0;
  const extraIds: number[] = [];
  layout.extras.forEach((extra, index) => {
    const at = index + extra.after;
    if (at < offset) extrasBefore++;
    else if (at < offset + limit) extraIds.push(extra.id);
  });
  const from = offset - extrasBefore + 1;
  return { from, to: Math.min(layout.numbered, from + limit - extraIds.length - 1), extraIds };
}
