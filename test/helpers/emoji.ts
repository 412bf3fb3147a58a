// Emoji catalog fixtures, made through the same services the app uses.
import type { AliasRow, CategoryRow, EmojiRow } from '../../src/emoji/resource.ts';
import type { NewEmoji } from '../../src/emoji/emoji-service.ts';
import type { TestApp } from './app.ts';

let counter = 0;

/** A code no other fixture uses: `:name_<n>:`. */
export function uniqueCode(name = 'code'): string {
  counter += 1;
  return `:${name}_${process.pid}_${counter}:`;
}

export function makeCategory(t: TestApp, values: { title?: string; display_order?: number } = {}): Promise<CategoryRow> {
  return t.services.emoji.categories.create({ title: values.title ?? 'Category', display_order: values.display_order ?? 0 });
}

export function makeEmoji(t: TestApp, values: Partial<NewEmoji> = {}): Promise<EmojiRow> {
  return t.services.emoji.emojis.create({
    title: 'Emoji',
    emoji_text: '🙂',
    display_order: 0,
    ...values,
    emoji_shortcode: values.emoji_shortcode ?? uniqueCode('emoji'),
  });
}

export function makeAlias(t: TestApp, emoji: { id: number }, alias?: string): Promise<AliasRow> {
  return t.services.emoji.aliases.create({ emoji_id: emoji.id, alias: alias ?? uniqueCode('alias') });
}

/** `YYYY-MM-DDTHH:MM:SSZ`, no fraction. */
export const API_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const EMOJI_KEYS = [
  'id',
  'title',
  'emoji_text',
  'emoji_shortcode',
  'image_url',
  'sprite_mode',
  'sprite_params',
  'display_order',
  'category',
  'aliases',
  'aliases_count',
  'created_at',
  'updated_at',
];
export const ALIAS_KEYS = ['id', 'alias', 'emoji', 'created_at', 'updated_at'];
export const CATEGORY_KEYS = ['id', 'title', 'display_order', 'emojis_count', 'emojis', 'created_at', 'updated_at'];
