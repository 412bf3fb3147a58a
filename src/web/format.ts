// How dates and counts read on pages, in the reader's language and time zone
// (i18n/context.ts). English in UTC, the default, is written by hand from the
// ISO string: Intl.DateTimeFormat costs microseconds a call, and a topic page
// prints fifty of them. Other readers get Intl's formats, made once per
// language and zone.
import { currentReader } from '../i18n/context.ts';
import { number } from '../i18n/messages.ts';
import { escapeHtml, html, raw, type SafeHtml } from './html.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

interface Parts {
  iso: string;
  date: string;
  time: string;
}

/** Stored timestamps are `YYYY-MM-DDTHH:MM:SS.sssZ` on both databases; anything else goes through Date first. */
function parts(stored: string): Parts {
  const iso = stored.length === 24 && stored[10] === 'T' && stored[23] === 'Z' ? stored : new Date(stored).toISOString();
  const month = MONTHS[Number(iso.slice(5, 7)) - 1];
  return { iso, date: `${Number(iso.slice(8, 10))} ${month} ${iso.slice(0, 4)}`, time: iso.slice(11, 16) };
}

/** `<time datetime="2026-01-02T03:04:05.000Z">2 Jan 2026, 03:04 UTC</time>`; for a reader in Moscow in Russian `2 янв. 2026 г., 06:04`. */
export function timeHtml(stored: string): SafeHtml {
  const at = parts(stored);
  const reader = currentReader();
  if (reader.locale === 'en' && reader.timeZone === 'UTC') return html`<time datetime="${at.iso}">${at.date}, ${at.time} UTC</time>`;
  return html`<time datetime="${at.iso}">${formatOf(reader.locale, reader.timeZone, 'time').format(new Date(at.iso))}</time>`;
}

/** `<time datetime="…">2 Jan 2026</time>`, the day in the reader's zone. */
export function dateHtml(stored: string): SafeHtml {
  return html`<time datetime="${parts(stored).iso}">${dateText(stored)}</time>`;
}

/** `2 Jan 2026`, the day in the reader's zone and language: for a date inside a sentence (a ban's end). */
export function dateText(stored: string): string {
  const at = parts(stored);
  const reader = currentReader();
  if (reader.locale === 'en' && reader.timeZone === 'UTC') return at.date;
  return formatOf(reader.locale, reader.timeZone, 'date').format(new Date(at.iso));
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: string, timeZone: string, kind: 'time' | 'date'): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${kind}`;
  let format = formats.get(key);
  if (format === undefined) {
    // English as written here by hand: day before month (en-GB), not the American order.
    format = new Intl.DateTimeFormat(
      locale === 'en' ? 'en-GB' : locale,
      kind === 'time' ? { dateStyle: 'medium', timeStyle: 'short', timeZone } : { dateStyle: 'medium', timeZone },
    );
    formats.set(key, format);
  }
  return format;
}

/** `1 post`, `3 posts`, `12,345 views`: English words for the pages not yet in the catalogs (i18n/messages.ts `tn` for the others). */
export function counted(count: number, one: string, many: string): string {
  return `${number(count)} ${count === 1 ? one : many}`;
}

const decimalFormats = new Map<string, Intl.NumberFormat>();

/** Numbers with exactly `decimals` decimals in the reader's language, the format made once per language (a new one costs tens of µs, and the member bar prints two on every page). */
function decimalFormat(decimals: 0 | 2): Intl.NumberFormat {
  const locale = currentReader().locale;
  const key = `${locale} ${decimals}`;
  let format = decimalFormats.get(key);
  if (format === undefined)
    decimalFormats.set(key, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format;
}

/** Hundredths as the reader writes numbers, whole ones without decimals: "12.34", "10", "1,234.50"; in Russian "12,34", "1 234,50". */
export function formatPoints(hundredths: number): string {
  return decimalFormat(hundredths % 100 === 0 ? 0 : 2).format(hundredths / 100);
}

/** Two decimals as the reader writes them ("1.24"; in Russian "1,24"), rounded down so that a ratio just under the minimum never prints as the minimum. */
export function formatRatio(ratio: number): string {
  return decimalFormat(2).format(Math.floor(ratio * 100) / 100);
}

/** Places after which a name or address may wrap: the end of a run of dots, underscores, slashes, `?`, `&` or `=`. */
const BREAK_AFTER = /(?<=[._/\\?&=])(?=[^._/\\?&=])/;

/**
 * A file name, path or web address that may wrap after its punctuation
 * (`Film.2026.1080p.WEB-DL.mkv`, `https://example.org/a/long/path`): Chromium
 * finds no break in it but a hyphen, and would otherwise break it mid-word on
 * a phone.
 */
export function breakableName(name: string): SafeHtml {
  return raw(name.split(BREAK_AFTER).map(escapeHtml).join('<wbr>'));
}

/** Longest web address written as it is: it fits a phone's line (about 45 characters at 390 px). */
const SHORT_ADDRESS = 40;

/** A web address as a link's text: a long one may wrap after its punctuation (breakableName), a short one is written as it is. */
export function addressText(url: string): SafeHtml {
  return url.length > SHORT_ADDRESS ? breakableName(url) : raw(escapeHtml(url));
}

const LONG_RUN = new RegExp(`(\\S{${SHORT_ADDRESS + 1},})`);

/** Plain text, escaped, where each run without spaces longer than a phone's line may wrap after its punctuation. */
export function wrappableText(text: string): SafeHtml {
  return raw(
    text
      .split(LONG_RUN)
      .map((part, index) => (index % 2 === 1 ? breakableName(part).value : escapeHtml(part)))
      .join(''),
  );
}
