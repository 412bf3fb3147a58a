// bb_posts with their text (bb_posts_text on 2.x, bb_post_texts on 3.x) →
// posts, ids kept. The text is the BBCode source with TorrentPier's entities
// decoded; our renderer draws it at display time like any post. A guest's or
// a deleted user's post (poster_id -1, or a user that is gone) has no author
// here and shows the name upstream showed: post_username, else "Guest".
// A moderator's comment (mc_comment of mc_type 1-4) comes with its post.
// Afterwards the counters are recounted from what arrived.
import { numberAllPositions } from '../../forum/post-positions.ts';
import type mysql from 'mysql2/promise';
import { sql, type Insertable } from 'kysely';
import type { ModeratorCommentKind, PostsTable } from '../../db/schema.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readQueryBatches } from './source.ts';
import { decodeEntities, firstTime } from './text.ts';

export interface UpstreamPost {
  post_id: number;
  topic_id: number;
  poster_id: number;
  post_time: number;
  post_edit_time: number;
  post_username: string;
  /** Null when the post has no text row. */
  post_text: string | null;
  /** A moderator's comment: its text, kind (0 none, 1 comment, 2 information, 3 warning, 4 violation) and author. */
  mc_comment: string;
  mc_type: number;
  mc_user_id: number;
}

const COMMENT_KINDS: Record<number, ModeratorCommentKind> = { 1: 'comment', 2: 'information', 3: 'warning', 4: 'violation' };

/** What TorrentPier shows for a post without a member account. */
export const GUEST_NAME = 'Guest';

export function mapPost(row: UpstreamPost, known: { topics: IdSet; users: IdSet }, now: string): Mapped<Insertable<PostsTable> & { id: number }> {
  if (!known.topics.has(row.topic_id)) return skip('its topic was not imported (missing upstream, or a moved-topic link)');
  if (row.post_text === null) return skip('the post has no text row upstream');
  const created = firstTime(now, row.post_time);
  const author = known.users.has(row.poster_id) ? row.poster_id : null;
  // Upstream shows a comment whose mc_type is set; its time was never kept, so the import's stands in.
  const kind = COMMENT_KINDS[row.mc_type];
  const comment = kind === undefined ? '' : decodeEntities(row.mc_comment).trim();
  const notes = row.mc_type !== 0 && kind === undefined ? [`a moderator comment of unknown kind ${row.mc_type} was left out`] : [];
  return keep(
    {
      id: row.post_id,
      topic_id: row.topic_id,
      author_id: author,
      guest_name: author === null ? decodeEntities(row.post_username).trim() || GUEST_NAME : null,
      body: decodeEntities(row.post_text),
      status: 'published',
      held_by_filter_id: null,
      created_at: created,
      updated_at: firstTime(created, row.post_edit_time),
      ...(comment === ''
        ? {}
        : {
            mod_comment: comment,
            mod_comment_kind: kind ?? null,
            mod_comment_by: known.users.has(row.mc_user_id) ? row.mc_user_id : null,
            mod_comment_at: now,
          }),
    },
    notes,
  );
}

function upstreamPost(row: mysql.RowDataPacket): UpstreamPost {
  const text: unknown = row['post_text'];
  return {
    post_id: int(row['post_id']),
    topic_id: int(row['topic_id']),
    poster_id: int(row['poster_id']),
    post_time: int(row['post_time']),
    post_edit_time: int(row['post_edit_time']),
    post_username: String(row['post_username'] ?? ''),
    post_text: text === null || text === undefined ? null : Buffer.isBuffer(text) ? text.toString('utf8') : String(text),
    mc_comment: String(row['mc_comment'] ?? ''),
    mc_type: int(row['mc_type']),
    mc_user_id: int(row['mc_user_id']),
  };
}

export async function importPosts(ctx: ImportContext, total: number): Promise<void> {
  const { report } = ctx;
  const texts = ctx.version === '3.0' ? 'bb_post_texts' : 'bb_posts_text';
  report.table('bb_posts');
  ctx.progress.start('bb_posts', total);
  const batches = readQueryBatches(ctx.source, {
    select: `SELECT p.post_id, p.topic_id, p.poster_id, p.post_time, p.post_edit_time, p.post_username, p.mc_comment, p.mc_type, p.mc_user_id, t.post_text FROM bb_posts p LEFT JOIN ${texts} t ON t.post_id = p.post_id`,
    key: 'p.post_id',
    keyAlias: 'post_id',
    batchSize: ctx.batchSize,
  });
  for await (const batch of batches) {
    const rows: (Insertable<PostsTable> & { id: number })[] = [];
    for (const raw of batch) {
      const upstream = upstreamPost(raw);
      report.read('bb_posts');
      const mapped = mapPost(upstream, ctx.imported, ctx.now);
      if (!mapped.ok) {
        report.skipped('bb_posts', mapped.reason, upstream.post_id);
        continue;
      }
      for (const note of mapped.notes) report.note('bb_posts', note, upstream.post_id);
      rows.push(mapped.row);
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, 1000)) await trx.insertInto('posts').values(part).execute();
    });
    report.imported('bb_posts', rows.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
  await recount(ctx);
}

/**
 * Counters from the rows that arrived (upstream's own counters drift), and
 * topics left without any post dropped: a topic page needs its opening post.
 */
async function recount(ctx: ImportContext): Promise<void> {
  const { db } = ctx.target;
  await db.transaction().execute(async (trx) => {
    await numberAllPositions(trx);
    await trx
      .updateTable('topics')
      .set({ posts_count: sql<number>`(select count(*) from posts where posts.topic_id = topics.id)` })
      .execute();
    const empty = await trx.selectFrom('topics').select('id').where('posts_count', '=', 0).orderBy('id').execute();
    if (empty.length > 0) {
      for (const { id } of empty) ctx.report.withdrawn('bb_topics', 'no post of the topic could be imported', id);
      await trx.deleteFrom('topics').where('posts_count', '=', 0).execute();
      for (const { id } of empty) ctx.imported.topics.delete(id);
    }
    // A guest's topic shows the name of its opening post's author, as upstream's lists do.
    await trx
      .updateTable('topics')
      .set({ guest_name: sql<string | null>`(select posts.guest_name from posts where posts.topic_id = topics.id order by posts.id limit 1)` })
      .where('author_id', 'is', null)
      .execute();
    await trx
      .updateTable('forums')
      .set({
        topics_count: sql<number>`(select count(*) from topics where topics.forum_id = forums.id)`,
        posts_count: sql<number>`(select coalesce(sum(topics.posts_count), 0) from topics where topics.forum_id = forums.id)`,
      })
      .execute();
  });
}
