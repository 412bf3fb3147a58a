// Cyrillic → ASCII. The transliteration package writes ц as "c" and х as "h"
// and reads Ukrainian with Russian values (Київ → "kiyiv"), so both tables are
// ours. Russian follows the common passport/BGN-style slug spelling (я ya,
// ю yu, щ shch, й y, ъ/ь dropped); Ukrainian follows the official 2010 table
// (Київ → kyiv, г → h, и → y, є/ї/й/ю/я written ye/yi/y/yu/ya at the start of a
// word and ie/i/i/iu/ia inside it). Input is lower case.

const COMMON: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  д: 'd',
  е: 'e',
  ж: 'zh',
  з: 'z',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ь: '',
  ы: 'y',
  э: 'e',
  ё: 'yo',
  // Belarusian, Serbian, Macedonian and Kazakh letters, so that a title in those
  // languages reads as their usual Latin spelling rather than falling through.
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  ә: 'a',
  ғ: 'gh',
  қ: 'q',
  ң: 'ng',
  ө: 'o',
  ұ: 'u',
  ү: 'u',
  һ: 'h',
};

const RUSSIAN: Readonly<Record<string, string>> = {
  ...COMMON,
  г: 'g',
  и: 'i',
  й: 'y',
  ю: 'yu',
  я: 'ya',
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
};

const UKRAINIAN: Readonly<Record<string, string>> = {
  ...COMMON,
  г: 'h',
  ґ: 'g',
  и: 'y',
  і: 'i',
  й: 'i',
  ї: 'i',
  є: 'ie',
  ю: 'iu',
  я: 'ia',
};

/** Ukrainian letters written differently at the start of a word. */
const UKRAINIAN_WORD_START: Readonly<Record<string, string>> = { є: 'ye', ї: 'yi', й: 'y', ю: 'yu', я: 'ya' };

/** Letters only Ukrainian (and Belarusian, read the same way here) use. */
const UKRAINIAN_MARKERS = /[іїєґ]/;

/** Whether a (lower-case) title reads as Ukrainian: decided once per title, since a title has one language. */
export function isUkrainian(text: string): boolean {
  return UKRAINIAN_MARKERS.test(text);
}

export const CYRILLIC_RUN = '[\\u0400-\\u052f]+';

/** Romanizes one run of Cyrillic letters; letters without a table entry are left for the generic fallback. */
export function romanizeCyrillic(run: string, ukrainian: boolean): string {
  const table = ukrainian ? UKRAINIAN : RUSSIAN;
  let out = '';
  let previous = '';
  for (const ch of run) {
    // A run is a whole word: it stops at any non-Cyrillic character.
    let latin = ukrainian && previous === '' ? (UKRAINIAN_WORD_START[ch] ?? table[ch]) : table[ch];
    // "зг" is written "zgh" so it does not read as "ж" (zh).
    if (ukrainian && ch === 'г' && previous === 'з') latin = 'gh';
    out += latin ?? ch;
    previous = ch;
  }
  return out;
}
