// The rules of one content type compiled into one matcher: exact and
// wildcard rules in two word indexes (ignoring case / as written), regex
// rules behind one screen. Built once per rule set, used for every text.
import type { FilterRule, FilterType } from '../rules.ts';
import { compileRegex, decide, locate, RegexProblem, type CompiledRegex } from './regex-patterns.ts';
import { RegexScreen } from './regex-screen.ts';
import { findWords, fold } from './text.ts';
import { WordIndex } from './word-patterns.ts';
import { isPast, startBudget } from './clock.ts';

/** A match of rule `rules[rule]` at text[start, end). */
export interface Hit {
  rule: number;
  start: number;
  end: number;
}

export interface Scan {
  hits: Hit[];
  /** Regex rules known to match whose places were not looked up within the time budget. */
  unlocated: number[];
  /** Regex rules that may match (they passed the screen) but could not be run within the time budget. */
  undecided: number[];
  /** False when the exact and wildcard rules ran out of time (thousands of wildcards against a giant word). */
  wordsComplete: boolean;
}

/** A rule that could not be compiled (saved before a stricter engine, say) is skipped, and reported here. */
export type InvalidRuleListener = (rule: FilterRule, problem: string) => void;

const PRECEDENCE: Record<FilterType, number> = { block: 0, moderate: 1, replace: 2 };

export class Matcher {
  readonly rules: readonly FilterRule[];
  readonly #ignoringCase = new WordIndex(false);
  readonly #asWritten = new WordIndex(true);
  readonly #regexes: Array<CompiledRegex | undefined> = [];
  readonly #regexScreen: RegexScreen | undefined;

  /** `compiled` lets matchers of several content types share compiled regexes. */
  constructor(rules: readonly FilterRule[], options: { compiled?: Map<number, CompiledRegex>; onInvalid?: InvalidRuleListener } = {}) {
    this.rules = rules;
    const regexEntries: Array<{ rule: number; compiled: CompiledRegex }> = [];
    rules.forEach((rule, index) => {
      if (rule.pattern_type === 'regex') {
        let compiled = options.compiled?.get(rule.id);
        if (compiled === undefined) {
          try {
            compiled = compileRegex(rule.pattern, rule.case_sensitive);
            options.compiled?.set(rule.id, compiled);
          } catch (error) {
            options.onInvalid?.(rule, error instanceof RegexProblem ? error.message : String(error));
            return;
          }
        }
        this.#regexes[index] = compiled;
        regexEntries.push({ rule: index, compiled });
        return;
      }
      (rule.case_sensitive ? this.#asWritten : this.#ignoringCase).add(index, rule.pattern, rule.pattern_type === 'wildcard');
    });
    this.#regexScreen = regexEntries.length > 0 ? new RegexScreen(regexEntries) : undefined;
  }

  /**
   * Every match of every rule, within `budgetMs` from the call. Exact and
   * wildcard rules cost about a fixed amount per character (a wildcard
   * found by a piece inside a word costs up to the word's length; that
   * work stops at the deadline too, leaving `wordsComplete` false).
   * Regex rules are first screened all at once; those that may match are
   * then run one by one, the strongest first, each step checking the
   * clock. Matches are located in the first `locateMs` (three quarters of
   * the budget); in the rest the rules left get RE2's yes/no only (one DFA pass
   * each): a rule found to match there is `unlocated`; one that could not
   * even be run in time is `undecided`.
   */
  scan(text: string, budgetMs: number, locateMs = budgetMs * 0.75): Scan {
    const started = startBudget();
    const deadline = started + budgetMs;
    const locateDeadline = started + locateMs;
    const hits: Hit[] = [];
    const sink = (rule: number, start: number, end: number): void => {
      hits.push({ rule, start, end });
    };
    let wordsComplete = true;
    if (this.#ignoringCase.size > 0 || this.#asWritten.size > 0) {
      const words = findWords(text);
      wordsComplete = this.#ignoringCase.scan(text, words, sink, deadline) && this.#asWritten.scan(text, words, sink, deadline);
    }

    const unlocated: number[] = [];
    const undecided: number[] = [];
    if (this.#regexScreen !== undefined) {
      let folded: string | undefined;
      const foldedText = (): string => (folded ??= fold(text));
      const candidates = this.#regexScreen.candidates(text, foldedText, locateDeadline);
      candidates.sort((a, b) => PRECEDENCE[this.rules[a]!.filter_type] - PRECEDENCE[this.rules[b]!.filter_type] || a - b);
      for (const rule of candidates) {
        const found: Hit[] = [];
        const compiled = this.#regexes[rule]!;
        const locatePast = isPast(locateDeadline);
        let outcome = isPast(deadline)
          ? 'undecided'
          : locatePast
            ? decide(compiled, text, foldedText, deadline)
            : locate(compiled, text, foldedText, (start, end) => found.push({ rule, start, end }), locateDeadline);
        // Locating ran out of its time before even the yes/no: try that alone in what is left.
        if (outcome === 'undecided' && !locatePast && !isPast(deadline)) outcome = decide(compiled, text, foldedText, deadline);
        if (outcome === 'located') hits.push(...found);
        else if (outcome === 'unlocated') unlocated.push(rule);
        else if (outcome === 'undecided') undecided.push(rule);
      }
    }
    return { hits, unlocated, undecided, wordsComplete };
  }
}
