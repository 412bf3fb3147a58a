// Hiragana and katakana → ASCII by modified Hepburn without macrons (the
// spelling of passports, stations and most Japanese slugs). The package maps
// kana one by one, so ちょっと comes out as "tiyotuto" and ジャ as "zia"; here
// contracted sounds (ちょ cho, じゃ ja), the small っ (doubling: ちょっと →
// chotto, まっちゃ → matcha) and katakana loan-word spellings (ファ fa, ティ ti,
// ウィ wi, ヴァ va) are read as such. The long-vowel mark ー is dropped
// (ラーメン → ramen, コーヒー → kohi), as are macrons in Hepburn; vowel pairs
// written out in kana stay (とうきょう → toukyou).

const KANA: Readonly<Record<string, string>> = {
  あ: 'a',
  い: 'i',
  う: 'u',
  え: 'e',
  お: 'o',
  か: 'ka',
  き: 'ki',
  く: 'ku',
  け: 'ke',
  こ: 'ko',
  が: 'ga',
  ぎ: 'gi',
  ぐ: 'gu',
  げ: 'ge',
  ご: 'go',
  さ: 'sa',
  し: 'shi',
  す: 'su',
  せ: 'se',
  そ: 'so',
  ざ: 'za',
  じ: 'ji',
  ず: 'zu',
  ぜ: 'ze',
  ぞ: 'zo',
  た: 'ta',
  ち: 'chi',
  つ: 'tsu',
  て: 'te',
  と: 'to',
  だ: 'da',
  ぢ: 'ji',
  づ: 'zu',
  で: 'de',
  ど: 'do',
  な: 'na',
  に: 'ni',
  ぬ: 'nu',
  ね: 'ne',
  の: 'no',
  は: 'ha',
  ひ: 'hi',
  ふ: 'fu',
  へ: 'he',
  ほ: 'ho',
  ば: 'ba',
  び: 'bi',
  ぶ: 'bu',
  べ: 'be',
  ぼ: 'bo',
  ぱ: 'pa',
  ぴ: 'pi',
  ぷ: 'pu',
  ぺ: 'pe',
  ぽ: 'po',
  ま: 'ma',
  み: 'mi',
  む: 'mu',
  め: 'me',
  も: 'mo',
  や: 'ya',
  ゆ: 'yu',
  よ: 'yo',
  ら: 'ra',
  り: 'ri',
  る: 'ru',
  れ: 're',
  ろ: 'ro',
  わ: 'wa',
  ゐ: 'i',
  ゑ: 'e',
  を: 'o',
  ん: 'n',
  ゔ: 'vu',
  ゕ: 'ka',
  ゖ: 'ke',
  ゎ: 'wa',
  // Katakana without a hiragana twin.
  ヷ: 'va',
  ヸ: 'vi',
  ヹ: 've',
  ヺ: 'vo',
};

/** Small ゃゅょ after an i-row kana make one sound: きゃ kya, しゃ sha. */
const SMALL_Y: Readonly<Record<string, string>> = { ゃ: 'a', ゅ: 'u', ょ: 'o' };
/** Small vowels after a kana replace its vowel in loan words: ファ fa, ティ ti, シェ she. */
const SMALL_VOWELS: Readonly<Record<string, string>> = { ぁ: 'a', ぃ: 'i', ぅ: 'u', ぇ: 'e', ぉ: 'o' };

const SOKUON = 'っ';
const LONG_VOWEL = 'ー';
const ITERATION = new Set(['ゝ', 'ゞ']);

const KATAKANA_OFFSET = 0x60;
const FIRST_KATAKANA = 0x30a1; // ァ
const LAST_KATAKANA_WITH_HIRAGANA = 0x30f6; // ヶ

export const HIRAGANA_RUN = '[\\u3041-\\u3096\\u309d\\u309e\\u30fc]+';
export const KATAKANA_RUN = '[\\u30a1-\\u30fa\\u30fc-\\u30fe]+';

function toHiragana(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp >= FIRST_KATAKANA && cp <= LAST_KATAKANA_WITH_HIRAGANA) return String.fromCodePoint(cp - KATAKANA_OFFSET);
  if (ch === 'ヽ') return 'ゝ';
  if (ch === 'ヾ') return 'ゞ';
  return ch;
}

/** Applies a small kana to the syllable before it. */
function contract(syllable: string, small: string, yRow: boolean): string {
  const contracted = /^(sh|ch|j)i$/.test(syllable); // しゃ sha, ちゃ cha, じゃ ja, シェ she, チェ che
  if (contracted) return syllable.slice(0, -1) + small;
  if (yRow) return `${syllable.endsWith('i') && syllable.length > 1 ? syllable.slice(0, -1) : syllable}y${small}`; // きゃ kya
  if (syllable === 'u') return `w${small}`; // ウィ wi
  if (syllable === 'i') return `y${small}`; // イェ ye
  if (/^[kg]u$/.test(syllable)) return `${syllable[0]}w${small}`; // クァ kwa
  if (/^[td][eo]$/.test(syllable)) return syllable[0] + small; // ティ ti, ドゥ du
  if (/[aeiou]$/.test(syllable) && syllable.length > 1) return syllable.slice(0, -1) + small; // ファ fa, ツァ tsa, ヴァ va
  return syllable + small;
}

interface Syllable {
  text: string;
  /** After a small っ: the first consonant is doubled (ch as tch). */
  geminate: boolean;
}

function spell({ text, geminate }: Syllable): string {
  if (!geminate || !/^[b-df-hj-mp-tv-z]/.test(text)) return text;
  return (text.startsWith('ch') ? 't' : text[0]) + text;
}

/** Romanizes one run of hiragana or katakana (a run never mixes the two). */
export function romanizeKana(run: string): string {
  const syllables: Syllable[] = [];
  let geminate = false;
  for (const original of run) {
    const ch = toHiragana(original);
    const last = syllables.at(-1);
    if (ch === SOKUON) {
      geminate = true;
    } else if (ch === LONG_VOWEL) {
      // ー lengthens the vowel before it, which Hepburn without macrons does not write.
    } else if (ITERATION.has(ch)) {
      if (last !== undefined) syllables.push({ text: last.text, geminate: false });
    } else if (SMALL_Y[ch] !== undefined && last !== undefined) {
      last.text = contract(last.text, SMALL_Y[ch], true);
    } else if (SMALL_VOWELS[ch] !== undefined && last !== undefined) {
      last.text = contract(last.text, SMALL_VOWELS[ch], false);
    } else {
      syllables.push({ text: KANA[ch] ?? SMALL_Y[ch] ?? SMALL_VOWELS[ch] ?? original, geminate });
      geminate = false;
    }
  }
  return syllables.map(spell).join('');
}
