// All active rules, with a matcher per content type compiled on first use.
// A rule book is immutable: when rules change, a new book replaces it.
import type { ContentType, FilterRule } from '../rules.ts';
import { applyRules, type CheckResult } from './apply.ts';
import { Matcher, type InvalidRuleListener } from './matcher.ts';
import type { CompiledRegex } from './regex-patterns.ts';

export interface ActiveRule extends FilterRule {
  applies_to: readonly ContentType[];
}

export class RuleBook {
  readonly #byType = new Map<ContentType, FilterRule[]>();
  readonly #matchers = new Map<ContentType, Matcher>();
  // A regex rule applying to several content types is compiled once.
  readonly #compiled = new Map<number, CompiledRegex>();
  readonly #onInvalid: InvalidRuleListener | undefined;

  constructor(rules: readonly ActiveRule[], onInvalid?: InvalidRuleListener) {
    this.#onInvalid = onInvalid;
    for (const rule of rules) {
      for (const type of rule.applies_to) {
        const list = this.#byType.get(type);
        if (list === undefined) this.#byType.set(type, [rule]);
        else list.push(rule);
      }
    }
  }

  matcher(contentType: ContentType): Matcher {
    let matcher = this.#matchers.get(contentType);
    if (matcher === undefined) {
      matcher = new Matcher(this.#byType.get(contentType) ?? [], {
        compiled: this.#compiled,
        ...(this.#onInvalid !== undefined ? { onInvalid: this.#onInvalid } : {}),
      });
      this.#matchers.set(contentType, matcher);
    }
    return matcher;
  }

  /**
   * Compiles the matcher of every content type that has rules ahead of the
   * first check, and runs each once on a short text so the regular
   * expressions behind it are compiled too (V8 and RE2 do that lazily).
   */
  compileAll(): void {
    for (const type of this.#byType.keys()) applyRules(this.matcher(type), 'Warm up: Hello, world! 123-4567.');
  }

  /** `options.budgetMs`: the time budget (apply.ts CHECK_BUDGET_MS unless given; tests of what matches give more). */
  check(text: string, contentType: ContentType, options: { budgetMs?: number } = {}): CheckResult {
    return applyRules(this.matcher(contentType), text, options);
  }
}
