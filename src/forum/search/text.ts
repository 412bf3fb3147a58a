// What the search index holds of a text, and what a query's words become:
// one tokenizer for both databases, so that SQLite (FTS5) and PostgreSQL
// (tsvector) index and match the same terms (docs/search.md).
//
// A term is a run of letters and digits, lower-cased, with diacritics removed
// from every script but Cyrillic (café = cafe; й stays й, ё becomes е as Russian
// readers expect). Chinese and Japanese are written without spaces, so each
// Han, Hiragana or Katakana character is a term of its own and a query's run of
// them is matched as a phrase: 東京 finds 東京タワー.
//
// A word is found by its other forms too: English and Russian words are reduced
// to their stems (releases → releas, кириллицы → кириллиц) by Snowball's
// algorithms, the ones PostgreSQL's english and russian configurations use
// (porter2 for English, @orama/stemmers for Russian), and the index holds the
// stem besides the word as written, so that a prefix (`generat*`) still finds
// the words it starts (generation, whose stem is gener).
import { stem as englishStem } from 'porter2';
import { stemmer as russianStem } from '@orama/stemmers/russian';

/** A word and where it came from in the text (UTF-16 offsets), for snippets. */
export interface Token {
  /** The word's stem: what words and phrases are matched by. */
  term: string;
  /** The word as the index holds it unstemmed: what prefixes are matched against. */
  word: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/gu;
// eslint-disable-next-line no-control-regex -- the ASCII range, for the fast path
const ASCII = /^[\x00-\x7f]*$/;
const NOT_CYRILLIC_THEN_MARKS = /([^\p{Script=Cyrillic}])\p{M}+/gu;

/** Terms longer than this are not words anyone searches for (hashes, base64): they are cut. */
export const MAX_TERM_LENGTH = 64;

/** One word as the index holds it. */
export function normalizeTerm(word: string): string {
  const lower = word.toLowerCase();
  if (ASCII.test(lower)) return lower.slice(0, MAX_TERM_LENGTH);
  const folded = lower.normalize('NFD').replace(NOT_CYRILLIC_THEN_MARKS, '$1').normalize('NFC').replace(/ё/g, 'е');
  // Marks left at the start of a run (no base letter) carry no meaning of their own.
  return folded.replace(/^\p{M}+/u, '').slice(0, MAX_TERM_LENGTH);
}

/** The terms of a text, in order, with their offsets. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const word = match[0];
    if (!CJK.test(word)) {
      pushTerm(tokens, word, match.index);
      continue;
    }
    // Split the run at each CJK character; the letters between them stay words.
    let at = 0;
    CJK_CHAR.lastIndex = 0;
    for (let cjk = CJK_CHAR.exec(word); cjk !== null; cjk = CJK_CHAR.exec(word)) {
      if (cjk.index > at) pushTerm(tokens, word.slice(at, cjk.index), match.index + at);
      pushTerm(tokens, cjk[0], match.index + cjk.index);
      at = cjk.index + cjk[0].length;
    }
    if (at < word.length) pushTerm(tokens, word.slice(at), match.index + at);
  }
  return tokens;
}

function pushTerm(tokens: Token[], written: string, start: number): void {
  const word = normalizeTerm(written);
  if (word !== '') tokens.push({ term: stem(word), word, start, end: start + written.length });
}

const ENGLISH = /^[a-z]+$/;
const RUSSIAN = /^[а-яй]+$/;
/** Stems already made: a forum's words are few and repeat (Zipf), and a stem costs about a microsecond. */
const stems = new Map<string, string>();
const MAX_STEMS = 100_000;

/** A normalized word's stem: English and Russian words are stemmed, other words (and numbers) are their own stem. */
export function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed !== undefined) return stemmed;
  stemmed = ENGLISH.test(word) ? englishStem(word) : RUSSIAN.test(word) ? russianStem(word) : word;
  // A stem never comes out empty or longer than its word; should a stemmer do either, the word stays whole.
  if (stemmed === '' || stemmed.length > word.length) stemmed = word;
  if (stems.size >= MAX_STEMS) stems.clear();
  stems.set(word, stemmed);
  return stemmed;
}

/**
 * The terms the index holds for a run of words: their stems, then each word that differs from its stem (prefixes
 * are matched against the words as written).
 */
export function indexedTerms(tokens: readonly Token[]): { stems: string[]; words: string[] } {
  const words: string[] = [];
  for (const token of tokens) if (token.word !== token.term) words.push(token.word);
  return { stems: tokens.map((token) => token.term), words };
}

// Phrases are found through word pairs ("grams") the index holds besides the words: the phrase "open port" is the one
// term `_open_port`, "open the port" the pairs `_open_the` and `_the_port` next to each other. Without them a phrase of
// two common words reads the positions of both in every post that has them, which on a million posts is hundreds of
// milliseconds (bench/RESULTS.md); a pair is about as rare as the rarer of its words, or rarer. A pair starts with
// the mark, which no term holds, so that a word's prefix (`open*`) never reaches the pairs.
const GRAM_MARK = '_';

/** The term the index holds for two terms next to each other. */
export function gram(first: string, second: string): string {
  return `${GRAM_MARK}${first}${GRAM_MARK}${second}`;
}

/** The pairs of a run of terms, in order: one fewer than the terms. */
export function grams(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 1; i < terms.length; i++) pairs.push(gram(terms[i - 1]!, terms[i]!));
  return pairs;
}

// On PostgreSQL a word's first three and four letters are terms too (`^rou`, `^rout`), as SQLite's FTS5 keeps its own
// prefix index: GIN matches `rout:*` by gathering the list of every word it covers in full before anything else (12 ms
// for a prefix of a common word on a million posts), while `^rout` is one list it can skip through (under a
// millisecond). The mark keeps them apart from words and pairs.
const PREFIX_MARK = '^';
/** The prefix lengths the index holds as terms, shortest first; a longer prefix is matched through the longest. */
export const PREFIX_LENGTHS = [3, 4] as const;
const SURROGATE = /[\uD800-\uDFFF]/;

/** The term for a word's first letters (PREFIX_LENGTHS long). */
export function prefixTerm(prefix: string): string {
  return `${PREFIX_MARK}${prefix}`;
}

/** A term's first `length` letters (code points: a prefix never splits a character), or null when it is shorter. */
export function leadingLetters(term: string, length: number): string | null {
  if (!SURROGATE.test(term)) return term.length >= length ? term.slice(0, length) : null;
  const letters = Array.from(term);
  return letters.length >= length ? letters.slice(0, length).join('') : null;
}

/** The prefix terms of these words, each once. */
export function prefixTerms(terms: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const term of terms) {
    for (const length of PREFIX_LENGTHS) {
      const prefix = leadingLetters(term, length);
      if (prefix !== null) prefixes.add(prefixTerm(prefix));
    }
  }
  return [...prefixes];
}
