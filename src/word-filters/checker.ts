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

/**
 * After a change the rules are compiled again ahead of the next check (a
 * few hundred milliseconds for thousands of rules), once a burst of
 * changes has settled.
 */
const REBUILD_DELAY_MS = 50;

export class WordFilterChecker {
  readonly #load: () => Promise<ActiveRule[]>;
  readonly #onInvalid: InvalidRuleListener | undefined;
  #book: Promise<RuleBook> | undefined;
  #rebuild: NodeJS.Timeout | undefined;

  constructor(load: () => Promise<ActiveRule[]>, changes: ChangeFeed, onInvalid?: InvalidRuleListener) {
    this.#load = load;
    this.#onInvalid = onInvalid;
    changes.subscribe(WORD_FILTERS_TOPIC, () => this.invalidate());
  }

  /** Forget the compiled rules; they are loaded and compiled again shortly, or by the next check if sooner. */
  invalidate(): void {
    this.#book = undefined;
    // Each change moves the rebuild back: a burst of changes (an import of
    // 2,000 rules) is compiled once, after it, not once per 50 ms.
    if (this.#rebuild !== undefined) clearTimeout(this.#rebuild);
    this.#rebuild = setTimeout(() => {
      this.#rebuild = undefined;
      // A failed load is retried by the next check.
      this.#current().then(
        (book) => book.compileAll(),
        () => {},
      );
    }, REBUILD_DELAY_MS);
    this.#rebuild.unref();
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
