// The message catalogs (src/i18n/messages/*.json) a translator edits: every
// key in every language, each count text with exactly the plural forms its
// language needs, the same {placeholders} everywhere, nothing left empty.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asReader } from '../../src/i18n/context.ts';
import { LOCALES } from '../../src/i18n/locale.ts';
import { CATALOGS, t, tn } from '../../src/i18n/messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const textsOf = (entry: string | Readonly<Record<string, string>>) => (typeof entry === 'string' ? [entry] : Object.values(entry));

describe('message catalogs', () => {
  const english = CATALOGS.en;

  for (const locale of LOCALES) {
    const catalog = CATALOGS[locale];
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();

    it(`${locale}: has every key of the others and no key of its own`, () => {
      for (const other of LOCALES) assert.deepEqual(Object.keys(catalog).sort(), Object.keys(CATALOGS[other]).sort(), `${locale} against ${other}`);
    });

    it(`${locale}: gives count texts exactly the plural forms of its language (${categories.join(', ')}), others one text`, () => {
      for (const [key, entry] of Object.entries(catalog)) {
        const englishEntry = english[key]!;
        assert.equal(typeof entry, typeof englishEntry, `${key}: a count text in one language is one in all`);
        if (typeof entry !== 'string') assert.deepEqual(Object.keys(entry).sort(), categories, key);
      }
    });

    it(`${locale}: keeps the English placeholders and leaves nothing empty`, () => {
      for (const [key, entry] of Object.entries(catalog)) {
        const expected = placeholders(textsOf(english[key]!)[0]!).filter((name) => name !== 'count');
        for (const text of textsOf(entry)) {
          assert.ok(text.trim() !== '', `${locale} ${key} is empty`);
          assert.deepEqual(
            placeholders(text).filter((name) => name !== 'count'),
            expected,
            `${locale} ${key}: ${text}`,
          );
        }
      }
    });
  }

  it('chooses Russian plural forms by Intl.PluralRules and writes numbers as each language does', () => {
    asReader({ locale: 'ru', timeZone: 'UTC' }, () => {
      assert.deepEqual(
        [1, 3, 5, 21, 1234].map((count) => tn('members.count', count)),
        ['1 пользователь', '3 пользователя', '5 пользователей', '21 пользователь', '1\u00a0234 пользователя'],
      );
      assert.equal(t('layout.logout', { name: 'Алиса' }), 'Выйти (Алиса)');
    });
    asReader({ locale: 'en', timeZone: 'UTC' }, () => {
      assert.deepEqual(
        [1, 2, 12345].map((count) => tn('members.count', count)),
        ['1 member', '2 members', '12,345 members'],
      );
    });
  });
});
