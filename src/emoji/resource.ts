// The JSON shapes of emojis, aliases and categories, each built by exactly one
// function. Relations that were not loaded are present as null, never missing.
//
// The schemas are spelled out per nesting level (an emoji inside a category's
// `emojis` never carries that category again, an alias inside an emoji never
// carries the emoji back), so the OpenAPI document says exactly what each
// endpoint returns and serialization needs no recursion.
import type { Selectable } from 'kysely';
import { Type, type Static, type TSchema } from 'typebox';
import type { EmojiAliasesTable, EmojiCategoriesTable, EmojisTable } from '../db/schema.ts';
import { Nullable } from '../http/schemas.ts';

export type EmojiRow = Selectable<EmojisTable>;
export type AliasRow = Selectable<EmojiAliasesTable>;
export type CategoryRow = Selectable<EmojiCategoriesTable>;

/** Where sprite sheets named in `sprite_params.sheet` are served (the image store writes there, the forum renderer draws from it). */
export const SPRITE_SHEET_PATH = '/emojis/sprites/';

// A pattern, not `format: 'date-time'`: the serializer would check that format
// on every timestamp it writes (a tenth of the time of a page of emojis).
const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', description: 'UTC, YYYY-MM-DDTHH:MM:SSZ' });

const SpriteParams = Type.Object({
  x: Type.Integer(),
  y: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  sheet: Type.String(),
});

function aliasShape<E extends TSchema>(emoji: E) {
  return Type.Object({
    id: Type.Integer(),
    alias: Type.String(),
    emoji,
    created_at: Timestamp,
    updated_at: Timestamp,
  });
}

function categoryShape<C extends TSchema, E extends TSchema>(emojisCount: C, emojis: E) {
  return Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    display_order: Type.Integer(),
    emojis_count: emojisCount,
    emojis,
    created_at: Timestamp,
    updated_at: Timestamp,
  });
}

function emojiShape<C extends TSchema, A extends TSchema, N extends TSchema>(category: C, aliases: A, aliasesCount: N) {
  return Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    emoji_text: Nullable(Type.String()),
    emoji_shortcode: Type.String(),
    image_url: Nullable(Type.String()),
    sprite_mode: Type.Boolean(),
    sprite_params: Nullable(SpriteParams),
    display_order: Type.Integer(),
    category,
    aliases,
    aliases_count: aliasesCount,
    created_at: Timestamp,
    updated_at: Timestamp,
  });
}

/** An alias inside an emoji: its emoji is the one around it, so null. */
export const NestedAlias = aliasShape(Type.Null());
/** A category inside an emoji: counts and emojis not loaded. */
export const NestedCategory = categoryShape(Type.Null(), Type.Null());

/** The emoji resource of the emoji endpoints. */
export const Emoji = emojiShape(
  Nullable(NestedCategory),
  Nullable(Type.Array(NestedAlias)),
  Nullable(Type.Integer({ description: 'Number of aliases, on list items when with_aliases=1; null otherwise' })),
);
/** An emoji inside a category: the category is the one around it, so null. */
export const CategoryEmoji = emojiShape(Type.Null(), Nullable(Type.Array(NestedAlias)), Type.Null());
/** An emoji inside an alias: with its category, without aliases. */
export const AliasEmoji = emojiShape(Nullable(NestedCategory), Type.Null(), Type.Null());

/** The alias resource of the alias endpoints. */
export const Alias = aliasShape(Nullable(AliasEmoji));
/** The category resource of the category endpoints. */
export const Category = categoryShape(
  Nullable(Type.Integer({ description: 'Number of emojis, on the list when with_emojis=1; null otherwise' })),
  Nullable(Type.Array(CategoryEmoji)),
);

export type EmojiResource = Static<typeof Emoji>;
export type AliasResource = Static<typeof Alias>;
export type CategoryResource = Static<typeof Category>;
type NestedCategoryResource = Static<typeof NestedCategory>;
type NestedAliasResource = Static<typeof NestedAlias>;

// Each builder is generic in its relations: what the caller loaded (or null)
// is what the type says, so every endpoint's return value is checked against
// the schema of that endpoint.

export function emojiResource<C extends NestedCategoryResource | null = null, A extends NestedAliasResource[] | null = null, N extends number | null = null>(
  row: EmojiRow,
  relations: { category?: C; aliases?: A; aliasesCount?: N } = {},
) {
  return {
    id: row.id,
    title: row.title,
    emoji_text: row.emoji_text,
    emoji_shortcode: row.emoji_shortcode,
    image_url: row.image_url,
    sprite_mode: Boolean(row.sprite_mode),
    sprite_params: spriteParams(row),
    display_order: row.display_order,
    category: (relations.category ?? null) as C,
    aliases: (relations.aliases ?? null) as A,
    aliases_count: (relations.aliasesCount ?? null) as N,
    created_at: apiTimestamp(row.created_at),
    updated_at: apiTimestamp(row.updated_at),
  };
}

export function aliasResource<E extends Static<typeof AliasEmoji> | null = null>(row: AliasRow, emoji: E = null as E) {
  return {
    id: row.id,
    alias: row.alias,
    emoji,
    created_at: apiTimestamp(row.created_at),
    updated_at: apiTimestamp(row.updated_at),
  };
}

export function categoryResource<N extends number | null = null, E extends Static<typeof CategoryEmoji>[] | null = null>(
  row: CategoryRow,
  relations: { emojisCount?: N; emojis?: E } = {},
) {
  return {
    id: row.id,
    title: row.title,
    display_order: row.display_order,
    emojis_count: (relations.emojisCount ?? null) as N,
    emojis: (relations.emojis ?? null) as E,
    created_at: apiTimestamp(row.created_at),
    updated_at: apiTimestamp(row.updated_at),
  };
}

function spriteParams(row: EmojiRow): Static<typeof SpriteParams> | null {
  if (
    !row.sprite_mode ||
    row.sprite_x === null ||
    row.sprite_y === null ||
    row.sprite_width === null ||
    row.sprite_height === null ||
    row.sprite_sheet === null
  ) {
    return null;
  }
  return { x: row.sprite_x, y: row.sprite_y, width: row.sprite_width, height: row.sprite_height, sheet: row.sprite_sheet };
}

/** Stored ISO time (with milliseconds) → the catalog's `YYYY-MM-DDTHH:MM:SSZ`. */
export function apiTimestamp(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}
