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
import { findWords, fold, type Words } from './text.ts';
import { isPast } from './clock.ts';

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

/** Characters compared between two reads of the clock (well under a millisecond of work). */
const WORK_PER_CLOCK_READ = 20_000;
const OUT_OF_TIME = new Error('word scan out of time');

/** Wildcard words are found by up to three fixed characters: their start, their end, or a literal piece inside. */
const GRAM = 3;

/**
 * FNV-1a over UTF-16 units, kept to 30 bits so V8 holds it as a small
 * integer: a text word is looked up without cutting a substring out of the
 * text, and the hash of every prefix of a word comes on the way to the hash
 * of the whole word. A collision only costs a check that fails, since every
 * candidate is verified against the text.
 */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const HASH_MASK = 0x3fffffff;

/** Hash of key read forwards (`backwards`: from its last character to its first). */
function hashKey(key: string, backwards = false): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(backwards ? key.length - 1 - i : i), FNV_PRIME);
  return hash & HASH_MASK;
}

/** Patterns by key hash; a 64K-bit filter answers most misses without touching the map. */
class KeyIndex {
  readonly #byHash = new Map<number, WordPattern[]>();
  readonly #filter = new Uint8Array(0x10000);
  readonly #backwards: boolean;
  /** Key lengths in use, and the longest. */
  readonly lengths = new Set<number>();
  longest = 0;

  constructor(backwards = false) {
    this.#backwards = backwards;
  }

  get size(): number {
    return this.#byHash.size;
  }

  add(key: string, entry: WordPattern): void {
    this.lengths.add(key.length);
    this.longest = Math.max(this.longest, key.length);
    const hash = hashKey(key, this.#backwards);
    this.#filter[hash & 0xffff] = 1;
    const list = this.#byHash.get(hash);
    if (list === undefined) this.#byHash.set(hash, [entry]);
    else list.push(entry);
  }

  lookup(hash: number): WordPattern[] | undefined {
    return this.#filter[hash & 0xffff] === 0 ? undefined : this.#byHash.get(hash);
  }
}

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
  readonly #byWord = new KeyIndex();
  readonly #byPrefix = new KeyIndex();
  readonly #bySuffix = new KeyIndex(true);
  /** Infix patterns by their piece's first GRAM characters, then by piece. */
  readonly #byInfix = new Map<string, Map<string, WordPattern[]>>();
  /** One pass over the text for every literal piece of the infix patterns. */
  #infixScanner: RegExp | undefined;
  readonly #symbols: SymbolPattern[] = [];
  #size = 0;
  /** The running scan's deadline, and the glob work done since the clock was last read. */
  #deadline = Infinity;
  #work = 0;

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
    // wildcard word with the longest fixed start or end (one lookup per text
    // word, up to GRAM characters); else a literal piece inside a wildcard
    // word (one lookup per character of each text word).
    let best: { anchor: number; kind: 'word' | 'prefix' | 'suffix' | 'infix'; key: string; score: number } | undefined;
    entry.parts.forEach((part, anchor) => {
      const candidates: Array<{ kind: 'word' | 'prefix' | 'suffix' | 'infix'; key: string; score: number }> = [];
      if (part.kind === 'literal') {
        candidates.push({ kind: 'word', key: part.text, score: 100 + part.text.length });
      } else {
        const { prefix, suffix, infix } = part.glob;
        if (prefix !== '') candidates.push({ kind: 'prefix', key: prefix.slice(0, GRAM), score: Math.min(prefix.length, GRAM) * 3 + 1 });
        if (suffix !== '') candidates.push({ kind: 'suffix', key: suffix.slice(-GRAM), score: Math.min(suffix.length, GRAM) * 3 });
        if (infix !== '') candidates.push({ kind: 'infix', key: infix, score: Math.min(infix.length, GRAM) * 3 - 1 });
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
    switch (best.kind) {
      case 'word':
        this.#byWord.add(best.key, entry);
        break;
      case 'prefix':
        this.#byPrefix.add(best.key, entry);
        break;
      case 'suffix':
        this.#bySuffix.add(best.key, entry);
        break;
      case 'infix': {
        const start = best.key.slice(0, GRAM);
        let pieces = this.#byInfix.get(start);
        if (pieces === undefined) this.#byInfix.set(start, (pieces = new Map()));
        const list = pieces.get(best.key);
        if (list === undefined) pieces.set(best.key, [entry]);
        else list.push(entry);
        this.#infixScanner = undefined;
        break;
      }
    }
  }

  /**
   * Reports every match of every pattern; `original` is the text as
   * written, `words` its words. Returns false when it stopped at `deadline`
   * (performance.now() milliseconds) with matches left unreported: the
   * work per text word is one hash pass, but each wildcard pattern found by
   * a piece costs up to the length of the word to verify, so thousands of
   * them against a giant word are stopped by the clock.
   */
  scan(original: string, words: Words, sink: MatchSink, deadline = Infinity): boolean {
    if (this.#size === 0) return true;
    this.#deadline = deadline;
    this.#work = 0;
    try {
      this.#scan(original, words, sink);
      return true;
    } catch (error) {
      if (error === OUT_OF_TIME) return false;
      throw error;
    } finally {
      this.#deadline = Infinity;
    }
  }

  /** Counts work (characters compared); past WORK_PER_CLOCK_READ, reads the clock and stops the scan at the deadline. */
  #spend(work: number): void {
    this.#work += work;
    if (this.#work < WORK_PER_CLOCK_READ) return;
    this.#work = 0;
    if (isPast(this.#deadline)) throw OUT_OF_TIME;
  }

  #scan(original: string, words: Words, sink: MatchSink): void {
    const view = this.#caseSensitive ? original : fold(original);
    const { starts, ends, count } = words;
    const byWord = this.#byWord;
    const byPrefix = this.#byPrefix;
    const bySuffix = this.#bySuffix;
    const forwardReach = Math.max(byWord.longest, byPrefix.longest);

    for (let w = 0; w < count; w++) {
      const start = starts[w]!;
      const end = ends[w]!;
      const length = end - start;
      // One pass forwards: the hash of each prefix, and of the whole word when short enough to be a key.
      const reach = Math.min(length, forwardReach);
      let hash = FNV_OFFSET;
      for (let k = 1; k <= reach; k++) {
        hash = Math.imul(hash ^ view.charCodeAt(start + k - 1), FNV_PRIME);
        if (byPrefix.lengths.has(k)) this.#verifyAll(byPrefix.lookup(hash & HASH_MASK), view, words, w, sink);
        if (k === length) this.#verifyAll(byWord.lookup(hash & HASH_MASK), view, words, w, sink);
      }
      // And backwards for the suffixes.
      const back = Math.min(length, bySuffix.longest);
      hash = FNV_OFFSET;
      for (let k = 1; k <= back; k++) {
        hash = Math.imul(hash ^ view.charCodeAt(end - k), FNV_PRIME);
        if (bySuffix.lengths.has(k)) this.#verifyAll(bySuffix.lookup(hash & HASH_MASK), view, words, w, sink);
      }
    }

    if (this.#byInfix.size > 0) this.#scanInfixes(view, words, sink);

    for (const symbol of this.#symbols) {
      if (symbol.text === '') continue;
      for (let at = view.indexOf(symbol.text); at >= 0; at = view.indexOf(symbol.text, at + symbol.text.length)) {
        sink(symbol.rule, at, at + symbol.text.length);
      }
    }
  }

  /**
   * One pass finds every place where an infix piece may start: an
   * alternation of distinct literals of at most GRAM characters (nothing
   * nested, so a few steps per position). Each piece starting there is
   * compared in place, and the patterns of a piece checked once per word.
   */
  #scanInfixes(view: string, words: Words, sink: MatchSink): void {
    this.#infixScanner ??= new RegExp([...this.#byInfix.keys()].map(escapeRegExp).join('|'), 'g');
    const scanner = this.#infixScanner;
    // Pieces already handled in the current word: their patterns were verified there.
    const checked = new Set<string>();
    let w = -1;
    scanner.lastIndex = 0;
    let found: RegExpExecArray | null;
    while ((found = scanner.exec(view)) !== null) {
      const at = found.index;
      scanner.lastIndex = at + 1;
      // Pieces are word characters only, so `at` is inside a word; hits come in order.
      if (w < 0 || at >= words.ends[w]!) {
        while (w + 1 < words.count && words.starts[w + 1]! <= at) w++;
        checked.clear();
      }
      const pieces = this.#byInfix.get(found[0])!;
      this.#spend(pieces.size);
      for (const [piece, list] of pieces) {
        if (checked.has(piece) || !view.startsWith(piece, at)) continue;
        checked.add(piece);
        for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
      }
    }
  }

  #verifyAll(list: WordPattern[] | undefined, view: string, words: Words, w: number, sink: MatchSink): void {
    if (list !== undefined) for (const entry of list) this.#verify(entry, view, words, w - entry.anchor, sink);
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
      } else {
        this.#spend(end - start);
        if (!matchGlob(part.glob, view, start, end)) return;
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

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
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
