import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, exactText, timestampType } from '../dialect.ts';

// The emoji catalog. Every rule the API promises is also a constraint here,
// so no request (or race between requests) can store what the API would refuse.
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .createTable('emoji_categories')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull().check(sql`display_order >= 0`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emoji_categories_order').on('emoji_categories').columns(['display_order', 'id']).execute();

  await db.schema
    .createTable('emojis')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji_text', 'text')
    .addColumn('emoji_shortcode', 'text', (c) => exactText(c, dialect).notNull().unique())
    .addColumn('image_url', 'text')
    .addColumn('sprite_mode', 'boolean', (c) => c.notNull().defaultTo(false))
    // sprite_params as columns, so the database can hold them to the same rules as the API.
    .addColumn('sprite_x', 'integer', (c) => c.check(sql`sprite_x >= 0`))
    .addColumn('sprite_y', 'integer', (c) => c.check(sql`sprite_y >= 0`))
    .addColumn('sprite_width', 'integer', (c) => c.check(sql`sprite_width >= 1`))
    .addColumn('sprite_height', 'integer', (c) => c.check(sql`sprite_height >= 1`))
    .addColumn('sprite_sheet', 'text')
    .addColumn('emoji_category_id', 'integer', (c) => c.references('emoji_categories.id').onDelete('set null'))
    .addColumn('display_order', 'integer', (c) => c.notNull().check(sql`display_order >= 0`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    // An emoji is of one kind at most: Unicode text, a custom image or a sprite.
    .addCheckConstraint(
      'emojis_one_kind',
      sql`(case when emoji_text is null then 0 else 1 end) + (case when image_url is null then 0 else 1 end) + (case when sprite_mode then 1 else 0 end) <= 1`,
    )
    // Sprite parameters exist exactly when sprite mode is on, all five together.
    .addCheckConstraint(
      'emojis_sprite_params',
      sql`(sprite_mode and sprite_x is not null and sprite_y is not null and sprite_width is not null and sprite_height is not null and sprite_sheet is not null)
        or (not sprite_mode and sprite_x is null and sprite_y is null and sprite_width is null and sprite_height is null and sprite_sheet is null)`,
    )
    .execute();
  await db.schema.createIndex('emojis_order').on('emojis').columns(['display_order', 'id']).execute();
  await db.schema.createIndex('emojis_category_order').on('emojis').columns(['emoji_category_id', 'display_order', 'id']).execute();

  await db.schema
    .createTable('emoji_aliases')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('emoji_id', 'integer', (c) => c.notNull().references('emojis.id').onDelete('cascade'))
    .addColumn('alias', 'text', (c) => exactText(c, dialect).notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emoji_aliases_emoji').on('emoji_aliases').columns(['emoji_id', 'alias']).execute();

  // Shortcodes and aliases share one namespace: every code in use has one row
  // here, owned by exactly one emoji or one alias and removed with its owner.
  // The primary key is what makes "taken" hold under concurrent writes.
  await db.schema
    .createTable('emoji_codes')
    .addColumn('code', 'text', (c) => exactText(c, dialect).primaryKey())
    .addColumn('emoji_id', 'integer', (c) => c.unique().references('emojis.id').onDelete('cascade'))
    .addColumn('alias_id', 'integer', (c) => c.unique().references('emoji_aliases.id').onDelete('cascade'))
    .addCheckConstraint('emoji_codes_one_owner', sql`(emoji_id is null) <> (alias_id is null)`)
    .execute();
}
