// Word-filter rules: reading, writing (validated against the engine that
// will apply them, in one transaction, announced after commit), and checking
// text against the active rules. Other modules call `check` on every write of
// user text: block → refuse, moderate → hold for review, replacements → apply.
import { type Clock, isoNow } from '../clock.ts';
import type { Kysely, Transaction } from 'kysely';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { Dialect } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { FieldErrorBag, ResourceNotFoundError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { PageRequest } from '../http/pagination.ts';
import { WordFilterChecker, WORD_FILTERS_TOPIC } from './checker.ts';
import type { CheckResult } from './engine/apply.ts';
import { compileRegex, RegexProblem } from './engine/regex-patterns.ts';
import { containsWord } from './engine/word-patterns.ts';
import type { WordFilterListFilter, WordFilterRecord, WordFilterSort, WordFiltersRepository } from './repository.ts';
import type { ContentType, FilterType, PatternType, Severity } from './rules.ts';

export interface WordFilterInput {
  pattern: string;
  replacement?: string | null | undefined;
  filter_type: FilterType;
  pattern_type: PatternType;
  severity?: Severity | undefined;
  is_active?: boolean | undefined;
  case_sensitive?: boolean | undefined;
  applies_to: ContentType[];
  notes?: string | null | undefined;
}

export type WordFilterChanges = Partial<WordFilterInput>;

export const NOT_FOUND_MESSAGE = 'Word filter not found.';

export class WordFiltersService {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #repository: WordFiltersRepository;
  readonly #changes: ChangeFeed;
  readonly #checker: WordFilterChecker;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, dialect: Dialect, repository: WordFiltersRepository, changes: ChangeFeed, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.#dialect = dialect;
    this.#repository = repository;
    this.#changes = changes;
    this.#checker = new WordFilterChecker(() => repository.activeRules(), changes);
  }

  /**
   * Applies the active rules for `contentType` to `text`. Text longer than
   * MAX_TEXT_LENGTH characters is refused with a TextTooLongError.
   */
  check(text: string, contentType: ContentType): Promise<CheckResult> {
    return this.#checker.check(text, contentType);
  }

  async get(id: number): Promise<WordFilterRecord> {
    const record = await this.#repository.find(id);
    if (record === undefined) throw new ResourceNotFoundError(NOT_FOUND_MESSAGE);
    return record;
  }

  list(filter: WordFilterListFilter, sort: WordFilterSort, page: PageRequest): Promise<{ records: WordFilterRecord[]; total: number }> {
    return this.#repository.list(filter, sort, page.offset, page.perPage);
  }

  search(term: string, filter: Omit<WordFilterListFilter, 'search'>, limit: number): Promise<WordFilterRecord[]> {
    return this.#repository.search(term, filter, limit);
  }

  async create(input: WordFilterInput, creatorId: number | null): Promise<WordFilterRecord> {
    const errors = new FieldErrorBag();
    checkPattern(input.pattern, input.pattern_type, input.case_sensitive ?? false, errors);
    checkReplacement(input.filter_type, input.replacement, errors);
    errors.throwIfAny();

    const now = isoNow(this.#clock);
    const id = await this.#db.transaction().execute((trx) =>
      this.#repository.insert(
        {
          pattern: input.pattern,
          replacement: input.replacement ?? null,
          filter_type: input.filter_type,
          pattern_type: input.pattern_type,
          severity: input.severity ?? 'medium',
          is_active: input.is_active ?? true,
          case_sensitive: input.case_sensitive ?? false,
          notes: input.notes ?? null,
          creator_id: creatorId,
          created_at: now,
          updated_at: now,
        },
        unique(input.applies_to),
        trx,
      ),
    );
    await this.#changes.publish(WORD_FILTERS_TOPIC);
    return this.get(id);
  }

  async update(id: number, changes: WordFilterChanges): Promise<WordFilterRecord> {
    await this.#db.transaction().execute(async (trx) => {
      // Checked against the row as it is now, held until commit (PostgreSQL;
      // SQLite runs one write transaction at a time anyway).
      const current = await this.#lockedRow(id, trx);
      const next = {
        pattern: changes.pattern ?? current.pattern,
        pattern_type: changes.pattern_type ?? current.pattern_type,
        case_sensitive: changes.case_sensitive ?? current.case_sensitive,
        filter_type: changes.filter_type ?? current.filter_type,
        replacement: changes.replacement !== undefined ? changes.replacement : current.replacement,
      };
      const errors = new FieldErrorBag();
      if (changes.pattern !== undefined || changes.pattern_type !== undefined) {
        checkPattern(next.pattern, next.pattern_type, next.case_sensitive, errors);
      }
      checkReplacement(next.filter_type, next.replacement, errors);
      errors.throwIfAny();

      // Only the rule's own fields: a body may carry anything else (id, creator_id, …).
      const fields = definedOnly({
        pattern: changes.pattern,
        replacement: changes.replacement,
        filter_type: changes.filter_type,
        pattern_type: changes.pattern_type,
        severity: changes.severity,
        is_active: changes.is_active,
        case_sensitive: changes.case_sensitive,
        notes: changes.notes,
      });
      await this.#repository.update(
        id,
        { ...fields, updated_at: isoNow(this.#clock) },
        changes.applies_to !== undefined ? unique(changes.applies_to) : undefined,
        trx,
      );
    });
    await this.#changes.publish(WORD_FILTERS_TOPIC);
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.#repository.delete(id))) throw new ResourceNotFoundError(NOT_FOUND_MESSAGE);
    await this.#changes.publish(WORD_FILTERS_TOPIC);
  }

  async #lockedRow(id: number, trx: Transaction<Database>) {
    const row = await this.#repository.findForUpdate(id, trx, this.#dialect === 'postgres');
    if (row === undefined) throw new ResourceNotFoundError(NOT_FOUND_MESSAGE);
    return { ...row, case_sensitive: Boolean(row.case_sensitive) };
  }
}

/** The pattern can be applied by the engine as its pattern type says. */
function checkPattern(pattern: string, patternType: PatternType, caseSensitive: boolean, errors: FieldErrorBag): void {
  if (patternType === 'regex') {
    try {
      compileRegex(pattern, caseSensitive);
    } catch (error) {
      if (!(error instanceof RegexProblem)) throw error;
      errors.add('pattern', error.say());
    }
  } else if (patternType === 'wildcard' && !containsWord(pattern)) {
    // `*` alone would match every word of every text.
    errors.add('pattern', t('validation.wildcard_word'));
  }
}

function checkReplacement(filterType: FilterType, replacement: string | null | undefined, errors: FieldErrorBag): void {
  if (filterType === 'replace' && (replacement === null || replacement === undefined || !/\S/u.test(replacement))) {
    errors.add('replacement', t('validation.replacement_required'));
  }
}

function unique(types: readonly ContentType[]): ContentType[] {
  return [...new Set(types)];
}

function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
