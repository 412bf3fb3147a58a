// Hangul → ASCII by the Revised Romanization of Korean (the official system,
// used on road signs and most Korean sites). The package writes jamo by jamo
// with its own letters (추천 → "cuceon", 맛집 → "masjib"); RR gives chucheon and
// matjip. Implemented: initial/medial/final values, a final consonant carried
// over to a following syllable that starts with the silent ㅇ (한국어 →
// hangugeo), and ㄹ+ㄹ → ll. Not implemented: the nasal and other sound-change
// assimilations (합니다 is "hapnida", not "hamnida").

const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
const SILENT_INITIAL = 11; // ㅇ
const RIEUL_INITIAL = 5; // ㄹ
const RIEUL_FINAL = 8; // ㄹ

const INITIALS = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];

const MEDIALS = ['a', 'ae', 'ya', 'yae', 'eo', 'e', 'yeo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'eu', 'ui', 'i'];

/** Each final as [before a consonant or at the end, left behind before a vowel, carried to the next syllable]. */
const FINALS: readonly (readonly [string, string, string])[] = [
  ['', '', ''],
  ['k', '', 'g'],
  ['k', '', 'kk'],
  ['k', 'k', 's'],
  ['n', '', 'n'],
  ['n', 'n', 'j'],
  ['n', '', 'n'],
  ['t', '', 'd'],
  ['l', '', 'r'],
  ['k', 'l', 'g'],
  ['m', 'l', 'm'],
  ['l', 'l', 'b'],
  ['l', 'l', 's'],
  ['l', 'l', 't'],
  ['p', 'l', 'p'],
  ['l', '', 'r'],
  ['m', '', 'm'],
  ['p', '', 'b'],
  ['p', 'p', 's'],
  ['t', '', 's'],
  ['t', '', 'ss'],
  ['ng', 'ng', ''],
  ['t', '', 'j'],
  ['t', '', 'ch'],
  ['k', '', 'k'],
  ['t', '', 't'],
  ['p', '', 'p'],
  ['t', '', ''],
];

export const HANGUL_RUN = '[\\uac00-\\ud7a3]+';

interface Jamo {
  initial: number;
  medial: number;
  final: number;
}

function decompose(ch: string): Jamo | null {
  const cp = ch.codePointAt(0)!;
  if (cp < FIRST_SYLLABLE || cp > LAST_SYLLABLE) return null;
  const index = cp - FIRST_SYLLABLE;
  return { initial: Math.floor(index / 588), medial: Math.floor((index % 588) / 28), final: index % 28 };
}

/** Romanizes one run (a word) of Hangul syllables. */
export function romanizeHangul(run: string): string {
  const syllables = [...run].map(decompose).filter((s): s is Jamo => s !== null);
  let out = '';
  syllables.forEach((s, k) => {
    const previous = syllables[k - 1];
    let initial = INITIALS[s.initial]!;
    if (previous !== undefined && s.initial === SILENT_INITIAL) initial = FINALS[previous.final]![2];
    else if (previous?.final === RIEUL_FINAL && s.initial === RIEUL_INITIAL) initial = 'l';
    const next = syllables[k + 1];
    const [closing, leftBeforeVowel] = FINALS[s.final]!;
    out += initial + MEDIALS[s.medial]! + (next?.initial === SILENT_INITIAL ? leftBeforeVowel : closing);
  });
  return out;
}
