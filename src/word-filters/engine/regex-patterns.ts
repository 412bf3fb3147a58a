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
import { asReader } from '../../i18n/context.ts';
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE } from '../../i18n/locale.ts';
import { t, tn } from '../../i18n/messages.ts';
import { isPast } from './clock.ts';

/** Text made as the message says it (`t(...)`), so it can be said again in another reader's language. */
type Sentence = () => string;

const ENGLISH = { locale: DEFAULT_LOCALE, timeZone: DEFAULT_TIME_ZONE };

/**
 * Why a pattern cannot be used. A rule book compiles its rules during whatever
 * request first needs them and reports a stored rule that no longer compiles to
 * the log: `message` is therefore English whoever the request's reader is, and
 * `say()` gives the sentence in the current reader's language for a page.
 */
export class RegexProblem extends Error {
  readonly say: Sentence;

  constructor(say: Sentence) {
    super(asReader(ENGLISH, say));
    this.name = 'RegexProblem';
    this.say = say;
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
  /** RE2 instructions: what one character costs the automata, at most. */
  size: number;
}

export type Requirement = { literal: string; folded: boolean } | { all: Requirement[] } | { any: Requirement[] };

const KNOWN_FLAGS = new Set(['i', 'm', 's', 'x', 'u', 'g']);
/**
 * The cost limits of one rule (docs/word-filters.md, "Cost limits"). RE2's
 * automata step every live instruction of the program for each character,
 * so the program size bounds the work per character: 300 instructions
 * leave room for any 255-character word list, and a counted repetition is
 * written out in full by RE2 (`\w{1,100}` is 200 instructions). Counts above
 * 100 and counts inside counts (`(?:a{1,10}){1,10}`, which multiply) are
 * refused outright, with a sentence that says so.
 */
export const MAX_PROGRAM_SIZE = 300;
export const MAX_REPEAT = 100;

/** Compiles a rule's pattern or says, in a sentence, why it cannot be used. */
export function compileRegex(pattern: string, caseSensitive: boolean): CompiledRegex {
  const { body, flags } = splitDelimiters(pattern);
  for (const flag of flags) {
    if (!KNOWN_FLAGS.has(flag)) throw new RegexProblem(() => t('word_filter.regex_flag', { flag }));
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
    throw new RegexProblem(() => t('word_filter.regex_invalid', { reason }));
  }
  const repetition = repetitionProblem(translated);
  if (repetition !== null) throw new RegexProblem(repetition);
  if (regex.programSize() > MAX_PROGRAM_SIZE) {
    const size = regex.programSize();
    // Numbers as strings: the API's English writes them without separators.
    throw new RegexProblem(() => tn('word_filter.regex_costly', size, { size: String(size), limit: String(MAX_PROGRAM_SIZE) }));
  }
  limitAutomatonMemory(regex);
  if (regex.test('')) throw new RegexProblem(() => t('word_filter.regex_empty'));
  const compiled: CompiledRegex = { source: translated, regex, requirement: null, size: regex.programSize() };
  if (inline.includes('i') && namesNoUpperCase(body2)) {
    const rest = inline.replace('i', '');
    compiled.foldedLocator = RE2JS.compile(rest === '' ? body2 : `(?${rest})${body2}`);
    limitAutomatonMemory(compiled.foldedLocator);
    compiled.requirement = requirementOf(compiled.foldedLocator.re2Input.prefilter, true);
  } else if (!inline.includes('i')) {
    compiled.requirement = requirementOf(regex.re2Input.prefilter, false);
  }
  return compiled;
}

/**
 * Counted repetitions within the limits: no count above MAX_REPEAT, and no
 * counted repetition inside another (their sizes multiply). Reads the
 * pattern as RE2 will (after delimiters, flags and x were dealt with), so
 * escapes, classes and \Q…\E are skipped; RE2 has already parsed it.
 */
function repetitionProblem(source: string): Sentence | null {
  // Per open group: does it hold a counted repetition?
  const groups: boolean[] = [false];
  // Did the atom just read hold one (a group that did)?
  let lastHeldCount = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      const next = source[i + 1];
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        i = end < 0 ? source.length : end + 1;
      } else if ((next === 'p' || next === 'P' || next === 'x') && source[i + 2] === '{') {
        const end = source.indexOf('}', i + 2);
        i = end < 0 ? source.length : end;
      } else {
        i++;
      }
      lastHeldCount = false;
    } else if (char === '[') {
      i = classEnd(source, i);
      lastHeldCount = false;
    } else if (char === '(') {
      groups.push(false);
      lastHeldCount = false;
    } else if (char === ')') {
      lastHeldCount = groups.pop() ?? false;
      if (lastHeldCount) groups[groups.length - 1] = true;
    } else if (char === '{') {
      const count = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (count === null) {
        lastHeldCount = false; // a literal brace
        continue;
      }
      const largest = Math.max(Number(count[1]), count[3] !== undefined && count[3] !== '' ? Number(count[3]) : 0);
      if (largest > MAX_REPEAT) {
        const repeat = `{${count[1]}${count[2] ?? ''}}`;
        return () => tn('word_filter.regex_repeat', largest, { largest: String(largest), repeat, limit: String(MAX_REPEAT) });
      }
      if (lastHeldCount) {
        return () => t('word_filter.regex_nested');
      }
      groups[groups.length - 1] = true;
      i += count[0].length - 1;
      lastHeldCount = false;
    } else {
      lastHeldCount = false;
    }
  }
  return null;
}

/** Index of the `]` that closes the class opened at `start`. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[' && source[i + 1] === ':') {
      const end = source.indexOf(':]', i + 2);
      if (end >= 0) i = end + 1;
    } else if (source[i] === ']') return i;
  }
  return source.length;
}

/**
 * Memory for the states of RE2's lazy DFA, per regex (re2js allows 8 MB).
 * A pattern whose DFA would need more (exponentially many states, or wide
 * state tables: a class like [^\p{L}] splits Unicode into hundreds of
 * ranges) makes the DFA give up sooner, which guardedTest notices: the NFA
 * runs then only if its estimated cost fits in the time left.
 */
const DFA_MEMORY = 1024 * 1024;

let refusingNfa = false;
const NFA_REFUSED = new Error('RE2 NFA pass refused');
/** While a guarded pass runs: when (performance.now()) its DFA must stop building states. */
let dfaDeadline = Infinity;

interface Re2Dfa {
  stateBudget?: number;
  memBudget?: number;
  stepOrReset?: (...args: unknown[]) => unknown;
}

interface Re2Engine {
  dfa?: Re2Dfa;
  doExecuteNFA?: (...args: unknown[]) => unknown;
}

/**
 * Caps a DFA's memory for states, and makes it give up (as when that
 * memory runs out) once the running guarded pass is past its deadline. It
 * checks the clock only when it has to build a state, the costly step.
 */
export function limitDfa(dfa: Re2Dfa | undefined, memory: number): void {
  if (dfa === undefined || typeof dfa.stateBudget !== 'number' || typeof dfa.memBudget !== 'number') return;
  dfa.stateBudget = memory;
  dfa.memBudget = Math.min(dfa.memBudget, memory);
  const step = dfa.stepOrReset;
  if (typeof step === 'function') {
    dfa.stepOrReset = function (this: unknown, ...args: unknown[]) {
      if (dfaDeadline !== Infinity && isPast(dfaDeadline)) return null;
      return step.apply(this, args);
    };
  }
}

/** Runs `pass` with DFAs stopping at `deadline`; see limitDfa. */
export function withDfaDeadline<T>(deadline: number, pass: () => T): T {
  const outer = dfaDeadline;
  dfaDeadline = deadline;
  try {
    return pass();
  } finally {
    dfaDeadline = outer;
  }
}

/**
 * Caps the DFA's memory, and lets guardedTest refuse the NFA pass RE2 falls
 * back to when its DFA gives up (re2js internals, read defensively: if they
 * are not there, the regex simply runs as re2js runs it).
 */
function limitAutomatonMemory(regex: RE2JS): void {
  const engine = (regex as unknown as { re2Input?: Re2Engine }).re2Input;
  if (engine === undefined) return;
  limitDfa(engine.dfa, DFA_MEMORY);
  const nfa = engine.doExecuteNFA;
  if (typeof nfa === 'function') {
    engine.doExecuteNFA = function (this: unknown, ...args: unknown[]) {
      if (refusingNfa) throw NFA_REFUSED;
      return nfa.apply(this, args);
    };
  }
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
          throw new RegexProblem(() => t('word_filter.regex_lookaround'));
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
      throw new RegexProblem(() => t('word_filter.regex_backreference'));
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

// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * What locating one rule's matches came to: `none` (no match), `located`
 * (every match was given to the sink), `unlocated` (it matches, but finding
 * the places did not fit in the time left), `undecided` (not even whether
 * it matches could be told in the time left).
 */
export type Located = 'none' | 'located' | 'unlocated' | 'undecided';

/**
 * Every non-empty match of the regex, in order, as [start, end) offsets,
 * given to `sink` only when all were found. `folded` is the text
 * case-folded without changing offsets (text.ts fold). Stops at `deadline`
 * (performance.now() milliseconds) between steps; no step reads more than a
 * window of text with RE2's NFA, or the whole text with its DFA.
 */
export function locate(compiled: CompiledRegex, text: string, folded: () => string, sink: (start: number, end: number) => void, deadline: number): Located {
  let outcome: Located | Span[];
  if (compiled.foldedLocator !== undefined) {
    outcome = findSpans(compiled.foldedLocator, folded(), compiled.size, deadline);
    // Folding may differ from RE2's in a few non-ASCII letters (İ): when the
    // fast way finds nothing there, RE2's own yes/no on the text decides.
    if (outcome === 'none' && NON_ASCII.test(text)) outcome = findSpans(compiled.regex, text, compiled.size, deadline);
  } else {
    outcome = findSpans(compiled.regex, text, compiled.size, deadline);
  }
  if (typeof outcome === 'string') return outcome;
  for (const [start, end] of outcome) sink(start, end);
  return 'located';
}

/** Whether the rule matches, without the places: one DFA pass (`undecided` if the DFA gives up). */
export function decide(compiled: CompiledRegex, text: string, folded: () => string, deadline: number): Located {
  let matches = compiled.foldedLocator !== undefined ? guardedTest(compiled.foldedLocator, folded(), deadline) : guardedTest(compiled.regex, text, deadline);
  if (matches === false && compiled.foldedLocator !== undefined && NON_ASCII.test(text)) matches = guardedTest(compiled.regex, text, deadline);
  return matches === undefined ? 'undecided' : matches ? 'unlocated' : 'none';
}

/**
 * RE2's yes/no for the whole text, by its DFA; undefined when the DFA gave
 * up (a pattern with very many states on this text, or `deadline` passed
 * while it was still building states) and only a full NFA pass could tell,
 * which is not paid for here.
 */
export function guardedTest(regex: RE2JS, text: string, deadline = Infinity): boolean | undefined {
  refusingNfa = true;
  try {
    return withDfaDeadline(deadline, () => regex.test(text));
  } catch (error) {
    if (error !== NFA_REFUSED) throw error;
  } finally {
    refusingNfa = false;
  }
  // The DFA gave up. Out of time: undecided. Out of memory (a rule with
  // very many states, or a class like [^\p{L}] with wide state tables): the
  // NFA answers, if the estimate of its cost fits in the time left.
  const now = performance.now();
  if (isPast(deadline) || now + text.length * regex.programSize() * NFA_MS_PER_CHAR_AND_INSTRUCTION > deadline) return undefined;
  return regex.test(text);
}

/** Context read on each side of a window: a match may run this far past it. */
const MARGIN = 512;
/**
 * Characters × instructions one NFA pass may read: about 6 ms at the
 * measured worst. A window's core is sized by the program: 16 KB for a
 * usual rule, 1 KB for the largest allowed (300 instructions).
 */
const WINDOW_WORK = 600_000;

function windowFor(size: number): number {
  return Math.min(16_384, Math.max(1024, Math.floor(WINDOW_WORK / size) - 2 * MARGIN));
}

/**
 * What RE2's NFA costs per character and program instruction, in
 * milliseconds, at worst (measured 7-11 ns on this machine; doubled): a
 * whole-text NFA pass is made only when this estimate fits in the time left.
 */
export const NFA_MS_PER_CHAR_AND_INSTRUCTION = 20e-6;

/**
 * RE2's full search (the NFA) costs up to 10 ns per character and
 * instruction, its yes/no answer (the DFA) about 10 ns a character. The DFA
 * says whether the text matches; on long text it then picks the windows
 * that hold a match and the NFA runs on those alone (windows sized by
 * windowFor: a few milliseconds each, whatever the program). Each match
 * found starts in its window's core and is read with context on both sides,
 * so it is a match in the whole text too. If a match may run past a window
 * (it touches the edge) or the DFA sees a match between those found, the
 * whole text is searched with the NFA if that fits in the time left, else
 * the rule is `unlocated`.
 */
function findSpans(regex: RE2JS, text: string, size: number, deadline: number): Span[] | Located {
  if (isPast(deadline)) return 'undecided';
  // Rules come here when they may match (the screen); one DFA pass says whether they do.
  const matches = guardedTest(regex, text, deadline);
  if (matches === undefined) return 'undecided';
  if (!matches) return 'none';
  const window = windowFor(size);
  if (text.length <= window + 2 * MARGIN) return findAll(regex, text, 0);
  const wholeText = (): Span[] | Located =>
    performance.now() + text.length * size * NFA_MS_PER_CHAR_AND_INSTRUCTION <= deadline ? findAll(regex, text, 0) : 'unlocated';
  const spans: Span[] = [];
  let lastEnd = 0;
  for (let core = 0; core < text.length; core += window) {
    if (isPast(deadline)) return 'unlocated';
    const from = Math.max(0, core - MARGIN);
    const to = Math.min(text.length, core + window + MARGIN);
    const part = text.slice(from, to);
    if (!regex.test(part)) continue;
    for (const [start, end] of findAll(regex, part, from)) {
      if (start < core || start >= core + window) continue;
      if (end === to && to < text.length) return wholeText();
      if (start < lastEnd) continue;
      spans.push([start, end]);
      lastEnd = end;
    }
  }
  // A match longer than a window's margin is seen by no window: look between the matches found.
  let gapStart = 0;
  for (const [start, end] of [...spans, [text.length, text.length] as Span]) {
    if (start > gapStart) {
      if (isPast(deadline)) return 'unlocated';
      const inGap = guardedTest(regex, text.slice(Math.max(0, gapStart - 1), Math.min(text.length, start + 1)), deadline);
      if (inGap !== false) return wholeText();
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
