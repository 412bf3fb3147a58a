// Arabic script (Arabic, Persian, Urdu) → ASCII in the simplified ALA-LC style
// news sites use: kh, sh, th, dh, gh digraphs, alef → a, ta marbuta → a, the
// article ال at the start of a word → "al-", ʿayn and hamza dropped. The package
// instead writes Buckwalter-like case-significant letters (ح "H", غ "G",
// ة "@") and drops alef. Short vowels are rarely written, so و and ي read as
// the long vowels u and i between consonants and as w and y elsewhere.

const CONSONANTS: Readonly<Record<string, string>> = {
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'j',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'dh',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  // ʿayn and hamza are consonants (they decide how a neighbouring و/ي reads) but are not written.
  ع: '',
  ء: '',
  // Persian and Urdu
  پ: 'p',
  چ: 'ch',
  ژ: 'zh',
  ک: 'k',
  گ: 'g',
  ٹ: 't',
  ڈ: 'd',
  ڑ: 'r',
  ں: 'n',
  ھ: 'h',
  ہ: 'h',
};

const VOWEL_LETTERS: Readonly<Record<string, string>> = {
  ا: 'a',
  آ: 'a',
  أ: 'a',
  إ: 'i',
  ٱ: 'a',
  ى: 'a',
  ة: 'a',
  ۃ: 'a',
  ے: 'e',
  ۓ: 'e',
};

/** Written short vowels (harakat) when a title carries them. */
const MARKS: Readonly<Record<string, string>> = { '\u064e': 'a', '\u064f': 'u', '\u0650': 'i', '\u0670': 'a' };

/** Marks that disappear: tatweel, tanwin, sukun, maddah, hamza above/below. */
const SILENT = new Set(['ـ', '\u064b', '\u064c', '\u064d', '\u0652', '\u0653', '\u0654', '\u0655']);

/** Shadda doubles the consonant it sits on (مُحَمَّد → muhammad). */
const SHADDA = '\u0651';

const SEMIVOWELS: Readonly<Record<string, { vowel: string; glide: string }>> = {
  و: { vowel: 'u', glide: 'w' },
  ؤ: { vowel: 'u', glide: 'w' },
  ي: { vowel: 'i', glide: 'y' },
  ی: { vowel: 'i', glide: 'y' },
  ئ: { vowel: 'i', glide: 'y' },
};

const ARABIC_INDIC_ZERO = 0x0660;
const PERSIAN_ZERO = 0x06f0;

export const ARABIC_RUN = '[\\u0620-\\u065f\\u0660-\\u0669\\u066e-\\u06d3\\u06d5\\u06e5\\u06e6\\u06ee-\\u06ff\\u0750-\\u077f]+';

function isConsonant(ch: string | undefined): boolean {
  return ch !== undefined && CONSONANTS[ch] !== undefined;
}

function digit(ch: string): string | undefined {
  const cp = ch.codePointAt(0)!;
  if (cp >= ARABIC_INDIC_ZERO && cp <= ARABIC_INDIC_ZERO + 9) return String(cp - ARABIC_INDIC_ZERO);
  if (cp >= PERSIAN_ZERO && cp <= PERSIAN_ZERO + 9) return String(cp - PERSIAN_ZERO);
  return undefined;
}

/** Romanizes one run (a word) of Arabic-script letters. */
export function romanizeArabic(run: string): string {
  // Silent marks are skipped first, so a shadda between two letters does not hide them from each other.
  const chars = [...run].filter((ch) => !SILENT.has(ch));
  let out = '';
  let start = 0;
  if (chars[0] === 'ا' && chars[1] === 'ل' && chars.length > 2) {
    out = 'al-';
    start = 2;
  }
  let consonantEnd = -1; // where the latest consonant's letters end in out, for a shadda
  let consonant = '';
  for (let i = start; i < chars.length; i++) {
    const ch = chars[i]!;
    const semivowel = SEMIVOWELS[ch];
    if (ch === SHADDA) {
      if (consonant === '') continue;
      // The shadda may follow the consonant's vowel mark (canonical order puts fatha first).
      out = out.slice(0, consonantEnd) + consonant + out.slice(consonantEnd);
      consonantEnd += consonant.length;
    } else if (semivowel !== undefined) {
      const betweenConsonants = i > 0 && isConsonant(chars[i - 1]) && (i + 1 === chars.length || isConsonant(chars[i + 1]));
      out += betweenConsonants ? semivowel.vowel : semivowel.glide;
      if (!betweenConsonants) [consonant, consonantEnd] = [semivowel.glide, out.length];
    } else if (CONSONANTS[ch] !== undefined) {
      out += CONSONANTS[ch];
      [consonant, consonantEnd] = [CONSONANTS[ch], out.length];
    } else {
      out += VOWEL_LETTERS[ch] ?? MARKS[ch] ?? digit(ch) ?? ch;
    }
  }
  return out;
}
