// `npm run bench search`: GET /api/search over 1,000,000 posts (BENCH_SEARCH_POSTS)
// on SQLite and on PostgreSQL (BENCH_SEARCH_POSTGRES=0 leaves it out). The
// posts are written straight into a migrated database (50,000 topics in 50
// forums, 10 of them closed to guests and members, about 40 words each drawn
// from a 50,000-word vocabulary with Zipf's law, as natural text is), indexed
// by the same code as the service's start-up backfill (timed), then the
// service is started on it and asked, as a guest (whose searches leave the
// closed forums out, issue 28):
//   word     one word of rank 1,000-50,000 (matches ~0.01-0.4% of posts)
//   two      two words of rank 200-20,000
//   common   one word of rank 20-200 (matches ~1-8% of posts: the slow case)
//   phrase   two words next to each other in some post
//   prefix   the first four letters of a rank 1,000-50,000 word, with *
// Each kind 200 times one after another (latency), then the mix at 10
// connections (throughput). Target: p99 under 50 ms on both databases; no
// answer may name a topic of a closed forum.
import autocannon from 'autocannon';
import pino from 'pino';
import type { DatabaseConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { markAllPostsForIndexing } from '../src/db/search-backfill.ts';
import { SearchRepository } from '../src/forum/search/repository.ts';
import { onEachDatabase, settle, startService } from './lib.ts';
import { random } from '../test/helpers/random.ts';
import { usernameSkeleton } from '../src/db/username-skeleton.ts';

const POSTS = Number(process.env['BENCH_SEARCH_POSTS'] ?? 1_000_000);
const POSTS_PER_TOPIC = 20;
const FORUMS = 50;
/** Forums 41-50: readable only by their grants' holders (`private`), so every guest search filters them out. */
const CLOSED_FORUMS = 10;
const VOCABULARY = 50_000;
const WORDS_PER_POST = 40;
const QUERIES_PER_KIND = 200;
const ROWS_PER_INSERT = 500;
const TARGET_P99_MS = 50;

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ra', 'to', 'vi', 'de', 'po', 'gu', 'be', 'fa', 'zo', 'ty', 'hu', 'ch', 'sk', 'an', 'or'];

/** Word of a rank: distinct syllable strings, so every rank is its own term. */
function word(rank: number): string {
  let n = rank + SYLLABLES.length * SYLLABLES.length; // at least three syllables
  let out = '';
  while (n > 0) {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return out;
}

class Zipf {
  readonly #cumulative = new Float64Array(VOCABULARY);
  constructor() {
    let sum = 0;
    for (let rank = 1; rank <= VOCABULARY; rank++) this.#cumulative[rank - 1] = sum += 1 / rank;
    for (let i = 0; i < VOCABULARY; i++) this.#cumulative[i]! /= sum;
  }
  /** A rank from 1, drawn with probability ∝ 1/rank. */
  draw(next: () => number): number {
    const x = next();
    let low = 0;
    let high = VOCABULARY - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#cumulative[mid]! < x) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }
}

function closed(forumId: number): boolean {
  return forumId > FORUMS - CLOSED_FORUMS;
}

function postText(next: () => number, zipf: Zipf): string {
  const words: string[] = [];
  for (let i = 0; i < WORDS_PER_POST; i++) words.push(word(zipf.draw(next)));
  return `${words.join(' ')}.`;
}

export async function fill(database: DatabaseHandle): Promise<{ fillSeconds: number; indexSeconds: number; phrases: string[] }> {
  const next = random(42);
  const zipf = new Zipf();
  const db = database.db;
  const started = performance.now();
  const at = '2026-01-01T00:00:00.000Z';
  await db
    .insertInto('users')
    .values({
      username: 'bench',
      username_key: 'bench',
      username_skeleton: usernameSkeleton('bench'),
      email: 'bench@example.test',
      email_key: 'bench@example.test',
      password_hash: 'x',
      role: 'user',
      status: 'active',
      created_at: at,
      updated_at: at,
    })
    .execute();
  const topics = Math.ceil(POSTS / POSTS_PER_TOPIC);
  for (let f = 1; f <= FORUMS; f++)
    await db
      .insertInto('forums')
      .values({
        name: `Forum ${f}`,
        description: '',
        display_order: f,
        created_at: at,
        updated_at: at,
        ...(closed(f) ? { level_view: 'private' as const, level_read: 'private' as const } : {}),
      })
      .execute();
  for (let start = 0; start < topics; start += ROWS_PER_INSERT) {
    const rows = [];
    for (let i = start; i < Math.min(topics, start + ROWS_PER_INSERT); i++) {
      rows.push({
        forum_id: (i % FORUMS) + 1,
        title: `${word(zipf.draw(next))} ${word(zipf.draw(next))} ${word(1000 + (i % 40_000))}`,
        author_id: 1,
        status: 'published' as const,
        posts_count: POSTS_PER_TOPIC,
        last_post_at: at,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto('topics').values(rows).execute();
  }
  const phrases: string[] = [];
  for (let start = 0; start < POSTS; start += ROWS_PER_INSERT) {
    const rows = [];
    for (let i = start; i < Math.min(POSTS, start + ROWS_PER_INSERT); i++) {
      const body = postText(next, zipf);
      if (i % 5000 === 0) phrases.push(body.split(' ').slice(10, 12).join(' '));
      const created = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      rows.push({
        topic_id: Math.floor(i / POSTS_PER_TOPIC) + 1,
        author_id: 1,
        body,
        status: 'published' as const,
        held_by_filter_id: null,
        created_at: created,
        updated_at: created,
      });
    }
    await db.insertInto('posts').values(rows).execute();
  }
  const filled = performance.now();
  const index = new SearchRepository(db, database.dialect);
  await markAllPostsForIndexing(db);
  while ((await index.backfill(2000)) > 0);
  await settle(database);
  return { fillSeconds: (filled - started) / 1000, indexSeconds: (performance.now() - filled) / 1000, phrases };
}

export function queries(phrases: readonly string[]): Record<string, string[]> {
  const next = random(7);
  const between = (low: number, high: number): number => low + Math.floor(next() * (high - low));
  const list = (make: () => string): string[] => Array.from({ length: QUERIES_PER_KIND }, make);
  return {
    word: list(() => word(between(1000, VOCABULARY))),
    two: list(() => `${word(between(200, 20_000))} ${word(between(200, 20_000))}`),
    common: list(() => word(between(20, 200))),
    phrase: list(() => `"${phrases[between(0, phrases.length)]}"`),
    prefix: list(() => `${word(between(1000, VOCABULARY)).slice(0, 4)}*`),
  };
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function measureKinds(url: string, kinds: Record<string, string[]>): Promise<void> {
  console.log('| query | p50 ms | p99 ms | max ms | results (median) |');
  console.log('|---|---:|---:|---:|---:|');
  const all: number[] = [];
  for (const [kind, list] of Object.entries(kinds)) {
    const times: number[] = [];
    const totals: number[] = [];
    for (const query of list) {
      const started = performance.now();
      const response = await fetch(`${url}/api/search?search=${encodeURIComponent(query)}&per_page=20`);
      const body = (await response.json()) as { data?: Array<{ forum_id: number }>; meta?: { total: number } };
      times.push(performance.now() - started);
      if (!response.ok) throw new Error(`search ${query} answered ${response.status}`);
      const leak = body.data?.find((result) => closed(result.forum_id));
      if (leak !== undefined) throw new Error(`search ${query} answered a guest with a post of closed forum ${leak.forum_id}`);
      totals.push(body.meta?.total ?? 0);
    }
    times.sort((a, b) => a - b);
    totals.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `| ${kind} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.99).toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${percentile(totals, 0.5)} |`,
    );
  }
  all.sort((a, b) => a - b);
  const p99 = percentile(all, 0.99);
  console.log(
    `| **all ${all.length}** | ${percentile(all, 0.5).toFixed(1)} | **${p99.toFixed(1)}** | ${all.at(-1)!.toFixed(1)} | | ${p99 < TARGET_P99_MS ? '✓' : '✗'} target p99 < ${TARGET_P99_MS} ms`,
  );

  const mixed = Object.values(kinds).flat();
  const result = await autocannon({
    url,
    connections: 10,
    duration: 10,
    requests: mixed.map((query) => ({ method: 'GET', path: `/api/search?search=${encodeURIComponent(query)}&per_page=20` })),
  });
  console.log(
    `\nThe mix at 10 connections: ${Math.round(result.requests.average)} searches/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}.`,
  );
}

async function benchOn(label: string, config: DatabaseConfig, serviceUrl: string): Promise<void> {
  const log = pino({ level: 'silent' });
  const database = openDatabase(config, log);
  let filled;
  try {
    await migrateToLatest(database, log);
    filled = await fill(database);
  } finally {
    await database.close();
  }
  console.log(`\n## search over ${POSTS.toLocaleString('en')} posts, ${label}\n`);
  console.log(
    `Written in ${filled.fillSeconds.toFixed(1)} s; indexed in ${filled.indexSeconds.toFixed(1)} s (${Math.round(POSTS / filled.indexSeconds)} posts/s).\n`,
  );
  const service = await startService({ DATABASE_URL: serviceUrl, EMOJI_CATALOG: 'none', LOG_LEVEL: 'warn' });
  try {
    await measureKinds(service.url, queries(filled.phrases));
  } finally {
    await service.stop();
  }
}

export async function searchBench(): Promise<void> {
  await onEachDatabase('search', 'BENCH_SEARCH_POSTGRES', (kind, config, url) =>
    benchOn(kind === 'sqlite' ? 'SQLite (FTS5)' : 'PostgreSQL (tsvector, GIN)', config, url),
  );
}
