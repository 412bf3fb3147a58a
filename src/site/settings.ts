// The site's own settings (migration 0032; docs/admin.md, "Site settings"):
// its name, a line describing it, a logo, the language guests read it in and
// whether anyone may register. Kept in memory as a snapshot (db/snapshot.ts):
// an admin's change applies on the next request on every instance.
import { Type, type Static } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { isoNow } from '../clock.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { Database } from '../db/schema.ts';
import { Snapshot } from '../db/snapshot.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { safeUrl } from '../http/safe-url.ts';
import { ValidationError } from '../http/errors.ts';
import { VisibleText } from '../http/schemas.ts';
import { isLocale, type Locale } from '../i18n/locale.ts';
import { t } from '../i18n/messages.ts';
import { sitePagePath } from '../urls/paths.ts';
import type { FooterPage } from '../web/page.ts';

export interface SiteSettingsValue {
  name: string;
  description: string;
  /** An http(s) address or a path on this site; null: the name alone. */
  logoUrl: string | null;
  defaultLocale: Locale;
  registrationOpen: boolean;
  /** robots.txt as the admin wrote it; null: the default (site/robots.ts). */
  robotsTxt: string | null;
  /** The static pages the footer links to, in order (site/pages.ts). */
  footerPages: readonly FooterPage[];
}

/** What a site is called before its admin names it. */
export const UNNAMED: SiteSettingsValue = {
  name: 'Forum',
  description: '',
  logoUrl: null,
  defaultLocale: 'en',
  registrationOpen: true,
  robotsTxt: null,
  footerPages: [],
};

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 300;
export const LOGO_URL_MAX = 500;
/** robots.txt of 10,000 characters is far more than any site needs (Google reads up to 500 KiB). */
export const ROBOTS_TXT_MAX = 10_000;

/** The settings form's fields, as the admin page submits them (checked by the form's validator). */
const SiteFields = {
  name: VisibleText(NAME_MAX, `The site's name: up to ${NAME_MAX} characters, at least one of them visible`),
  description: Type.String({ maxLength: DESCRIPTION_MAX, description: `One line about the site (up to ${DESCRIPTION_MAX} characters; empty: none)` }),
  logo_url: Type.String({ maxLength: LOGO_URL_MAX, description: 'An http(s) address or a path on this site; empty: the name alone' }),
  default_locale: Type.Union([Type.Literal('en'), Type.Literal('ru')], {
    description: 'The language of guests whose browser asks for none the site speaks',
  }),
  registration_open: Type.Boolean({ description: 'Whether anyone may register (/register/)' }),
  robots_txt: Type.String({ maxLength: ROBOTS_TXT_MAX, description: 'What /robots.txt answers; empty: the default (docs/seo.md)' }),
};
export const SiteSettingsBody = Type.Object(SiteFields);
/** `PATCH /api/site`: any of the fields. */
export const SiteSettingsPatch = Type.Partial(Type.Object(SiteFields));

/** The settings as the API gives them. */
export const SiteSettingsResource = Type.Object({
  name: Type.String(),
  description: Type.String(),
  logo_url: Type.Union([Type.String(), Type.Null()]),
  default_locale: Type.String(),
  registration_open: Type.Boolean(),
  robots_txt: Type.Union([Type.String(), Type.Null()], { description: 'What /robots.txt answers as the admin wrote it; null: the default' }),
});

export function siteSettingsResource(value: SiteSettingsValue): Static<typeof SiteSettingsResource> {
  return {
    name: value.name,
    description: value.description,
    logo_url: value.logoUrl,
    default_locale: value.defaultLocale,
    registration_open: value.registrationOpen,
    robots_txt: value.robotsTxt,
  };
}
export type SiteSettingsInput = Static<typeof SiteSettingsBody>;

const SITE_SETTINGS_TOPIC = 'site-settings';

export class SiteSettings {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #snapshot: Snapshot<SiteSettingsValue>;

  constructor(db: Kysely<Database>, database: { writes: WriteWatch; changes: ChangeFeed }, clock: Clock, onError: (error: unknown) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#snapshot = new Snapshot(
      { topic: SITE_SETTINGS_TOPIC, tables: new Set(['site_settings', 'site_pages', 'site_page_texts']), load: () => this.#read() },
      database,
      onError,
    );
  }

  current(): Promise<SiteSettingsValue> {
    return this.#snapshot.current();
  }

  /**
   * The settings as last read, without waiting: for what answers before any
   * query may run (the reader's language is chosen as a request arrives).
   * The app reads them once at start, so this is the stored value from then on.
   */
  lastKnown(): SiteSettingsValue {
    return this.#snapshot.lastKnown() ?? UNNAMED;
  }

  /** Changes some of the settings (the API's PATCH), keeping the others. */
  async patch(input: Static<typeof SiteSettingsPatch>): Promise<SiteSettingsValue> {
    const now = await this.current();
    return this.update({
      name: input.name ?? now.name,
      description: input.description ?? now.description,
      logo_url: input.logo_url ?? now.logoUrl ?? '',
      default_locale: input.default_locale ?? now.defaultLocale,
      registration_open: input.registration_open ?? now.registrationOpen,
      robots_txt: input.robots_txt ?? now.robotsTxt ?? '',
    });
  }

  async update(input: SiteSettingsInput): Promise<SiteSettingsValue> {
    const logo = input.logo_url.trim();
    const logoUrl = logo === '' ? null : (safeUrl(logo) ?? null);
    if (logo !== '' && logoUrl === null) throw ValidationError.field('logo_url', t('admin.site.logo_invalid'));
    const row = {
      name: input.name.trim(),
      description: input.description.trim(),
      logo_url: logoUrl,
      default_locale: input.default_locale,
      registration_open: input.registration_open,
      // Line ends as the web writes them (a form sends CRLF); nothing but blanks: the default.
      robots_txt: input.robots_txt.trim() === '' ? null : `${input.robots_txt.replace(/\r\n?/g, '\n').trim()}\n`,
      updated_at: isoNow(this.#clock),
    };
    // The row exists once an admin first saved the settings (none before: the defaults are UNNAMED).
    await this.#db
      .insertInto('site_settings')
      .values({ id: 1, ...row })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
      .execute();
    this.#snapshot.changed();
    return this.current();
  }

  async #read(): Promise<SiteSettingsValue> {
    const [row, footerPages] = await Promise.all([
      this.#db.selectFrom('site_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
      this.#footerPages(),
    ]);
    if (row === undefined) return { ...UNNAMED, footerPages };
    return {
      name: row.name,
      description: row.description,
      logoUrl: row.logo_url,
      defaultLocale: isLocale(row.default_locale) ? row.default_locale : 'en',
      registrationOpen: Boolean(row.registration_open),
      robotsTxt: row.robots_txt,
      footerPages,
    };
  }

  /** Each static page the footer links to, with its title in each language it is written in. */
  async #footerPages(): Promise<FooterPage[]> {
    const rows = await this.#db
      .selectFrom('site_pages')
      .innerJoin('site_page_texts', 'site_page_texts.page_id', 'site_pages.id')
      .select(['site_pages.id', 'site_pages.slug', 'site_page_texts.locale', 'site_page_texts.title'])
      .where('site_pages.in_footer', '=', true)
      .orderBy('site_pages.position')
      .orderBy('site_pages.slug')
      .execute();
    const pages = new Map<number, FooterPage>();
    for (const row of rows) {
      const page = pages.get(row.id) ?? { path: sitePagePath(row.slug), titles: {} };
      if (isLocale(row.locale)) page.titles[row.locale] = row.title;
      pages.set(row.id, page);
    }
    return [...pages.values()];
  }
}

/**
 * Every request but the API's and the tracker's (`skip`) reads the current
 * settings before anything else looks at it: the reader's default language,
 * the page's name and logo, whether registration is open. A cached read, so
 * it costs a promise; after a change, one query for the first request.
 */
export function installSiteSettings(app: FastifyInstance, site: SiteSettings, skip: (request: FastifyRequest) => boolean): void {
  app.decorateRequest('siteSettings', null);
  app.addHook('onRequest', async (request) => {
    if (skip(request)) return;
    try {
      request.siteSettings = await site.current();
    } catch {
      // The database is away: the request goes on with the settings last read, and whatever it needs from the
      // database fails on its own terms (the readiness probe answers 503, a page its error page).
      request.siteSettings = site.lastKnown();
    }
  });
}
