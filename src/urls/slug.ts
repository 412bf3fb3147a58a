// The slug of a semantic URL (`/topic/{slug}.{id}/`), by the spec's four rules
// and decisions.md: romanized to ASCII, only a-z, 0-9 and single inner hyphens,
// at most 50 characters cut at a word boundary, empty for an empty title.
import { romanize } from './romanize.ts';

export const SLUG_MAX_LENGTH = 50;

/** A cut inside a word moves back to the last hyphen only if that keeps at least this much. */
const MIN_LENGTH_AFTER_WORD_CUT = SLUG_MAX_LENGTH / 2;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const SEPARATORS = /[^a-z0-9]+/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTERS_OR_DIGITS = /[\p{L}\p{N}]/gu;

/** Every run of characters other than a-z and 0-9 becomes one hyphen, none at the ends. */
function hyphenate(ascii: string): string {
  const slug = ascii.replace(SEPARATORS, '-');
  const start = slug.startsWith('-') ? 1 : 0;
  const end = slug.endsWith('-') ? slug.length - 1 : slug.length;
  return start === 0 && end === slug.length ? slug : slug.slice(start, Math.max(start, end));
}

/**
 * Rule 3: cut at 50; a cut inside a word moves back to the last hyphen when one
 * lies past the middle, otherwise the long word is cut where the limit falls.
 */
function truncate(slug: string): string {
  if (slug.length <= SLUG_MAX_LENGTH) return slug;
  let cut = slug.slice(0, SLUG_MAX_LENGTH);
  const insideWord = slug[SLUG_MAX_LENGTH] !== '-' && !cut.endsWith('-');
  if (insideWord) {
    const hyphen = cut.lastIndexOf('-');
    if (hyphen >= MIN_LENGTH_AFTER_WORD_CUT) cut = cut.slice(0, hyphen);
  }
  return cut.endsWith('-') ? cut.slice(0, -1) : cut;
}

/**
 * The last resort behind "every title with a letter or digit gets a slug": a
 * title made only of characters no romanization knows (rare CJK extensions,
 * cuneiform, a lone modifier letter) is named by its code points.
 */
function codePointSlug(title: string): string {
  const codes = [...title.matchAll(LETTERS_OR_DIGITS)].map(([ch]) => `u${ch.codePointAt(0)!.toString(16)}`);
  return truncate(codes.join('-'));
}

export function slugify(title: string): string {
  const ascii = PRINTABLE_ASCII.test(title) ? title.toLowerCase().replace(ASCII_APOSTROPHES, '') : romanize(title);
  const slug = truncate(hyphenate(ascii));
  return slug === '' && LETTER_OR_DIGIT.test(title) ? codePointSlug(title) : slug;
}
