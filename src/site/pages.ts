// Static pages (migration 0041; docs/static-pages.md): rules, FAQ, about and any
// other page admins write in BBCode, in English, Russian or both, each at
// /pages/{slug}/. A reader gets the page in their language, else in the
// other one. The pages are few and small, so all of them are kept in memory
// (db/snapshot.ts): an admin's change applies on the next request on every
// instance.
import type { Kysely } from 'kysely';
import { type Clock, isoNow } from '../clock.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { Snapshot } from '../db/snapshot.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { LOCALES, isLocale, type Locale } from '../i18n/locale.ts';
import { t } from '../i18n/messages.ts';
import { hasVisibleCharacter } from '../http/validation.ts';
import { isPageSlug } from '../urls/paths.ts';

export const PAGE_TITLE_MAX = 200;
/** Rules and FAQs run long; a hundred thousand characters is still one page. */
export const PAGE_BODY_MAX = 100_000;
export const PAGE_POSITION_MAX = 1_000_000;

export interface SitePageText {
  title: string;
  /** BBCode, as the admin wrote it. */
  body: string;
}

export interface SitePage {
  id: number;
  slug: string;
  /** The footer lists pages by position, then slug. */
  position: number;
  inFooter: boolean;
  createdAt: string;
  updatedAt: string;
  /** At least one language. */
  texts: Partial<Record<Locale, SitePageText>>;
}

export interface SitePageInput {
  slug: string;
  position: number;
  in_footer: boolean;
  /** The page in each language it is written in; a language left out (or null) has no text. */
  texts: Partial<Record<Locale, SitePageText | null>>;
}

/** The page as a reader of `locale` gets it: in their language, else the other one. */
export function pageTextFor(page: SitePage, locale: Locale): { locale: Locale; text: SitePageText } {
  const own = page.texts[locale];
  if (own !== undefined) return { locale, text: own };
  const other = LOCALES.find((candidate) => page.texts[candidate] !== undefined)!;
  return { locale: other, text: page.texts[other]! };
}

const SITE_PAGES_TOPIC = 'site-pages';

export class SitePages {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #snapshot: Snapshot<SitePage[]>;

  constructor(db: Kysely<Database>, database: { writes: WriteWatch; changes: ChangeFeed }, clock: Clock, onError: (error: unknown) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#snapshot = new Snapshot({ topic: SITE_PAGES_TOPIC, tables: new Set(['site_pages', 'site_page_texts']), load: () => this.#read() }, database, onError);
  }

  /** Every page, in the footer's order. */
  all(): Promise<SitePage[]> {
    return this.#snapshot.current();
  }

  async get(id: number): Promise<SitePage> {
    const page = (await this.all()).find((found) => found.id === id);
    if (page === undefined) throw new ModelNotFoundError('Page', id);
    return page;
  }

  async bySlug(slug: string): Promise<SitePage | undefined> {
    return (await this.all()).find((page) => page.slug === slug);
  }

  async create(input: SitePageInput): Promise<SitePage> {
    const { page, texts } = checked(input);
    const at = isoNow(this.#clock);
    const id = await this.#written(() =>
      this.#db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('site_pages')
          .values({ ...page, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('site_page_texts')
          .values(texts.map((text) => ({ page_id: row.id, ...text })))
          .execute();
        return row.id;
      }),
    );
    return this.get(id);
  }

  /** Replaces the page: its address, place and texts (a language left out loses its text). */
  async update(id: number, input: SitePageInput): Promise<SitePage> {
    await this.get(id);
    const { page, texts } = checked(input);
    await this.#written(() =>
      this.#db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('site_pages')
          .set({ ...page, updated_at: isoNow(this.#clock) })
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw new ModelNotFoundError('Page', id);
        await trx.deleteFrom('site_page_texts').where('page_id', '=', id).execute();
        await trx
          .insertInto('site_page_texts')
          .values(texts.map((text) => ({ page_id: id, ...text })))
          .execute();
      }),
    );
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    const deleted = await this.#db.deleteFrom('site_pages').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new ModelNotFoundError('Page', id);
    this.#snapshot.changed();
  }

  async #written<T>(write: () => Promise<T>): Promise<T> {
    try {
      const result = await write();
      this.#snapshot.changed();
      return result;
    } catch (error) {
      // Two pages cannot share an address: the database's unique key says so, whatever the requests race.
      if (isUniqueViolation(error)) throw ValidationError.field('slug', t('pages.error.slug_taken'));
      throw error;
    }
  }

  async #read(): Promise<SitePage[]> {
    const [pages, texts] = await Promise.all([
      this.#db.selectFrom('site_pages').selectAll().orderBy('position').orderBy('slug').execute(),
      this.#db.selectFrom('site_page_texts').selectAll().execute(),
    ]);
    const textsOf = Map.groupBy(texts, (text) => text.page_id);
    return pages.map((row) => {
      const own: Partial<Record<Locale, SitePageText>> = {};
      for (const text of textsOf.get(row.id) ?? []) if (isLocale(text.locale)) own[text.locale] = { title: text.title, body: text.body };
      return {
        id: row.id,
        slug: row.slug,
        position: row.position,
        inFooter: Boolean(row.in_footer),
        createdAt: String(row.created_at),
        updatedAt: String(row.updated_at),
        texts: own,
      };
    });
  }
}

/** The page's columns and text rows from its input, or 422 naming each field. */
function checked(input: SitePageInput): {
  page: { slug: string; position: number; in_footer: boolean };
  texts: Array<{ locale: Locale; title: string; body: string }>;
} {
  const errors = new FieldErrorBag();
  const slug = input.slug.trim();
  if (!isPageSlug(slug)) errors.add('slug', t('pages.error.slug'));
  if (!Number.isSafeInteger(input.position) || Math.abs(input.position) > PAGE_POSITION_MAX) {
    errors.add('position', t('pages.error.position', { max: PAGE_POSITION_MAX }));
  }
  const texts: Array<{ locale: Locale; title: string; body: string }> = [];
  for (const locale of LOCALES) {
    const text = input.texts[locale];
    if (text === undefined || text === null) continue;
    const title = text.title.trim();
    const body = text.body.replace(/\r\n?/g, '\n').trim();
    if (!hasVisibleCharacter(title)) errors.add(`texts.${locale}.title`, t('pages.error.title'));
    if (title.length > PAGE_TITLE_MAX) errors.add(`texts.${locale}.title`, t('pages.error.title_long', { max: PAGE_TITLE_MAX }));
    if (body === '') errors.add(`texts.${locale}.body`, t('pages.error.body'));
    if (body.length > PAGE_BODY_MAX) errors.add(`texts.${locale}.body`, t('pages.error.body_long', { max: PAGE_BODY_MAX }));
    texts.push({ locale, title, body });
  }
  if (texts.length === 0) errors.add('texts', t('pages.error.no_text'));
  errors.throwIfAny();
  return { page: { slug, position: input.position, in_footer: input.in_footer }, texts };
}
