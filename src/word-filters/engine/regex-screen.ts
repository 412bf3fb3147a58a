// Which regex rules can match a text, without running them: every literal
// that any rule requires is looked for in one pass (RE2's analysis says which
// literals a rule's matches must contain), and only rules whose requirement
// holds are run. Rules RE2 knows no literal for share RE2 sets (of at most
// 1,500 instructions each), whose automaton answers for all of a set's rules
// in one pass, stopping at the check's deadline.
//
// Why not one set for every rule: the set's DFA builds its states as texts
// arrive, and with hundreds of similar patterns each new post adds states
// (measured: 5 ms median, 30 ms p95 per new 10 KB post for 200 rules, against
// 0.3 ms on a post seen before). A literal pass costs the same on every text.
import { RE2Set } from 're2js';
import { limitDfa, withDfaDeadline, type CompiledRegex, type Requirement } from './regex-patterns.ts';
import { isPast } from './clock.ts';

export interface ScreenEntry {
  rule: number;
  compiled: CompiledRegex;
}

export class RegexScreen {
  readonly #screened: Array<{ rule: number; requirement: Requirement }> = [];
  readonly #folded: LiteralFinder;
  readonly #asWritten: LiteralFinder;
  /** Rules without literals, in sets of bounded size, each with the rules (matcher indexes) its patterns stand for. */
  readonly #unscreened: Array<{ set: RE2Set; rules: number[] }> = [];

  constructor(entries: readonly ScreenEntry[]) {
    const foldedLiterals = new Set<string>();
    const writtenLiterals = new Set<string>();
    const collect = (requirement: Requirement): void => {
      if ('literal' in requirement) (requirement.folded ? foldedLiterals : writtenLiterals).add(requirement.literal);
      else for (const part of 'all' in requirement ? requirement.all : requirement.any) collect(part);
    };
    const unscreened: ScreenEntry[] = [];
    for (const entry of entries) {
      const { rule, compiled } = entry;
      if (compiled.requirement === null) {
        unscreened.push(entry);
      } else {
        collect(compiled.requirement);
        this.#screened.push({ rule, requirement: compiled.requirement });
      }
    }
    this.#folded = new LiteralFinder([...foldedLiterals]);
    this.#asWritten = new LiteralFinder([...writtenLiterals]);
    let group: ScreenEntry[] = [];
    let size = 0;
    for (const entry of unscreened) {
      if (group.length > 0 && size + entry.compiled.size > MAX_SET_SIZE) {
        this.#unscreened.push(compileSet(group));
        group = [];
        size = 0;
      }
      group.push(entry);
      size += entry.compiled.size;
    }
    if (group.length > 0) this.#unscreened.push(compileSet(group));
  }

  /**
   * Rules (matcher indexes) that may match: every rule that does is among
   * them. Past `deadline` (or where a set's automaton gives up), the rules
   * of the sets not run are all candidates: the matcher decides about them
   * within its own budget, and holds the text for moderation if it cannot.
   */
  candidates(text: string, folded: () => string, deadline: number): number[] {
    const found: number[] = [];
    if (this.#screened.length > 0) {
      const inFolded = this.#folded.size > 0 ? this.#folded.find(folded()) : EMPTY;
      const inWritten = this.#asWritten.size > 0 ? this.#asWritten.find(text) : EMPTY;
      const holds = (requirement: Requirement): boolean => {
        if ('literal' in requirement) return (requirement.folded ? inFolded : inWritten).has(requirement.literal);
        return 'all' in requirement ? requirement.all.every(holds) : requirement.any.some(holds);
      };
      for (const { rule, requirement } of this.#screened) if (holds(requirement)) found.push(rule);
    }
    for (const { set, rules } of this.#unscreened) {
      const matched = isPast(deadline) ? undefined : guardedSetMatch(set, text, deadline);
      if (matched === undefined) found.push(...rules);
      else for (const id of matched) found.push(rules[id]!);
    }
    return found;
  }
}

/**
 * Instructions per set of rules without literals. One set's DFA answers for
 * all its rules in one pass, but its states hold the live instructions of
 * every rule, so one huge set builds huge states (and gives up); groups of
 * five of the largest rules allowed (or a hundred usual ones) keep each pass short.
 */
const MAX_SET_SIZE = 1500;
/** Memory for one set's DFA states (re2js allows 8 MB). */
const SET_DFA_MEMORY = 2 * 1024 * 1024;

interface SetInternals {
  dfa?: Parameters<typeof limitDfa>[0];
  dummyRe2?: unknown;
}

function compileSet(entries: readonly ScreenEntry[]): { set: RE2Set; rules: number[] } {
  const set = new RE2Set(RE2Set.UNANCHORED);
  for (const { compiled } of entries) set.add(compiled.source);
  set.compile();
  // re2js internals, read defensively: cap the DFA's memory, and make the
  // slow NFA pass it falls back to when the DFA gives up throw instead.
  const internals = set as unknown as SetInternals;
  limitDfa(internals.dfa, SET_DFA_MEMORY);
  if (internals.dummyRe2 !== undefined) {
    internals.dummyRe2 = Object.defineProperty({ ...(internals.dummyRe2 as object) }, 'prog', {
      get() {
        throw SET_NFA_REFUSED;
      },
    });
  }
  return { set, rules: entries.map((entry) => entry.rule) };
}

const SET_NFA_REFUSED = new Error('RE2 set NFA pass refused');

/** The set's matches by its DFA, or undefined when the DFA gave up (too many states, or past `deadline`). */
function guardedSetMatch(set: RE2Set, text: string, deadline: number): number[] | undefined {
  try {
    return withDfaDeadline(deadline, () => set.match(text));
  } catch (error) {
    if (error === SET_NFA_REFUSED) return undefined;
    throw error;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Which of a fixed list of literals occur in a text, in one pass: a V8
 * alternation of plain literals (V8 factors their common prefixes, so each
 * position costs about one literal's length), longest first; a literal
 * found also proves its prefixes in the list.
 */
class LiteralFinder {
  readonly #scanner: RegExp | undefined;
  readonly #prefixes = new Map<string, string[]>();

  constructor(literals: readonly string[]) {
    if (literals.length === 0) return;
    const longestFirst = [...literals].sort((a, b) => b.length - a.length);
    for (const literal of longestFirst) {
      this.#prefixes.set(
        literal,
        longestFirst.filter((other) => other !== literal && literal.startsWith(other)),
      );
    }
    this.#scanner = new RegExp(longestFirst.map(escapeRegExp).join('|'), 'g');
  }

  get size(): number {
    return this.#prefixes.size;
  }

  find(text: string): Set<string> {
    const found = new Set<string>();
    const scanner = this.#scanner;
    if (scanner === undefined) return found;
    scanner.lastIndex = 0;
    let hit: RegExpExecArray | null;
    while ((hit = scanner.exec(text)) !== null) {
      const literal = hit[0];
      if (!found.has(literal)) {
        found.add(literal);
        for (const prefix of this.#prefixes.get(literal) ?? []) found.add(prefix);
        if (found.size === this.#prefixes.size) break;
      }
      // Literals may overlap: look again from the next character.
      scanner.lastIndex = hit.index + 1;
    }
    return found;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
