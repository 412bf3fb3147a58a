// Devanagari (Hindi, Marathi, Nepali) → ASCII in the Hunterian-style spelling
// Indian sites use (समाचार → samachar, राजधानी → rajdhani). The package
// writes letter by letter (long vowels doubled, च → "c", no inherent vowel:
// "smaacaar"). Here every consonant carries the inherent a unless a vowel sign
// or virama follows, and Hindi schwa deletion drops it at the end of a word and
// in a V C a C V context (Ohala's rule, applied right to left).

const CONSONANTS: Readonly<Record<string, string>> = {
  क: 'k',
  ख: 'kh',
  ग: 'g',
  घ: 'gh',
  ङ: 'n',
  च: 'ch',
  छ: 'chh',
  ज: 'j',
  झ: 'jh',
  ञ: 'n',
  ट: 't',
  ठ: 'th',
  ड: 'd',
  ढ: 'dh',
  ण: 'n',
  त: 't',
  थ: 'th',
  द: 'd',
  ध: 'dh',
  न: 'n',
  ऩ: 'n',
  प: 'p',
  फ: 'ph',
  ब: 'b',
  भ: 'bh',
  म: 'm',
  य: 'y',
  र: 'r',
  ऱ: 'r',
  ल: 'l',
  ळ: 'l',
  ऴ: 'l',
  व: 'v',
  श: 'sh',
  ष: 'sh',
  स: 's',
  ह: 'h',
};

/** Consonants with a nukta (NFKC splits क़ into क + ़). */
const NUKTA_CONSONANTS: Readonly<Record<string, string>> = {
  क: 'q',
  ख: 'kh',
  ग: 'gh',
  ज: 'z',
  ड: 'r',
  ढ: 'rh',
  फ: 'f',
  य: 'y',
};

const INDEPENDENT_VOWELS: Readonly<Record<string, string>> = {
  अ: 'a',
  आ: 'a',
  इ: 'i',
  ई: 'i',
  उ: 'u',
  ऊ: 'u',
  ऋ: 'ri',
  ॠ: 'ri',
  ऌ: 'li',
  ॡ: 'li',
  ऍ: 'e',
  ऎ: 'e',
  ए: 'e',
  ऐ: 'ai',
  ऑ: 'o',
  ऒ: 'o',
  ओ: 'o',
  औ: 'au',
  ॲ: 'e',
};

const VOWEL_SIGNS: Readonly<Record<string, string>> = {
  'ा': 'a',
  'ि': 'i',
  'ी': 'i',
  'ु': 'u',
  'ू': 'u',
  'ृ': 'ri',
  'ॄ': 'ri',
  'ॢ': 'li',
  'ॣ': 'li',
  'ॅ': 'e',
  'ॆ': 'e',
  'े': 'e',
  'ै': 'ai',
  'ॉ': 'o',
  'ॊ': 'o',
  'ो': 'o',
  'ौ': 'au',
};

/** Nasals and visarga close the syllable before them. */
const CODAS: Readonly<Record<string, string>> = { 'ं': 'n', 'ँ': 'n', 'ः': 'h' };

/** A word-final conjunct ending in one of these keeps its inherent a. */
const SOUNDED_CONJUNCT_ENDINGS = new Set(['r', 'y', 'v']);

const VIRAMA = '्';
const NUKTA = '़';
const OM = 'ॐ';
const OTHER_LETTER = /\p{L}/u;
const DEVANAGARI_ZERO = 0x0966;

export const DEVANAGARI_RUN = '[\\u0900-\\u0963\\u0966-\\u097f]+';

interface Syllable {
  consonants: string[];
  /** The written vowel; null for the inherent a. */
  vowel: string | null;
  /** A virama ends the syllable without a vowel. */
  bare: boolean;
  coda: string;
  keepInherent: boolean;
}

/** Splits one word into syllables (digits never reach here: the caller splits words at them). */
function syllables(word: string[]): Syllable[] {
  const result: Syllable[] = [];
  let current: Syllable | null = null;
  for (let i = 0; i < word.length; i++) {
    const ch = word[i]!;
    const consonant = CONSONANTS[ch];
    if (consonant !== undefined) {
      const nukta = word[i + 1] === NUKTA;
      if (nukta) i++;
      const latin = nukta ? (NUKTA_CONSONANTS[ch] ?? consonant) : consonant;
      if (current?.bare && current.vowel === null && current.coda === '') {
        current.consonants.push(latin); // a conjunct: the virama joined this consonant to the last one
        current.bare = false;
      } else {
        current = { consonants: [latin], vowel: null, bare: false, coda: '', keepInherent: false };
        result.push(current);
      }
      continue;
    }
    const sign = VOWEL_SIGNS[ch];
    if (sign !== undefined && current !== null && current.vowel === null) {
      current.vowel = sign;
    } else if (ch === VIRAMA && current !== null) {
      current.bare = true;
    } else if (CODAS[ch] !== undefined && current !== null) {
      current.coda += CODAS[ch];
      current.keepInherent = true; // a nasalized vowel is never dropped
    } else if (INDEPENDENT_VOWELS[ch] !== undefined) {
      current = { consonants: [], vowel: INDEPENDENT_VOWELS[ch], bare: false, coda: '', keepInherent: false };
      result.push(current);
    } else if (ch === OM) {
      current = { consonants: [], vowel: 'om', bare: false, coda: '', keepInherent: false };
      result.push(current);
    } else if (OTHER_LETTER.test(ch)) {
      // A letter this table lacks (Sindhi ॻ, ॲ…) is written as itself for the generic fallback;
      // the extension block's consonants still take vowel signs and the inherent a.
      const consonantLike = ch >= '\u0978' && ch <= '\u097f';
      current = { consonants: [ch], vowel: consonantLike ? null : '', bare: false, coda: '', keepInherent: false };
      result.push(current);
    }
    // Anything else (stray signs) is silent.
  }
  return result;
}

function hasInherent(s: Syllable): boolean {
  return s.consonants.length > 0 && s.vowel === null && !s.bare;
}

/** Ohala's rule: which inherent vowels Hindi drops in speech and in the usual Latin spelling. */
function deleteSchwas(word: Syllable[]): boolean[] {
  const dropped = word.map(() => false);
  const last = word.length - 1;
  // Final a is dropped unless it is the only vowel or follows a conjunct ending
  // in r, y or v, as in the Sanskrit words that keep it (मित्र mitra, सत्य satya;
  // but फ़िल्म film).
  const final = word[last];
  if (
    last > 0 &&
    final !== undefined &&
    hasInherent(final) &&
    !final.keepInherent &&
    (final.consonants.length === 1 || !SOUNDED_CONJUNCT_ENDINGS.has(final.consonants.at(-1)!))
  ) {
    dropped[last] = true;
  }
  const sounds = (k: number) => word[k] !== undefined && !word[k]!.bare && !dropped[k] && (word[k]!.vowel !== null || hasInherent(word[k]!));
  for (let k = last - 1; k > 0; k--) {
    const s = word[k]!;
    const previous = word[k - 1]!;
    const next = word[k + 1]!;
    const vowelBefore = sounds(k - 1) && previous.coda === '';
    const singleConsonantVowelAfter = next.consonants.length === 1 && sounds(k + 1);
    if (hasInherent(s) && !s.keepInherent && s.consonants.length === 1 && vowelBefore && singleConsonantVowelAfter) {
      dropped[k] = true;
    }
  }
  return dropped;
}

function romanizeWord(word: string[]): string {
  const parts = syllables(word);
  const dropped = deleteSchwas(parts);
  let out = '';
  parts.forEach((s, k) => {
    out += s.consonants.join('');
    if (s.vowel !== null) out += s.vowel;
    else if (hasInherent(s) && !dropped[k]) out += 'a';
    out += s.coda;
  });
  return out;
}

/** Romanizes one run of Devanagari (letters and digits; dandas end the run). */
export function romanizeDevanagari(run: string): string {
  let out = '';
  let word: string[] = [];
  for (const ch of run) {
    const cp = ch.codePointAt(0)!;
    if (cp >= DEVANAGARI_ZERO && cp <= DEVANAGARI_ZERO + 9) {
      out += romanizeWord(word) + String(cp - DEVANAGARI_ZERO);
      word = [];
    } else {
      word.push(ch);
    }
  }
  return out + romanizeWord(word);
}
