// The rules of one content type compiled into one matcher: exact and
// wildcard rules in two word indexes (ignoring case / as written), regex
// rules behind one screen. Built once per rule set, used for every text.
import type { FilterRule, FilterType } from '../rules.ts';
import { compileRegex, locate, RegexProblem, type CompiledRegex } from './regex-patterns.ts';
import { RegexScreen } from './regex-screen.ts';
import { findWords, fold } from './text.ts';
import { WordIndex } from './word-patterns.ts';

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
   * Every match of every rule. Regex rules are first screened all at once;
   * those that may match are then run one by one, the strongest first, until
   * `locateBudgetMs` has been spent on that; of the rest, RE2 only says
   * whether they match (one fast pass each), so they can still decide.
   */
  scan(text: string, locateBudgetMs: number): Scan {
    const hits: Hit[] = [];
    const sink = (rule: number, start: number, end: number): void => {
      hits.push({ rule, start, end });
    };
    if (this.#ignoringCase.size > 0 || this.#asWritten.size > 0) {
      const words = findWords(text);
      this.#ignoringCase.scan(text, words, sink);
      this.#asWritten.scan(text, words, sink);
    }

    const unlocated: number[] = [];
    if (this.#regexScreen !== undefined) {
      let folded: string | undefined;
      const foldedText = (): string => (folded ??= fold(text));
      const candidates = this.#regexScreen.candidates(text, foldedText);
      candidates.sort((a, b) => PRECEDENCE[this.rules[a]!.filter_type] - PRECEDENCE[this.rules[b]!.filter_type] || a - b);
      const deadline = performance.now() + locateBudgetMs;
      for (const rule of candidates) {
        const compiled = this.#regexes[rule]!;
        if (performance.now() > deadline) {
          if (compiled.regex.test(text)) unlocated.push(rule);
          continue;
        }
        locate(compiled, text, foldedText, (start, end) => sink(rule, start, end));
      }
    }
    return { hits, unlocated };
  }
}
