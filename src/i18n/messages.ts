// Interface text in the reader's language (docs/i18n.md). The catalogs are
// JSON files a translator edits (messages/en.json, messages/ru.json), one key
// per text; `{name}` marks where a value goes. A text that depends on a
// number has one form per plural category of its language (Intl.PluralRules:
// English one/other, Russian one/few/many/other). test/i18n checks that both
// catalogs have every key, form and placeholder.
import { currentReader } from './context.ts';
import type { Locale } from './locale.ts';
import en from './messages/en.json' with { type: 'json' };
import ru from './messages/ru.json' with { type: 'json' };

export type Catalog = Readonly<Record<string, string | Readonly<Record<string, string>>>>;
export const CATALOGS: Record<Locale, Catalog> = { en, ru };

type Key = keyof typeof en;
/** Keys of texts without a count. */
export type TextKey = { [K in Key]: (typeof en)[K] extends string ? K : never }[Key];
/** Keys of texts with one form per plural category. */
export type CountKey = Exclude<Key, TextKey>;

type Values = Readonly<Record<string, string | number>>;

/** Whether a key made at run time (`field.${name}`) names a text without a count. */
export function isTextKey(key: string): key is TextKey {
  return typeof (en as Catalog)[key] === 'string';
}

/** The text in the reader's language, its `{name}`s filled. */
export function t(key: TextKey, values: Values = {}): string {
  const { locale } = currentReader();
  const text = CATALOGS[locale][key] ?? en[key];
  return fill(typeof text === 'string' ? text : key, values);
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
// A list page asks for dozens of counted texts per view; the category of the
// small whole numbers it shows is looked up once per language.
const smallCategories = new Map<Locale, Intl.LDMLPluralRule[]>();
const SMALL = 1000;

/** The form for `count` in the reader's language (`{count}` is the number, written as that language writes numbers). */
export function tn(key: CountKey, count: number, values: Values = {}): string {
  const { locale } = currentReader();
  const forms: Catalog[string] = CATALOGS[locale][key] ?? en[key];
  const form = typeof forms === 'string' ? forms : (forms[pluralCategory(locale, count)] ?? forms['other'] ?? key);
  return fill(form, { ...values, count });
}

function pluralCategory(locale: Locale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (rules === undefined) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  if (!Number.isInteger(count) || count < 0 || count >= SMALL) return rules.select(count);
  let small = smallCategories.get(locale);
  if (small === undefined) smallCategories.set(locale, (small = Array.from({ length: SMALL }, (_, n) => rules.select(n))));
  return small[count]!;
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A number as the reader's language writes it (`12,345`; Russian `12 345`). */
export function number(value: number): string {
  // Neither language groups digits below a thousand.
  if (Number.isInteger(value) && value >= 0 && value < SMALL) return String(value);
  const { locale } = currentReader();
  let format = numberFormats.get(locale);
  if (format === undefined) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(value);
}

/** Each text cut at its `{name}`s once: literal, name, literal, … name, literal. */
const templates = new Map<string, string[]>();

function fill(text: string, values: Values): string {
  let pieces = templates.get(text);
  if (pieces === undefined) templates.set(text, (pieces = text.split(/\{(\w+)\}/)));
  let out = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) {
    const name = pieces[i]!;
    const value = values[name];
    out += (value === undefined ? `{${name}}` : typeof value === 'string' ? value : number(value)) + pieces[i + 1]!;
  }
  return out;
}
