// An emoji is of one kind at most: Unicode (emoji_text), custom image
// (image_url) or CSS sprite (sprite_mode with sprite_params). This decides
// what a create or update request leaves stored, and what it may not ask for.
//
// - A request that sets fields of two kinds is refused (422 on each of them).
// - A request that sets one kind makes the emoji that kind: the other kinds'
//   fields are cleared, so a PATCH can turn an image emoji into a Unicode one.
// - sprite_params are kept only while sprite_mode is on; they are then
//   required, all five members together; each missing member is an error
//   keyed by its own name (`sprite_params.x`), also when none was sent.
// - An empty emoji_text or image_url means "none" (null), as Laravel's
//   empty-string conversion did.
import type { FieldErrorBag } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import { SPRITE_MEMBERS } from './fields.ts';

export interface Sprite {
  x: number;
  y: number;
  width: number;
  height: number;
  sheet: string;
}

export interface KindFields {
  emoji_text: string | null;
  image_url: string | null;
  sprite_mode: boolean;
  sprite: Sprite | null;
}

export interface KindInput {
  emoji_text?: string | null | undefined;
  image_url?: string | null | undefined;
  sprite_mode?: boolean | undefined;
  sprite_params?: Partial<Sprite> | null | undefined;
}

export const NO_KIND: KindFields = { emoji_text: null, image_url: null, sprite_mode: false, sprite: null };

type KindField = 'emoji_text' | 'image_url' | 'sprite_mode';

/** What the emoji's kind fields become; problems go to `errors` (and `current` is returned). */
export function resolveKind(current: KindFields, input: KindInput, errors: FieldErrorBag): KindFields {
  const text = input.emoji_text === '' ? null : input.emoji_text;
  const image = input.image_url === '' ? null : input.image_url;

  const requested: KindField[] = [];
  if (text !== undefined && text !== null) requested.push('emoji_text');
  if (image !== undefined && image !== null) requested.push('image_url');
  if (input.sprite_mode === true) requested.push('sprite_mode');
  if (requested.length > 1) {
    for (const field of requested)
      errors.add(
        field,
        conflictMessage(
          field,
          requested.filter((other) => other !== field),
        ),
      );
    return current;
  }

  const next: KindFields = { ...current };
  if (text !== undefined) next.emoji_text = text;
  if (image !== undefined) next.image_url = image;
  if (input.sprite_mode !== undefined) next.sprite_mode = input.sprite_mode;
  const kind = requested[0];
  if (kind !== undefined) {
    if (kind !== 'emoji_text') next.emoji_text = null;
    if (kind !== 'image_url') next.image_url = null;
    if (kind !== 'sprite_mode') next.sprite_mode = false;
  }

  if (!next.sprite_mode) {
    next.sprite = null;
  } else if (input.sprite_params !== undefined) {
    next.sprite = completeSprite(input.sprite_params, errors);
  } else if (next.sprite === null) {
    completeSprite(null, errors);
  }
  return next;
}

/** All five members, or null with a "required" error keyed by each missing one (`sprite_params.x`, …). */
function completeSprite(params: Partial<Sprite> | null, errors: FieldErrorBag): Sprite | null {
  if (params === null) params = {};
  const missing = SPRITE_MEMBERS.filter((member) => params[member] === undefined);
  for (const member of missing) errors.add(`sprite_params.${member}`, requiredWithSpriteMode(`sprite_params.${member}`));
  if (missing.length > 0) return null;
  return { x: params.x!, y: params.y!, width: params.width!, height: params.height!, sheet: params.sheet! };
}

// In the reader's language; the API's English is Laravel's wording, field names as its labels.
function requiredWithSpriteMode(field: string): string {
  return t('validation.required_with_sprite', { field: fieldName(field) });
}

function conflictMessage(field: KindField, others: KindField[]): string {
  const reasons = others.map((other) =>
    other === 'sprite_mode' ? t('validation.when_sprite_mode') : t('validation.when_present', { field: fieldName(other) }),
  );
  const because = reasons.reduce((first, second) => t('list.or', { first, second }));
  return t(field === 'sprite_mode' ? 'validation.false_when' : 'validation.empty_when', { field: fieldName(field), because });
}
