// Any text → lower-case ASCII that reads like the original, for slugs.
//
// Scripts where the transliteration package is not conventional get their own
// romanizer (./scripts/*); everything else goes character by character through
// the package, and letters the package has no value for through any-ascii.
// docs/urls.md records the measurements behind this split.
import anyAscii from 'any-ascii';
import { transliterate } from 'transliteration';
import { ARABIC_RUN, romanizeArabic } from './scripts/arabic.ts';
import { ARMENIAN_RUN, romanizeArmenian } from './scripts/armenian.ts';
import { CYRILLIC_RUN, isUkrainian, romanizeCyrillic } from './scripts/cyrillic.ts';
import { DEVANAGARI_RUN, romanizeDevanagari } from './scripts/devanagari.ts';
import { GREEK_RUN, romanizeGreek } from './scripts/greek.ts';
import { HANGUL_RUN, romanizeHangul } from './scripts/hangul.ts';
import { HIRAGANA_RUN, KATAKANA_RUN, romanizeKana } from './scripts/kana.ts';

/**
 * Apostrophes vanish instead of splitting a word (don't → dont, İstanbul'da →
 * istanbulda, Oʻzbekiston → ozbekiston); the package also writes some letters
 * as one (Georgian ქ "k`", Hebrew ע "`"), which are dropped the same way.
 */
const APOSTROPHES = /['`´‘’‛′ʹʻʼʽʾʿˈ]/g;

/** Latin letters the package gets wrong or misses (it writes ə as "@"). */
const LATIN_FIXES: Readonly<Record<string, string>> = { ə: 'e', ǝ: 'e', ɛ: 'e', ɔ: 'o', ŋ: 'ng' };

const THAI_RUN = '[\\u0e01-\\u0e4e]+';
const HAN = /\p{Script=Han}/u;
/** any-ascii spells Thai closer to the official RTGS than the package does (ภาษา phasa, not "phaasaa"). */
const THAI = /\p{Script=Thai}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const INVISIBLE = /[\p{M}\p{Cf}]/u;
const ASCII_ALNUM = /[a-z0-9]/;

type Romanizer = (run: string, ukrainian: boolean) => string;

/** Scripts with their own romanizer, tried in this order as alternatives of one expression. */
const SCRIPTS: readonly (readonly [string, Romanizer])[] = [
  [CYRILLIC_RUN, romanizeCyrillic],
  [GREEK_RUN, romanizeGreek],
  [ARMENIAN_RUN, romanizeArmenian],
  [ARABIC_RUN, romanizeArabic],
  [DEVANAGARI_RUN, romanizeDevanagari],
  [HANGUL_RUN, romanizeHangul],
  // Kana runs stand apart from each other and from kanji, the closest a slug
  // gets to Japanese word boundaries without a dictionary.
  [HIRAGANA_RUN, (run) => ` ${romanizeKana(run)} `],
  [KATAKANA_RUN, (run) => ` ${romanizeKana(run)} `],
  [THAI_RUN, (run) => thaiWords(run)],
];

const SCRIPT_RUNS = new RegExp(SCRIPTS.map(([pattern]) => `(${pattern})`).join('|'), 'gu');

/** Thai is written without spaces between words; ICU's dictionary finds them. */
const thaiSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

function thaiWords(run: string): string {
  let out = ' ';
  for (const { segment } of thaiSegmenter.segment(run)) out += `${segment} `;
  return out;
}

/**
 * One character's romanization, computed once per distinct character. Bounded,
 * so titles made of every code point cannot grow it without limit; the common
 * characters of any forum fill it long before that.
 */
const characterCache = new Map<string, string>();
const CHARACTER_CACHE_LIMIT = 50_000;

function romanizeCharacter(ch: string): string {
  let latin = characterCache.get(ch);
  if (latin !== undefined) return latin;
  const letterOrDigit = LETTER_OR_DIGIT.test(ch);
  latin = LATIN_FIXES[ch] ?? (THAI.test(ch) ? anyAscii(ch) : transliterate(ch, { fixChineseSpacing: false }));
  latin = latin.replace(APOSTROPHES, '').toLowerCase();
  if (!ASCII_ALNUM.test(latin) && letterOrDigit) latin = anyAscii(ch).replace(APOSTROPHES, '').toLowerCase();
  if (HAN.test(ch)) {
    latin = ` ${latin} `; // one syllable per character: 日本語 → ri ben yu
  } else if (latin === '' && !letterOrDigit && !INVISIBLE.test(ch)) {
    latin = ' '; // an unknown symbol (an emoji) still separates the words around it
  }
  if (characterCache.size < CHARACTER_CACHE_LIMIT) characterCache.set(ch, latin);
  return latin;
}

/**
 * Lower-case ASCII for a title: letters and digits romanized, everything else
 * left as ASCII punctuation or spaces for the slug rules to turn into hyphens.
 */
export function romanize(text: string): string {
  const lower = text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, '');
  const ukrainian = isUkrainian(lower);
  const scriptsDone = lower.replace(SCRIPT_RUNS, (run: string, ...groups: unknown[]) => {
    const index = groups.findIndex((group) => group !== undefined);
    return SCRIPTS[index]![1](run, ukrainian);
  });
  let out = '';
  for (const ch of scriptsDone) {
    out += ch < '\u0080' ? ch : romanizeCharacter(ch);
  }
  return out;
}
