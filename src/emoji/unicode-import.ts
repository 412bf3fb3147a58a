// Fills an empty catalog with the Unicode set (see unicode-catalog.ts for what
// is taken and why). One transaction: the catalog is either untouched or
// complete. Instances starting together take turns on a lock, and whoever
// comes second finds the catalog no longer empty and leaves it alone.
import { type Clock, isoNow } from '../clock.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/database.ts';
import { lockForTransaction } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { Catalog } from './catalog.ts';
import { loadUnicodeSource, planUnicodeCatalog, type PlannedEmoji, type Skipped, type UnicodePlan } from './unicode-catalog.ts';

export interface ImportReport {
  imported: boolean;
  /** Why nothing was imported. */
  reason: string | null;
  categories: number;
  emojis: number;
  aliases: number;
  skipped: Skipped[];
  leftOut: UnicodePlan['leftOut'];
  milliseconds: number;
}

// Bound parameters per INSERT: under SQLite's limit (32766) and PostgreSQL's
// (65535). As few statements as that allows keeps start-up fast.
const MAX_PARAMETERS = 30000;

export class UnicodeImport {
  readonly #database: DatabaseHandle;
  readonly #catalog: Catalog;
  readonly #clock: Clock;

  constructor(database: DatabaseHandle, catalog: Catalog, clock: Clock) {
    this.#clock = clock;
    this.#database = database;
    this.#catalog = catalog;
  }

  /** Imports the Unicode set if (and only if) the catalog is empty; logs what was skipped. */
  async importIfEmpty(log: Logger): Promise<ImportReport> {
    const started = performance.now();
    const { db, dialect } = this.#database;
    // Every start after the first ends here, without reading the data set.
    if (!(await isEmpty(db))) return this.#notNeeded(log, started);
    const plan = planUnicodeCatalog(await loadUnicodeSource());

    const written = await db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, dialect, 'emoji_catalog_import');
      // Checked again under the lock: another instance may have imported meanwhile.
      if (!(await isEmpty(trx))) return null;
      return writePlan(trx, plan, isoNow(this.#clock));
    });
    if (written === null) return this.#notNeeded(log, started);

    const report: ImportReport = {
      imported: true,
      reason: null,
      ...written,
      skipped: plan.skipped,
      leftOut: plan.leftOut,
      milliseconds: Math.round(performance.now() - started),
    };
    await this.#catalog.changed();
    for (const skip of plan.skipped) log.info({ item: skip.item, reason: skip.reason }, 'emoji catalog: skipped during Unicode import');
    log.info(
      {
        categories: report.categories,
        emojis: report.emojis,
        aliases: report.aliases,
        skipped: report.skipped.length,
        left_out: report.leftOut,
        ms: report.milliseconds,
      },
      'emoji catalog: Unicode set imported',
    );
    return report;
  }

  #notNeeded(log: Logger, started: number): ImportReport {
    log.info('emoji catalog: not empty, Unicode import not needed');
    return {
      imported: false,
      reason: 'the catalog is not empty',
      categories: 0,
      emojis: 0,
      aliases: 0,
      skipped: [],
      leftOut: { skinToneVariants: 0, components: 0, ungrouped: 0 },
      milliseconds: Math.round(performance.now() - started),
    };
  }
}

async function isEmpty(trx: Kysely<Database>): Promise<boolean> {
  const [emoji, category] = await Promise.all([
    trx.selectFrom('emojis').select('id').limit(1).executeTakeFirst(),
    trx.selectFrom('emoji_categories').select('id').limit(1).executeTakeFirst(),
  ]);
  return emoji === undefined && category === undefined;
}

async function writePlan(trx: Transaction<Database>, plan: UnicodePlan, now: string): Promise<{ categories: number; emojis: number; aliases: number }> {
  const categories = await trx
    .insertInto('emoji_categories')
    .values(plan.categories.map((category) => ({ title: category.title, display_order: category.display_order, created_at: now, updated_at: now })))
    .returning(['id', 'display_order'])
    .execute();
  // Category display orders are the distinct Unicode group numbers.
  const categoryId = new Map(categories.map((row) => [row.display_order, row.id]));

  const emojis: Array<PlannedEmoji & { categoryId: number }> = plan.categories.flatMap((category) =>
    category.emojis.map((emoji) => ({ ...emoji, categoryId: categoryId.get(category.display_order)! })),
  );
  const emojiId = new Map<string, number>();
  for (const batch of batches(emojis, 9)) {
    const rows = await trx
      .insertInto('emojis')
      .values(
        batch.map((emoji) => ({
          title: emoji.title,
          emoji_text: emoji.emoji_text,
          emoji_shortcode: emoji.emoji_shortcode,
          image_url: null,
          sprite_mode: false,
          emoji_category_id: emoji.categoryId,
          display_order: emoji.display_order,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'emoji_shortcode'])
      .execute();
    for (const row of rows) emojiId.set(row.emoji_shortcode, row.id);
  }

  const aliases = emojis.flatMap((emoji) =>
    emoji.aliases.map((alias) => ({ emoji_id: emojiId.get(emoji.emoji_shortcode)!, alias, created_at: now, updated_at: now })),
  );
  for (const batch of batches(aliases, 4)) await trx.insertInto('emoji_aliases').values(batch).execute();

  // The catalog was empty, so every shortcode and alias now in it is one of ours.
  await trx
    .insertInto('emoji_codes')
    .columns(['code', 'emoji_id'])
    .expression((eb) => eb.selectFrom('emojis').select(['emoji_shortcode', 'id']))
    .execute();
  await trx
    .insertInto('emoji_codes')
    .columns(['code', 'alias_id'])
    .expression((eb) => eb.selectFrom('emoji_aliases').select(['alias', 'id']))
    .execute();

  return { categories: categories.length, emojis: emojis.length, aliases: aliases.length };
}

/** Slices of `items` that fit one INSERT of rows with `columns` values each. */
function* batches<T>(items: readonly T[], columns: number): Generator<T[]> {
  const size = Math.floor(MAX_PARAMETERS / columns);
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
