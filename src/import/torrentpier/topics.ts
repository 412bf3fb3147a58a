// bb_topics → topics, ids kept. A MOVED stub (topic_status 2) is the link a
// moved topic leaves in its old forum, not a topic: it stays behind (the
// topic itself moves under its own id). A locked topic stays locked; a
// sticky is pinned and an announcement announced, the two kinds listed first
// here as upstream.
import type mysql from 'mysql2/promise';
import type { Insertable } from 'kysely';
import type { TopicsTable } from '../../db/schema.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readQueryBatches } from './source.ts';
import { decodeEntities, firstTime } from './text.ts';

export interface UpstreamTopic {
  topic_id: number;
  forum_id: number;
  topic_title: string;
  topic_poster: number;
  topic_time: number;
  topic_views: number;
  topic_status: number;
  topic_type: number;
  topic_moved_id: number;
  topic_last_post_time: number;
}

const LOCKED = 1;
const MOVED = 2;
const STICKY = 1;
const ANNOUNCE = 2;

export function mapTopic(row: UpstreamTopic, known: { forums: IdSet; users: IdSet }, now: string): Mapped<Insertable<TopicsTable> & { id: number }> {
  if (row.topic_status === MOVED) return skip(`link left behind by a moved topic (the topic itself is imported under its own id)`);
  if (!known.forums.has(row.forum_id)) return skip('its forum does not exist upstream');
  const created = firstTime(now, row.topic_time);
  const lastPost = firstTime(created, row.topic_last_post_time);
  return keep({
    id: row.topic_id,
    forum_id: row.forum_id,
    title: decodeEntities(row.topic_title),
    author_id: known.users.has(row.topic_poster) ? row.topic_poster : null,
    status: 'published',
    locked: row.topic_status === LOCKED,
    pinned: row.topic_type === STICKY,
    announced: row.topic_type === ANNOUNCE,
    posts_count: 0,
    views_count: Math.max(0, row.topic_views),
    last_post_at: lastPost,
    created_at: created,
    updated_at: lastPost,
  });
}

function upstreamTopic(row: mysql.RowDataPacket): UpstreamTopic {
  return {
    topic_id: int(row['topic_id']),
    forum_id: int(row['forum_id']),
    topic_title: String(row['topic_title'] ?? ''),
    topic_poster: int(row['topic_poster']),
    topic_time: int(row['topic_time']),
    topic_views: int(row['topic_views']),
    topic_status: int(row['topic_status']),
    topic_type: int(row['topic_type']),
    topic_moved_id: int(row['topic_moved_id']),
    topic_last_post_time: int(row['topic_last_post_time']),
  };
}

export async function importTopics(ctx: ImportContext, total: number): Promise<void> {
  const { report } = ctx;
  report.table('bb_topics');
  ctx.progress.start('bb_topics', total);
  const batches = readQueryBatches(ctx.source, {
    select:
      'SELECT topic_id, forum_id, topic_title, topic_poster, topic_time, topic_views, topic_status, topic_type, topic_moved_id, topic_last_post_time FROM bb_topics',
    key: 'topic_id',
    keyAlias: 'topic_id',
    batchSize: ctx.batchSize,
  });
  for await (const batch of batches) {
    const rows: (Insertable<TopicsTable> & { id: number })[] = [];
    for (const raw of batch) {
      const upstream = upstreamTopic(raw);
      report.read('bb_topics');
      const mapped = mapTopic(upstream, ctx.imported, ctx.now);
      if (!mapped.ok) {
        report.skipped('bb_topics', mapped.reason, upstream.topic_id);
        continue;
      }
      for (const note of mapped.notes) report.note('bb_topics', note, upstream.topic_id);
      rows.push(mapped.row);
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, 500)) await trx.insertInto('topics').values(part).execute();
    });
    for (const row of rows) ctx.imported.topics.add(row.id);
    report.imported('bb_topics', rows.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
}
