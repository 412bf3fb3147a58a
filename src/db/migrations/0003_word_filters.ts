import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

// The allowed values are written out here rather than imported: a migration
// is history and must create the same schema whatever the code says later.

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .createTable('word_filters')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('replacement', 'text')
    .addColumn('filter_type', 'text', (c) => c.notNull().check(oneOfCheck('filter_type', ['replace', 'block', 'moderate'])))
    .addColumn('pattern_type', 'text', (c) => c.notNull().check(oneOfCheck('pattern_type', ['exact', 'wildcard', 'regex'])))
    .addColumn('severity', 'text', (c) =>
      c
        .notNull()
        .defaultTo('medium')
        .check(oneOfCheck('severity', ['low', 'medium', 'high'])),
    )
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('case_sensitive', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('notes', 'text')
    // The creator's rules outlive the creator's account.
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    // Behind the service's own check: a replace rule always has something to replace with.
    .addCheckConstraint('word_filters_replacement_required', sql`filter_type <> 'replace' or (replacement is not null and trim(replacement) <> '')`)
    .execute();
  // The default list order, newest first.
  await db.schema.createIndex('word_filters_created_at_id').on('word_filters').columns(['created_at', 'id']).execute();
  // The engine loads active rules only.
  await db.schema.createIndex('word_filters_is_active').on('word_filters').column('is_active').execute();
  await db.schema.createIndex('word_filters_creator_id').on('word_filters').column('creator_id').execute();

  // applies_to, one row per (rule, content type): the list filter is an indexed join.
  await db.schema
    .createTable('word_filter_content_types')
    .addColumn('word_filter_id', 'integer', (c) => c.notNull().references('word_filters.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) =>
      c.notNull().check(oneOfCheck('content_type', ['posts', 'private_messages', 'comments', 'signatures', 'usernames', 'topics'])),
    )
    .addPrimaryKeyConstraint('word_filter_content_types_pk', ['word_filter_id', 'content_type'])
    .execute();
  await db.schema.createIndex('word_filter_content_types_content_type').on('word_filter_content_types').columns(['content_type', 'word_filter_id']).execute();
}
