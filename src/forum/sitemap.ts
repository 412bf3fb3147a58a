// Sitemaps (sitemaps.org; docs/seo.md): `/sitemap.xml` is an index of
// `/sitemaps/forums.xml` (the home page and every forum guests may read) and
// `/sitemaps/topics-{n}.xml`, the published topics guests may read whose ids
// fall in the n-th run of TOPICS_PER_SITEMAP ids, each with its last activity.
// Only what a guest may read is listed (docs/access.md), as the feeds do:
// a crawler is a guest. The index is worked out at most once a minute per
// instance (on a million topics it reads them all); a topics file reads one
// run of ids through the primary key.
import { sql, type Kysely } from 'kysely';
import { atMostEvery, type Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { nextTurn } from '../turns.ts';
import { absoluteUrl, forumPath, MAX_ID, sitePagePath } from '../urls/paths.ts';
import type { SitePages } from '../site/pages.ts';
import type { ForumAccess } from './forum-access.ts';
import { element, parent } from './feeds/xml.ts';
import { inForums } from './permissions.ts';
import type { ForumPresenter } from './presenter.ts';

/** Topics per sitemap file: a fifth of the protocol's 50,000, so that one file is quick to build and to fetch. */
export const TOPICS_PER_SITEMAP = 10_000;
/** How long the index's figures are kept before they are worked out again. */
const INDEX_FRESH_MS = 60_000;
/** Topic paths made before the event loop takes a turn (a slug is made from each displayed title). */
const HEADINGS_PER_TURN = 500;

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** When nothing has happened yet: a fixed time, so that validators stay put. */
const NEVER = '1970-01-01T00:00:00.000Z';

export interface SitemapDocument {
  xml: string;
  /** The newest change it lists (Last-Modified). */
  updated: string;
}

interface TopicRun {
  run: number;
  updated: string;
}

export class Sitemaps {
  readonly #db: Kysely<Database>;
  readonly #access: ForumAccess;
  readonly #presenter: ForumPresenter;
  readonly #runs: () => Promise<TopicRun[]>;
  readonly #pages: SitePages;

  constructor(db: Kysely<Database>, access: ForumAccess, presenter: ForumPresenter, pages: SitePages, clock: Clock) {
    this.#db = db;
    this.#access = access;
    this.#presenter = presenter;
    this.#pages = pages;
    this.#runs = atMostEvery(INDEX_FRESH_MS, clock, () => this.#topicRuns());
  }

  /** The index: the forums' sitemap and one topics sitemap per run of ids that holds a topic guests may read. */
  async index(origin: string): Promise<SitemapDocument> {
    const runs = await this.#runs();
    const updated = runs.reduce((newest, run) => (run.updated > newest ? run.updated : newest), NEVER);
    const entries = [
      parent('sitemap', {}, [element('loc', {}, absoluteUrl(origin, '/sitemaps/forums.xml')), element('lastmod', {}, updated)]),
      ...runs.map((run) => parent('sitemap', {}, [element('loc', {}, absoluteUrl(origin, topicsSitemapPath(run.run))), element('lastmod', {}, run.updated)])),
    ];
    return { xml: document(parent('sitemapindex', { xmlns: NAMESPACE }, entries)), updated };
  }

  /** The home page, the forums guests may read and the static pages. */
  async forums(origin: string): Promise<SitemapDocument> {
    const scope = (await this.#access.of(null)).readScope();
    const forums = await this.#db
      .selectFrom('forums')
      .leftJoin('topics', (join) => join.onRef('topics.forum_id', '=', 'forums.id').on('topics.status', '=', 'published').on('topics.hidden_at', 'is', null))
      .select(['forums.id', 'forums.name', (eb) => eb.fn.max('topics.last_post_at').as('updated')])
      .where(inForums('forums.id', scope))
      .groupBy(['forums.id', 'forums.name'])
      .orderBy('forums.id')
      .execute();
    const forumsUpdated = forums.reduce((newest, forum) => (forum.updated !== null && String(forum.updated) > newest ? String(forum.updated) : newest), NEVER);
    const pages = await this.#pages.all();
    const updated = pages.reduce((newest, page) => (page.updatedAt > newest ? page.updatedAt : newest), forumsUpdated);
    const urls = [
      url(absoluteUrl(origin, '/'), forumsUpdated === NEVER ? null : forumsUpdated),
      ...forums.map((forum) => url(absoluteUrl(origin, forumPath(forum)), forum.updated === null ? null : String(forum.updated))),
      ...pages.map((page) => url(absoluteUrl(origin, sitePagePath(page.slug)), page.updatedAt)),
    ];
    return { xml: document(parent('urlset', { xmlns: NAMESPACE }, urls)), updated };
  }

  /** The topics of run `run` guests may read; null when it holds none (404). */
  async topics(origin: string, run: number): Promise<SitemapDocument | null> {
    const scope = (await this.#access.of(null)).readScope();
    const rows = await guestTopics(this.#db, scope)
      .select(['topics.id', 'topics.title', 'topics.last_post_at'])
      .where('topics.id', '>=', run * TOPICS_PER_SITEMAP)
      // The last run ends at the largest id a 32-bit column holds (a larger bound would not fit PostgreSQL's integer).
      .where('topics.id', '<=', Math.min((run + 1) * TOPICS_PER_SITEMAP - 1, MAX_ID))
      .orderBy('topics.id')
      .execute();
    if (rows.length === 0) return null;
    const urls: string[] = [];
    for (let start = 0; start < rows.length; start += HEADINGS_PER_TURN) {
      const headings = await this.#presenter.headings(rows.slice(start, start + HEADINGS_PER_TURN));
      headings.forEach((heading, index) => urls.push(url(absoluteUrl(origin, heading.path), rows[start + index]!.last_post_at)));
      await nextTurn();
    }
    const updated = rows.reduce((newest, row) => (row.last_post_at > newest ? row.last_post_at : newest), NEVER);
    return { xml: document(parent('urlset', { xmlns: NAMESPACE }, urls)), updated };
  }

  async #topicRuns(): Promise<TopicRun[]> {
    const scope = (await this.#access.of(null)).readScope();
    const run = sql<number>`topics.id / ${sql.lit(TOPICS_PER_SITEMAP)}`;
    const rows = await guestTopics(this.#db, scope)
      .select([run.as('run'), (eb) => eb.fn.max('topics.last_post_at').as('updated')])
      .groupBy(run)
      .orderBy(run)
      .execute();
    return rows.map((row) => ({ run: Number(row.run), updated: String(row.updated) }));
  }
}

/** `/sitemaps/topics-{n}.xml` */
export function topicsSitemapPath(run: number): string {
  return `/sitemaps/topics-${run}.xml`;
}

/** Topics a guest may read: published, shown, in a forum guests may read. */
function guestTopics(db: Kysely<Database>, scope: readonly number[] | null) {
  return db.selectFrom('topics').where('topics.status', '=', 'published').where('topics.hidden_at', 'is', null).where(inForums('topics.forum_id', scope));
}

function url(loc: string, updated: string | null): string {
  return parent('url', {}, updated === null ? [element('loc', {}, loc)] : [element('loc', {}, loc), element('lastmod', {}, updated)]);
}

function document(root: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}
