// Counted texts and numbers (src/i18n/messages.ts) take shortcuts for the small
// whole numbers list pages show by the dozen: each language's plural category
// looked up once, digits without Intl. Both must say exactly what
// Intl.PluralRules and Intl.NumberFormat say, on both sides of the shortcut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asReader } from '../../src/i18n/context.ts';
import type { Locale } from '../../src/i18n/locale.ts';
import { number, tn } from '../../src/i18n/messages.ts';

const LOCALES: Locale[] = ['en', 'ru'];
const COUNTS = [...Array.from({ length: 1100 }, (_, n) => n), 1234, 12_345, 1_000_000, -1, -5, -1234, 0.5, 1.5, 21.25];

describe('numbers and counted texts in the reader’s language', () => {
  for (const locale of LOCALES) {
    it(`writes every number as Intl.NumberFormat does (${locale})`, () => {
      const format = new Intl.NumberFormat(locale);
      asReader({ locale, timeZone: 'UTC' }, () => {
        for (const count of COUNTS) assert.equal(number(count), format.format(count), `number(${count})`);
      });
    });

    it(`picks the plural form Intl.PluralRules picks (${locale})`, () => {
      const rules = new Intl.PluralRules(locale);
      const format = new Intl.NumberFormat(locale);
      // `topics.new_posts` has a form per category; which one was chosen shows in the text.
      const byCategory = new Map<string, string>();
      asReader({ locale, timeZone: 'UTC' }, () => {
        for (const count of [1, 2, 5, 0.5, 21, 22, 25, 11, 111])
          byCategory.set(rules.select(count), tn('topics.new_posts', count).replace(format.format(count), '#'));
        for (const count of COUNTS) {
          assert.equal(tn('topics.new_posts', count), byCategory.get(rules.select(count))!.replace('#', format.format(count)), `tn(${count})`);
        }
      });
    });
  }
});
