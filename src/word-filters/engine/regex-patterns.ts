// Regex rules run on RE2 (re2js, a pure-JavaScript port): matching time is
// linear in the text whatever the pattern, so `/^(a+)+$/` cannot stall the
// process. The price is RE2's syntax: no look-around and no back-references.
// (re2js can do captureless look-behind, but a single such rule drops the
// shared automaton to its slow path: 200 of them cost 285 ms per 10 KB.)
// A pattern is "valid" exactly when it compiles here, the engine that
// applies it.
//
// Patterns come bare (`\b\d{3}-\d{4}\b`) or PCRE-style with delimiters and
// flags (`/\b\d{3}-\d{4}\b/i`): i (ignore case), m (^ and $ at line ends),
// s (. matches newline), x (white space and # comments ignored), u (accepted:
// RE2 always matches by code point) and g (accepted: every match is found).
import { RE2JS } from 're2js';

export class RegexProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexProblem';
  }
}

export interface CompiledRegex {
  /** The pattern with its flags written inline, as RE2 takes it. */
  source: string;
  regex: RE2JS;
  /**
   * The same pattern without (?i), to be run on case-folded text. RE2 skips
   * ahead to a literal prefix with indexOf only when case matters, so this
   * finds matches of a case-insensitive rule up to 100 times faster. Only
   * made when the pattern names no upper-case character in any way.
   */
  foldedLocator?: RE2JS;
  /**
   * Literal text every match contains (RE2's own analysis), read from the
   * folded text when `folded`; null when RE2 knows none (`\\d{3}-\\d{4}`).
   * Lets a check skip the rule without running it.
   */
  requirement: Requirement | null;
}

export type Requirement = { literal: string; folded: boolean } | { all: Requirement[] } | { any: Requirement[] };

const KNOWN_FLAGS = new Set(['i', 'm', 's', 'x', 'u', 'g']);
/** RE2 instructions; far above any sensible filter, far below what slows a match. */
const MAX_PROGRAM_SIZE = 20_000;

/** Compiles a rule's pattern or says, in a sentence, why it cannot be used. */
export function compileRegex(pattern: string, caseSensitive: boolean): CompiledRegex {
  const { body, flags } = splitDelimiters(pattern);
  for (const flag of flags) {
    if (!KNOWN_FLAGS.has(flag)) throw new RegexProblem(`The pattern flag "${flag}" is not supported; use i, m, s, u or x.`);
  }
  let translated = toRe2Syntax(flags.includes('x') ? stripExtended(body) : body);
  const inline = [!caseSensitive || flags.includes('i') ? 'i' : '', flags.includes('m') ? 'm' : '', flags.includes('s') ? 's' : ''].join('');
  const body2 = translated;
  if (inline !== '') translated = `(?${inline})${translated}`;

  let regex: RE2JS;
  try {
    regex = RE2JS.compile(translated);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new RegexProblem(`The pattern is not a valid regular expression (RE2 syntax, without look-around or back-references): ${reason}.`);
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE) throw new RegexProblem('The pattern is too complex.');
  if (regex.test('')) throw new RegexProblem('The pattern must not match empty text.');
  const compiled: CompiledRegex = { source: translated, regex, requirement: null };
  if (inline.includes('i') && namesNoUpperCase(body2)) {
    const rest = inline.replace('i', '');
    compiled.foldedLocator = RE2JS.compile(rest === '' ? body2 : `(?${rest})${body2}`);
    compiled.requirement = requirementOf(compiled.foldedLocator.re2Input.prefilter, true);
  } else if (!inline.includes('i')) {
    compiled.requirement = requirementOf(regex.re2Input.prefilter, false);
  }
  return compiled;
}

/** Longest literal used for screening: a prefix of a required literal is required too. */
const MAX_SCREEN_LITERAL = 24;
/** Shorter literals are in nearly every text: requiring them screens nothing out. */
const MIN_SCREEN_LITERAL = 3;

/**
 * RE2 computes, for a pattern minding case, a tree of literals that every
 * match contains (RE2's "prefilter": EXACT, AND, OR). Read defensively: any
 * shape not understood means "no requirement", which only costs speed.
 */
function requirementOf(prefilter: unknown, folded: boolean): Requirement | null {
  const node = prefilter as { type?: unknown; str?: unknown; subs?: unknown } | null | undefined;
  if (node === null || node === undefined || typeof node.type !== 'number') return null;
  const subs = Array.isArray(node.subs) ? node.subs.map((sub: unknown) => requirementOf(sub, folded)) : [];
  switch (node.type) {
    case 1: // EXACT
      return typeof node.str === 'string' && node.str.length >= MIN_SCREEN_LITERAL ? { literal: node.str.slice(0, MAX_SCREEN_LITERAL), folded } : null;
    case 2: {
      // AND: every known part is required; unknown parts just add nothing.
      const known = subs.filter((sub): sub is Requirement => sub !== null);
      return known.length === 0 ? null : known.length === 1 ? known[0]! : { all: known };
    }
    case 3: // OR: one unknown branch and nothing is required.
      return subs.length === 0 || subs.includes(null) ? null : { any: subs as Requirement[] };
    default:
      return null;
  }
}

/**
 * On folded text, where no upper-case letter is left, a pattern ignoring
 * case matches exactly where the same pattern minding case does, provided
 * the pattern itself has no upper-case letter, no escape that spells one
 * (\x{41}) and no class that means one (\p{Lu}, [[:upper:]]). Classes
 * holding both cases of every letter they hold (\p{L}, \p{Cyrillic}) are
 * fine.
 */
function namesNoUpperCase(body: string): boolean {
  const rest = body.replace(/\\[pP](?:\{\^?([A-Za-z_]+)\}|([A-Za-z]))/g, (whole: string, braced?: string, single?: string) =>
    CASE_SPECIFIC_CLASSES.has(braced ?? single ?? '') ? whole : '',
  );
  return rest === rest.toLowerCase() && !/\\x|\[:(?:upper|lower):\]|\(\?[a-z-]*i/.test(rest);
}

const CASE_SPECIFIC_CLASSES = new Set(['Lu', 'Ll', 'Lt', 'LC', 'Lowercase', 'Uppercase']);

/** `/body/flags` → body and flags; anything else is a bare body. */
function splitDelimiters(pattern: string): { body: string; flags: string } {
  const delimited = /^\/([\s\S]*)\/([A-Za-z]*)$/.exec(pattern);
  return delimited === null ? { body: pattern, flags: '' } : { body: delimited[1]!, flags: delimited[2]! };
}

/**
 * JavaScript's `\uXXXX` and `\u{X…}` in RE2's spelling `\x{…}`, and every
 * group made non-capturing: only the whole match is used, and RE2 finds
 * match positions markedly faster without submatches to track.
 */
function toRe2Syntax(body: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\') {
      if (inClass) {
        if (char === ']') inClass = false;
        out += char;
      } else if (char === '[') {
        inClass = true;
        out += char;
        if (body[i + 1] === '^') out += body[++i];
        if (body[i + 1] === ']') out += body[++i];
      } else if (char === '(') {
        if (/^\(\?<?[=!]/.test(body.slice(i, i + 4))) {
          throw new RegexProblem('The pattern uses look-around ((?=, (?!, (?<=, (?<!), which the filter engine (RE2) does not support.');
        }
        const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(body.slice(i + 1));
        if (named !== null) {
          out += '(?:';
          i += named[0].length;
        } else {
          out += body[i + 1] === '?' ? '(' : '(?:';
        }
      } else {
        out += char;
      }
      continue;
    }
    const next = body[i + 1];
    if (next !== undefined && (/[1-9]/.test(next) || (next === 'k' && body[i + 2] === '<'))) {
      throw new RegexProblem('The pattern uses a back-reference, which the filter engine (RE2) does not support.');
    }
    if (next === 'Q') {
      // \Q…\E quotes everything up to \E, parentheses included.
      const end = body.indexOf('\\E', i + 2);
      const stop = end < 0 ? body.length : end + 2;
      out += body.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (next === 'u') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(body.slice(i + 2));
      const plain = /^[0-9A-Fa-f]{4}/.exec(body.slice(i + 2));
      if (braced !== null) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (plain !== null) {
        out += `\\x{${plain[0]}}`;
        i += 1 + plain[0].length;
        continue;
      }
    }
    out += char + (next ?? '');
    i++;
  }
  return out;
}

/** The x flag: drop white space and `#` comments outside character classes. */
function stripExtended(body: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\') {
      const next = body[i + 1] ?? '';
      // An escaped space stays a space.
      out += /\s/.test(next) ? `\\x{${next.charCodeAt(0).toString(16)}}` : char + next;
      i++;
      continue;
    }
    if (inClass) {
      out += char;
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      // A `]` right after `[` or `[^` is a member, not the end.
      if (body[i + 1] === '^') out += body[++i];
      if (body[i + 1] === ']') out += body[++i];
      continue;
    }
    if (/\s/.test(char)) continue;
    if (char === '#') {
      while (i < body.length && body[i] !== '\n') i++;
      continue;
    }
    out += char;
  }
  return out;
}

type Span = [start: number, end: number];

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Every non-empty match of the regex, in order, as [start, end) offsets.
 * `folded` is the text case-folded without changing offsets (text.ts fold).
 */
export function locate(compiled: CompiledRegex, text: string, folded: () => string, sink: (start: number, end: number) => void): void {
  let spans: Span[] | undefined;
  if (compiled.foldedLocator !== undefined) {
    spans = findSpans(compiled.foldedLocator, folded());
    // Folding may differ from RE2's in a few non-ASCII letters (İ): when the
    // fast way finds nothing there, RE2's own yes/no on the text decides.
    if (spans.length === 0 && NON_ASCII.test(text) && compiled.regex.test(text)) spans = findSpans(compiled.regex, text);
  } else {
    spans = findSpans(compiled.regex, text);
  }
  for (const [start, end] of spans) sink(start, end);
}

/** Texts longer than this are searched window by window. */
const WINDOWED_FROM = 16_384;
const WINDOW = 4096;
/** Context read on each side of a window: a match may run this far past it. */
const MARGIN = 512;

/**
 * RE2's full search (the NFA) costs about 50 ns a character, its yes/no
 * answer (the DFA) under 10. On long text the DFA picks the windows that
 * hold a match and the NFA runs on those alone. Each match found starts in
 * its window's core and is read with context on both sides, so it is a
 * match in the whole text too. If a match may run past a window (it
 * touches the edge) or the DFA sees a match between those found, the whole
 * text is searched instead.
 */
function findSpans(regex: RE2JS, text: string): Span[] {
  // Rules come here when they may match (the screen); one DFA pass says whether they do.
  if (!regex.test(text)) return [];
  if (text.length < WINDOWED_FROM) return findAll(regex, text, 0);
  const spans: Span[] = [];
  let lastEnd = 0;
  for (let core = 0; core < text.length; core += WINDOW) {
    const from = Math.max(0, core - MARGIN);
    const to = Math.min(text.length, core + WINDOW + MARGIN);
    const window = text.slice(from, to);
    if (!regex.test(window)) continue;
    for (const [start, end] of findAll(regex, window, from)) {
      if (start < core || start >= core + WINDOW) continue;
      if (end === to && to < text.length) return findAll(regex, text, 0);
      if (start < lastEnd) continue;
      spans.push([start, end]);
      lastEnd = end;
    }
  }
  // A match longer than a window's margin is seen by no window: look between the matches found.
  let gapStart = 0;
  for (const [start, end] of [...spans, [text.length, text.length] as Span]) {
    if (start > gapStart && regex.test(text.slice(Math.max(0, gapStart - 1), Math.min(text.length, start + 1)))) {
      return findAll(regex, text, 0);
    }
    gapStart = end;
  }
  return spans;
}

function findAll(regex: RE2JS, text: string, offset: number): Span[] {
  const matcher = regex.matcher(text);
  const spans: Span[] = [];
  while (matcher.find()) {
    const start = matcher.start();
    const end = matcher.end();
    if (end > start) spans.push([start + offset, end + offset]);
  }
  return spans;
}
