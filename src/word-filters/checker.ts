// Keeps the compiled rules current. The rule book is built from the database
// on first use and dropped whenever a rule changes: here at once (the write
// publishes on the change feed after it commits), on other instances when
// PostgreSQL's NOTIFY reaches them, usually within milliseconds.
import type { ChangeFeed } from '../db/change-feed.ts';
import type { CheckResult } from './engine/apply.ts';
import type { InvalidRuleListener } from './engine/matcher.ts';
import { RuleBook, type ActiveRule } from './engine/rule-book.ts';
import type { ContentType } from './rules.ts';

export const WORD_FILTERS_TOPIC = 'word_filters';

export class WordFilterChecker {
  readonly #load: () => Promise<ActiveRule[]>;
  readonly #onInvalid: InvalidRuleListener | undefined;
  #book: Promise<RuleBook> | undefined;

  constructor(load: () => Promise<ActiveRule[]>, changes: ChangeFeed, onInvalid?: InvalidRuleListener) {
    this.#load = load;
    this.#onInvalid = onInvalid;
    changes.subscribe(WORD_FILTERS_TOPIC, () => this.invalidate());
  }

  /** Forget the compiled rules; the next check loads and compiles them again. */
  invalidate(): void {
    this.#book = undefined;
  }

  async check(text: string, contentType: ContentType): Promise<CheckResult> {
    const book = await this.#current();
    return book.check(text, contentType);
  }

  #current(): Promise<RuleBook> {
    if (this.#book === undefined) {
      // A load that started before a change is used by the checks already
      // waiting for it, but never becomes current after the change.
      const loading = this.#load().then((rules) => new RuleBook(rules, this.#onInvalid));
      this.#book = loading;
      loading.catch(() => {
        if (this.#book === loading) this.#book = undefined;
      });
    }
    return this.#book;
  }
}
