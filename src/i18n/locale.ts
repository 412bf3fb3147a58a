// The interface languages and time zones (docs/i18n.md): which a request gets
// is its member's setting, else what the browser asks for (Accept-Language,
// and the `tz` cookie the browser's own time zone is written to), else
// English and UTC.

export const LOCALES = ['en', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const DEFAULT_TIME_ZONE = 'UTC';

/** Each language named in itself, for the language menu. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', ru: 'Русский' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The best of our languages for an Accept-Language header (`ru-RU,ru;q=0.9,en;q=0.8`); `fallback` (the site's default) when none fits. */
export function negotiateLocale(header: string | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  if (header === undefined || header.length > 1000) return fallback;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.split(',').slice(0, 30)) {
    const [tag = '', ...params] = part.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!isLocale(language) || !Number.isFinite(q) || q <= 0) continue;
    if (best === undefined || q > best.q) best = { locale: language, q };
  }
  return best?.locale ?? fallback;
}

const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), DEFAULT_TIME_ZONE]);

/** Every IANA zone this runtime knows, for the settings menu. */
export const TIME_ZONE_LIST: readonly string[] = [...TIME_ZONES].sort();

export function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && TIME_ZONES.has(value);
}
