// Exact and wildcard rules, matched word by word. A pattern is cut into the
// words it names and the separators between them; the text is cut into
// words once; then every pattern is found through a hash lookup on one of
// its words (or on a fixed prefix/suffix of a wildcard word, or by searching
// for the longest literal piece of it), and checked in place. No per-rule
// regular expression is involved, so 2,000 rules cost little more than 20.
//
// Word boundaries come for free: text words are maximal runs of word
// characters in any script, and a pattern word must equal a whole text word.
// Separators must match as written, except that any run of white space
// equals any other (`bad  word` matches the rule `bad word`).
import { compileGlob, matchGlob, type Glob } from './glob.ts';
import { findWords, fold, wordAt, type Words } from './text.ts';

type WordPart = { kind: 'literal'; text: string } | { kind: 'glob'; glob: Glob };

interface WordPattern {
  /** Index of the rule in the matcher that owns it. */
  rule: number;
  lead: string;
  parts: WordPart[];
  gaps: string[];
  trail: string;
  /** The part the index finds the pattern by. */
  anchor: number;
}

/** A pattern without any word (`:-(`, `!!!`): found as a plain substring. */
interface SymbolPattern {
  rule: number;
  text: string;
}

export type MatchSink = (rule: number, start: number, end: number) => void;

/** Longest key taken from the start or end of a wildcard word. */
const KEY_LENGTH = 4;

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ');
}

/** Does the pattern name at least one letter or digit (not only wildcards and punctuation)? */
export function containsWord(pattern: string): boolean {
  return findWords(pattern).count > 0;
}

/**
 * All exact and wildcard rules of one case mode (folded or as written).
 * Built once per rule set; `scan` is then linear in the text.
 */
export class WordIndex {
  readonly #caseSensitive: boolean;
  readonly #byWord = new Map<string, WordPattern[]>();
  readonly #byPrefix = new Map<string, WordPattern[]>();
  readonly #bySuffix = new Map<string, WordPattern[]>();
  readonly #byInfix = new Map<string, WordPattern[]>();
  readonly #prefixLengths = new Set<number>();
  readonly #suffixLengths = new Set<number>();
  readonly #symbols: SymbolPattern[] = [];
  #longestWordKey = 0;
  #size = 0;

  constructor(caseSensitive: boolean) {
    this.#caseSensitive = caseSensitive;
  }

  get size(): number {
    return this.#size;
  }

  add(rule: number, pattern: string, wildcard: boolean): void {
    const source = (this.#caseSensitive ? pattern : fold(pattern)).trim();
    const words = findWords(source, wildcard ? '*?' : '');
    this.#size++;
    if (words.count === 0) {
      this.#symbols.push({ rule, text: collapseWhitespace(source) });
      return;
    }
    const parts: WordPart[] = [];
    const gaps: string[] = [];
    for (let i = 0; i < words.count; i++) {
      const text = source.slice(words.starts[i], words.ends[i]);
      parts.push(wildcard && /[*?]/.test(text) ? { kind: 'glob', glob: compileGlob(text) } : { kind: 'literal', text });
      if (i > 0) gaps.push(collapseWhitespace(source.slice(words.ends[i - 1], words.starts[i])));
    }
    const entry: WordPattern = {
      rule,
      lead: collapseWhitespace(source.slice(0, words.starts[0])),
      parts,
      gaps,
      trail: collapseWhitespace(source.slice(words.ends[words.count - 1])),
      anchor: 0,
    };
    this.#index(entry);
  }

  #index(entry: WordPattern): void {
    // Prefer a whole literal word (one hash lookup per text word); else the
    // wildcard word with the longest fixed prefix or suffix; else search for
    // its longest literal piece.
    let best: { anchor: number; kind: 'word' | 'prefix' | 'suffix' | 'infix'; key: string; score: number } | undefined;
    entry.parts.forEach((part, anchor) => {
      const candidates: Array<{ kind: 'word' | 'prefix' | 'suffix' | 'infix'; key: string; score: number }> = [];
      if (part.kind === 'literal') {
        candidates.push({ kind: 'word', key: part.text, score: 1000 + part.text.length });
      } else {
        const { prefix, suffix, infix } = part.glob;
        if (prefix !== '') candidates.push({ kind: 'prefix', key: prefix.slice(0, KEY_LENGTH), score: Math.min(prefix.length, KEY_LENGTH) * 2 + 1 });
        if (suffix !== '') candidates.push({ kind: 'suffix', key: suffix.slice(-KEY_LENGTH), score: Math.min(suffix.length, KEY_LENGTH) * 2 });
        if (infix !== '') candidates.push({ kind: 'infix', key: infix, score: infix.length * 2 - 3 });
      }
      for (const candidate of candidates) {
        if (best === undefined || candidate.score > best.score) best = { anchor, ...candidate };
      }
    });
    if (best === undefined) {
      // Only wildcards: rejected when the rule is saved; nothing to find it by here.
      return;
    }
    entry.anchor = best.anchor;
    const add = (map: Map<string, WordPattern[]>, key: string): void => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [entry]);
      else list.push(entry);
    };
    switch (best.kind) {
      case 'word':
        add(this.#byWord, best.key);
        this.#longestWordKey = Math.max(this.#longestWordKey, best.key.length);
        break;
      case 'prefix':
        add(this.#byPrefix, best.key);
        this.#prefixLengths.add(best.key.length);
        break;
      case 'suffix':
        add(this.#bySuffix, best.key);
        this.#suffixLengths.add(best.key.length);
        break;
      case 'infix':
        add(this.#byInfix, best.key);
        break;
    }
  }

  /** Reports every match of every pattern; `original` is the text as written, `words` its words. */
  scan(original: string, words: Words, sink: MatchSink): void {
    if (this.#size === 0) return;
    const view = this.#caseSensitive ? original : fold(original);
    const { starts, ends, count } = words;
    const prefixLengths = [...this.#prefixLengths];
    const suffixLengths = [...this.#suffixLengths];
    const hasWords = this.#byWord.size > 0;

    for (let w = 0; w < count; w++) {
      const start = starts[w]!;
      const end = ends[w]!;
      const length = end - start;
      if (hasWords && length <= this.#longestWordKey) {
        const list = this.#byWord.get(view.slice(start, end));
        if (list !== undefined) for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
      }
      for (const keyLength of prefixLengths) {
        if (length < keyLength) continue;
        const list = this.#byPrefix.get(view.slice(start, start + keyLength));
        if (list !== undefined) for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
      }
      for (const keyLength of suffixLengths) {
        if (length < keyLength) continue;
        const list = this.#bySuffix.get(view.slice(end - keyLength, end));
        if (list !== undefined) for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
      }
    }

    for (const [piece, list] of this.#byInfix) {
      let lastWord = -1;
      for (let at = view.indexOf(piece); at >= 0; at = view.indexOf(piece, at + 1)) {
        const w = wordAt(words, at);
        if (w < 0 || w === lastWord) continue;
        lastWord = w;
        for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
        // Later hits in the same word add nothing: jump past it.
        at = ends[w]! - 1;
      }
    }

    for (const symbol of this.#symbols) {
      if (symbol.text === '') continue;
      for (let at = view.indexOf(symbol.text); at >= 0; at = view.indexOf(symbol.text, at + symbol.text.length)) {
        sink(symbol.rule, at, at + symbol.text.length);
      }
    }
  }

  #verify(entry: WordPattern, view: string, words: Words, first: number, sink: MatchSink): void {
    const { starts, ends, count } = words;
    const last = first + entry.parts.length - 1;
    if (first < 0 || last >= count) return;
    for (let i = 0; i < entry.parts.length; i++) {
      const w = first + i;
      const part = entry.parts[i]!;
      const start = starts[w]!;
      const end = ends[w]!;
      if (part.kind === 'literal') {
        if (end - start !== part.text.length || !view.startsWith(part.text, start)) return;
      } else if (!matchGlob(part.glob, view, start, end)) {
        return;
      }
      if (i > 0 && !gapEquals(view, ends[w - 1]!, start, entry.gaps[i - 1]!)) return;
    }
    let start = starts[first]!;
    if (entry.lead !== '') {
      start = leadStart(view, first > 0 ? ends[first - 1]! : 0, start, entry.lead);
      if (start < 0) return;
    }
    let end = ends[last]!;
    if (entry.trail !== '') {
      end = trailEnd(view, end, last + 1 < count ? starts[last + 1]! : view.length, entry.trail);
      if (end < 0) return;
    }
    sink(entry.rule, start, end);
  }
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/u.test(String.fromCharCode(code)));
}

/** Is text[from, to) exactly `separator`, white-space runs being equal? */
function gapEquals(text: string, from: number, to: number, separator: string): boolean {
  let i = from;
  for (let j = 0; j < separator.length; j++) {
    if (separator.charCodeAt(j) === 32) {
      if (i >= to || !isSpace(text.charCodeAt(i))) return false;
      while (i < to && isSpace(text.charCodeAt(i))) i++;
    } else {
      if (i >= to || text.charCodeAt(i) !== separator.charCodeAt(j)) return false;
      i++;
    }
  }
  return i === to;
}

/** Where `lead` starts when it ends text[from, to) at `to`; -1 when it does not. */
function leadStart(text: string, from: number, to: number, lead: string): number {
  let i = to;
  for (let j = lead.length - 1; j >= 0; j--) {
    if (lead.charCodeAt(j) === 32) {
      if (i <= from || !isSpace(text.charCodeAt(i - 1))) return -1;
      while (i > from && isSpace(text.charCodeAt(i - 1))) i--;
    } else {
      if (i <= from || text.charCodeAt(i - 1) !== lead.charCodeAt(j)) return -1;
      i--;
    }
  }
  return i;
}

/** Where `trail` ends when it starts text[from, to) at `from`; -1 when it does not. */
function trailEnd(text: string, from: number, to: number, trail: string): number {
  let i = from;
  for (let j = 0; j < trail.length; j++) {
    if (trail.charCodeAt(j) === 32) {
      if (i >= to || !isSpace(text.charCodeAt(i))) return -1;
      while (i < to && isSpace(text.charCodeAt(i))) i++;
    } else {
      if (i >= to || text.charCodeAt(i) !== trail.charCodeAt(j)) return -1;
      i++;
    }
  }
  return i;
}
