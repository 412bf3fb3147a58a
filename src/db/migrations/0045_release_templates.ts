// Release templates (docs/release-templates.md; TorrentPier's posting
// templates): a forum's template names the fields a new release asks for
// (text, number, choice, image address, size) and lays out the title and the
// opening post from them. A release's values are kept beside its topic, each
// by its field, so that the filterable ones can select topics; a field's key
// is unique in its template, so that a changed template keeps the values of
// the fields it keeps. Deleting a forum or its template takes the fields and
// the values with them; deleting a topic takes its values.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

const FIELD_KINDS = ['text', 'number', 'choice', 'image', 'size'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('release_templates')
    .addColumn('forum_id', 'integer', (c) => c.primaryKey().references('forums.id').onDelete('cascade'))
    .addColumn('title_layout', 'text', (c) => c.notNull())
    .addColumn('body_layout', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('release_fields')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('release_templates.forum_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().check(sql<boolean>`length(label) > 0`))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOfCheck('kind', FIELD_KINDS)))
    .addColumn('required', 'boolean', (c) => c.notNull())
    .addColumn('filterable', 'boolean', (c) => c.notNull())
    // A choice field's options, one a line; empty for the other kinds.
    .addColumn('choices', 'text', (c) => c.notNull())
    .addUniqueConstraint('release_fields_key', ['forum_id', 'key'])
    .execute();
  await db.schema
    .createTable('release_values')
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('field_id', 'integer', (c) => c.notNull().references('release_fields.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    // Numbers and sizes (bytes), for ranges; null for the other kinds.
    .addColumn('number_value', 'bigint')
    .addPrimaryKeyConstraint('release_values_pk', ['topic_id', 'field_id'])
    .execute();
  await db.schema.createIndex('release_values_by_value').on('release_values').columns(['field_id', 'value']).execute();
}
