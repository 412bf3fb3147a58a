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

/** The form for `count` in the reader's language (`{count}` is the number, written as that language writes numbers). */
export function tn(key: CountKey, count: number, values: Values = {}): string {
  const { locale } = currentReader();
  let rules = pluralRules.get(locale);
  if (rules === undefined) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const forms: Catalog[string] = CATALOGS[locale][key] ?? en[key];
  const form = typeof forms === 'string' ? forms : (forms[rules.select(count)] ?? forms['other'] ?? key);
  return fill(form, { ...values, count });
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A number as the reader's language writes it (`12,345`; Russian `12 345`). */
export function number(value: number): string {
  const { locale } = currentReader();
  let format = numberFormats.get(locale);
  if (format === undefined) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(value);
}

function fill(text: string, values: Values): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'string' ? value : number(value);
  });
}
