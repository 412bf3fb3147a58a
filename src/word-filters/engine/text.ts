// The text primitives every matcher shares: what a word character is, how
// text is cut into words, and how case is folded. Offsets everywhere are
// UTF-16 code units, the same as String.prototype.slice, so a match's
// start/end can be used on the original text directly.

/** Letters, marks, digits and connector punctuation (`_`), in any script. */
const WORD_CHAR = /^[\p{L}\p{M}\p{N}\p{Pc}]$/u;

let bmpWordChars: Uint8Array | undefined;

// A table for the Basic Multilingual Plane makes the per-character test a
// lookup; it is built on first use (about 10 ms once per process).
function wordTable(): Uint8Array {
  if (bmpWordChars === undefined) {
    const table = new Uint8Array(0x10000);
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (WORD_CHAR.test(String.fromCharCode(code))) table[code] = 1;
    }
    bmpWordChars = table;
  }
  return bmpWordChars;
}

/** Is the code point a word character? */
function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0x10000) return wordTable()[codePoint] === 1;
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

/** Word positions in a text: word i spans [starts[i], ends[i]). */
export interface Words {
  count: number;
  starts: readonly number[];
  ends: readonly number[];
}

/**
 * Cuts text into maximal runs of word characters. `extra` adds characters
 * that count as word characters too (the wildcards of a wildcard pattern).
 */
export function findWords(text: string, extra = ''): Words {
  const table = wordTable();
  const starts: number[] = [];
  const ends: number[] = [];
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const cp = text.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
      word = isWordCodePoint(cp);
    } else {
      word = table[code] === 1 || (extra !== '' && extra.includes(text[i]!));
    }
    if (word && !inWord) {
      starts.push(i);
      inWord = true;
    } else if (!word && inWord) {
      ends.push(i);
      inWord = false;
    }
    i += width - 1;
  }
  if (inWord) ends.push(text.length);
  return { count: starts.length, starts, ends };
}

let bmpFold: Uint16Array | undefined;

function foldTable(): Uint16Array {
  if (bmpFold === undefined) {
    const table = new Uint16Array(0x10000);
    for (let code = 0; code < 0x10000; code++) {
      const lower = String.fromCharCode(code).toLowerCase();
      table[code] = lower.length === 1 ? lower.charCodeAt(0) : code === 0x130 ? 0x69 : code;
    }
    bmpFold = table;
  }
  return bmpFold;
}

interface OddFolds {
  present: RegExp;
  all: RegExp;
  to: Map<string, string>;
}

let oddFolds: OddFolds | undefined;

/**
 * Lower-case letters that are a variant of another lower-case letter: ſ is
 * s, ς is σ, ϐ is β. Lower-casing leaves them alone; case-insensitive
 * matching (RE2's and ours) must not.
 */
function oddLowerCase(): OddFolds {
  if (oddFolds === undefined) {
    const to = new Map<string, string>();
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (char.toLowerCase() !== char) continue;
      const upper = char.toUpperCase();
      if (upper.length !== 1 || upper === char) continue;
      const canonical = upper.toLowerCase();
      if (canonical.length === 1 && canonical !== char) to.set(char, canonical);
    }
    const members = [...to.keys()].join('');
    oddFolds = { present: new RegExp(`[${members}]`), all: new RegExp(`[${members}]`, 'g'), to };
  }
  return oddFolds;
}

/**
 * Case-folds text without changing its length, so offsets in the folded
 * text are offsets in the original. Every character maps to its simple
 * lower case; the few whose lower case is longer (İ) keep a one-unit form,
 * and variant lower-case letters (ſ, ς, ϐ) map to the usual one.
 */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  const folded = lower.length === text.length ? lower : foldByTable(text);
  const odd = oddLowerCase();
  return odd.present.test(folded) ? folded.replace(odd.all, (char) => odd.to.get(char)!) : folded;
}

function foldByTable(text: string): string {
  const table = foldTable();
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const pair = text.slice(i, i + 2);
      const lowerPair = pair.toLowerCase();
      const folded = lowerPair.length === 2 ? lowerPair : pair;
      units[i] = folded.charCodeAt(0);
      units[i + 1] = folded.charCodeAt(1);
      i++;
      continue;
    }
    units[i] = table[code]!;
  }
  return decodeUtf16(units);
}

// String.fromCharCode keeps lone surrogates as they are (a TextDecoder would not).
function decodeUtf16(units: Uint16Array): string {
  let out = '';
  for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192));
  return out;
}

/** Length in code points ("characters" in the sense of every length limit). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
