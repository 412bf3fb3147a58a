// SQL for word filters: the rules, their content types (one row each) and
// the creator's public fields. No HTTP here.
import { sql, type Expression, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { caseInsensitiveOrder, containsText, type Dialect } from '../db/dialect.ts';
import type { Database, WordFiltersTable } from '../db/schema.ts';
import type { ActiveRule } from './engine/rule-book.ts';
import { CONTENT_TYPES, type ContentType, type FilterType, type PatternType, type Severity } from './rules.ts';

/** A stored rule with what its resource shows: applies_to and the creator. */
export interface WordFilterRecord {
  id: number;
  pattern: string;
  replacement: string | null;
  filter_type: FilterType;
  pattern_type: PatternType;
  severity: Severity;
  is_active: boolean;
  case_sensitive: boolean;
  notes: string | null;
  applies_to: ContentType[];
  creator: { id: number; name: string; email: string } | null;
  created_at: string;
  updated_at: string;
}

export interface WordFilterListFilter {
  filter_type?: FilterType | undefined;
  pattern_type?: PatternType | undefined;
  severity?: Severity | undefined;
  is_active?: boolean | undefined;
  applies_to?: ContentType | undefined;
  search?: string | undefined;
}

export const SORT_FIELDS = ['id', 'pattern', 'filter_type', 'pattern_type', 'severity', 'is_active', 'created_at', 'updated_at'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface WordFilterSort {
  field: SortField;
  direction: 'asc' | 'desc';
}

type Db = Kysely<Database> | Transaction<Database>;

export class WordFiltersRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async find(id: number, db: Db = this.#db): Promise<WordFilterRecord | undefined> {
    const [record] = await this.#records(selectRecords(db).where('f.id', '=', id), db);
    return record;
  }

  /** The stored row alone; `lock` holds it until the transaction ends (PostgreSQL only). */
  findForUpdate(id: number, trx: Transaction<Database>, lock: boolean): Promise<Selectable<WordFiltersTable> | undefined> {
    const query = trx.selectFrom('word_filters').selectAll().where('id', '=', id);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  }

  async list(filter: WordFilterListFilter, sort: WordFilterSort, offset: number, limit: number): Promise<{ records: WordFilterRecord[]; total: number }> {
    const filtered = this.#filtered(filter);
    const order = this.#sortExpression(sort.field);
    const [records, count] = await Promise.all([
      this.#records(
        selectRecords(this.#db)
          .where('f.id', 'in', filtered.select('f.id'))
          .orderBy(order, sort.direction)
          .orderBy('f.id', sort.direction)
          .offset(offset)
          .limit(limit),
      ),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { records, total: Number(count.total) };
  }

  /** Rules whose pattern or notes contain `term`: pattern hits first, the closest (shortest) first, then newest. */
  search(term: string, filter: Omit<WordFilterListFilter, 'search'>, limit: number): Promise<WordFilterRecord[]> {
    const filtered = this.#filtered({ ...filter, search: term });
    const inPattern = containsText(this.#dialect, sql.ref<string>('f.pattern'), term);
    return this.#records(
      selectRecords(this.#db)
        .where('f.id', 'in', filtered.select('f.id'))
        .orderBy(sql`case when ${inPattern} then 0 else 1 end`)
        .orderBy(sql`length(f.pattern)`)
        .orderBy('f.created_at', 'desc')
        .orderBy('f.id', 'desc')
        .limit(limit),
    );
  }

  async insert(values: Insertable<WordFiltersTable>, appliesTo: readonly ContentType[], trx: Transaction<Database>): Promise<number> {
    const { id } = await trx.insertInto('word_filters').values(values).returning('id').executeTakeFirstOrThrow();
    await this.#insertContentTypes(id, appliesTo, trx);
    return id;
  }

  /** False when there is no such rule. `appliesTo` replaces the stored set when given. */
  async update(id: number, changes: Updateable<WordFiltersTable>, appliesTo: readonly ContentType[] | undefined, trx: Transaction<Database>): Promise<boolean> {
    const result = await trx.updateTable('word_filters').set(changes).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (appliesTo !== undefined) {
      await trx.deleteFrom('word_filter_content_types').where('word_filter_id', '=', id).execute();
      await this.#insertContentTypes(id, appliesTo, trx);
    }
    return true;
  }

  async delete(id: number): Promise<boolean> {
    // The content types go with it (ON DELETE CASCADE).
    const result = await this.#db.deleteFrom('word_filters').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every active rule with its content types: what the engine compiles. */
  async activeRules(): Promise<ActiveRule[]> {
    const rows = await this.#db
      .selectFrom('word_filters as f')
      .innerJoin('word_filter_content_types as t', 't.word_filter_id', 'f.id')
      .select(['f.id', 'f.pattern', 'f.pattern_type', 'f.filter_type', 'f.replacement', 'f.severity', 'f.case_sensitive', 't.content_type'])
      .where('f.is_active', '=', true)
      .orderBy('f.id')
      .execute();
    const rules = new Map<number, ActiveRule & { applies_to: ContentType[] }>();
    for (const row of rows) {
      let rule = rules.get(row.id);
      if (rule === undefined) {
        rule = {
          id: row.id,
          pattern: row.pattern,
          pattern_type: row.pattern_type,
          filter_type: row.filter_type,
          replacement: row.replacement,
          severity: row.severity,
          case_sensitive: Boolean(row.case_sensitive),
          applies_to: [],
        };
        rules.set(row.id, rule);
      }
      rule.applies_to.push(row.content_type);
    }
    return [...rules.values()];
  }

  async #insertContentTypes(id: number, appliesTo: readonly ContentType[], trx: Transaction<Database>): Promise<void> {
    if (appliesTo.length === 0) return;
    await trx
      .insertInto('word_filter_content_types')
      .values(appliesTo.map((content_type) => ({ word_filter_id: id, content_type })))
      .execute();
  }

  #filtered(filter: WordFilterListFilter) {
    let query = this.#db.selectFrom('word_filters as f');
    if (filter.filter_type !== undefined) query = query.where('f.filter_type', '=', filter.filter_type);
    if (filter.pattern_type !== undefined) query = query.where('f.pattern_type', '=', filter.pattern_type);
    if (filter.severity !== undefined) query = query.where('f.severity', '=', filter.severity);
    if (filter.is_active !== undefined) query = query.where('f.is_active', '=', filter.is_active);
    if (filter.applies_to !== undefined) {
      const type = filter.applies_to;
      query = query.where('f.id', 'in', (eb) => eb.selectFrom('word_filter_content_types as t').select('t.word_filter_id').where('t.content_type', '=', type));
    }
    if (filter.search !== undefined && filter.search !== '') {
      const term = filter.search;
      query = query.where((eb) => eb.or([containsText(this.#dialect, eb.ref('f.pattern'), term), containsText(this.#dialect, eb.ref('f.notes'), term)]));
    }
    return query;
  }

  #sortExpression(field: SortField): Expression<unknown> {
    switch (field) {
      case 'pattern':
        return caseInsensitiveOrder(this.#dialect, sql.ref<string>('f.pattern'));
      case 'severity':
        // By weight, not alphabetically: low < medium < high.
        return sql`case f.severity when 'low' then 1 when 'medium' then 2 else 3 end`;
      default:
        return sql.ref(`f.${field}`);
    }
  }

  async #records(query: ReturnType<typeof selectRecords>, db: Db = this.#db): Promise<WordFilterRecord[]> {
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const types = await db
      .selectFrom('word_filter_content_types')
      .select(['word_filter_id', 'content_type'])
      .where(
        'word_filter_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    const appliesTo = new Map<number, Set<ContentType>>();
    for (const { word_filter_id, content_type } of types) {
      let set = appliesTo.get(word_filter_id);
      if (set === undefined) appliesTo.set(word_filter_id, (set = new Set()));
      set.add(content_type);
    }
    return rows.map((row) => {
      const set = appliesTo.get(row.id) ?? new Set<ContentType>();
      return {
        id: row.id,
        pattern: row.pattern,
        replacement: row.replacement,
        filter_type: row.filter_type,
        pattern_type: row.pattern_type,
        severity: row.severity,
        is_active: Boolean(row.is_active),
        case_sensitive: Boolean(row.case_sensitive),
        notes: row.notes,
        // Always in the order the contract lists the types.
        applies_to: CONTENT_TYPES.filter((type) => set.has(type)),
        creator:
          row.creator_id !== null && row.creator_name !== null && row.creator_email !== null
            ? { id: row.creator_id, name: row.creator_name, email: row.creator_email }
            : null,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    });
  }
}

// The columns of a record, with the creator's public fields.
function selectRecords(db: Db) {
  return db
    .selectFrom('word_filters as f')
    .leftJoin('users as u', 'u.id', 'f.creator_id')
    .select([
      'f.id',
      'f.pattern',
      'f.replacement',
      'f.filter_type',
      'f.pattern_type',
      'f.severity',
      'f.is_active',
      'f.case_sensitive',
      'f.notes',
      'f.created_at',
      'f.updated_at',
      'u.id as creator_id',
      'u.username as creator_name',
      'u.email as creator_email',
    ]);
}
