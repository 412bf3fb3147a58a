// The emoji form: its fields for the three kinds, the mapping from a
// submitted form to the API's body (validated by the API's schema and then
// by EmojiService, which owns the rules of kinds, codes and categories), and
// the preview drawn by the forum's own emoji renderer.
import type { EmojiRow } from '../emoji/resource.ts';
import { EMOJI_TEXT_MAX, IMAGE_URL_MAX, SPRITE_SHEET_MAX, TITLE_MAX } from '../emoji/fields.ts';
import { IMAGE_RULES } from '../emoji/images/store.ts';
import { isFileName } from '../uploads/content-files.ts';
import type { CategoryRow } from '../emoji/resource.ts';
import { emojiHtml } from '../forum/render.ts';
import type { FieldErrors } from '../http/errors.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { tHtml } from '../web/translated.ts';
import { errorsFor, fieldId, radioGroup, selectField, textInput, type FormState } from '../web/form-controls.ts';
import { text, type SubmittedForm } from '../web/form.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import { formatBytes } from '../i18n/sizes.ts';

export const EMOJI_KINDS = ['unicode', 'image', 'sprite'] as const;
export type EmojiKind = (typeof EMOJI_KINDS)[number];

/** Each kind's name (catalog keys). */
export const KIND_LABELS: Record<EmojiKind, TextKey> = {
  unicode: 'admin.emoji_kind.unicode',
  image: 'admin.emoji_kind.image',
  sprite: 'admin.emoji_kind.sprite',
};

const SPRITE_MEMBERS = ['sheet', 'x', 'y', 'width', 'height'] as const;
const member = (name: string) => `sprite_params.${name}`;

export function kindOf(row: EmojiRow): EmojiKind | null {
  if (row.emoji_text !== null) return 'unicode';
  if (row.image_url !== null) return 'image';
  if (row.sprite_mode) return 'sprite';
  return null;
}

/** The form's values for a stored emoji. */
export function rowValues(row: EmojiRow): Record<string, unknown> {
  return {
    title: row.title,
    emoji_shortcode: row.emoji_shortcode,
    display_order: row.display_order,
    emoji_category_id: row.emoji_category_id ?? '',
    kind: kindOf(row) ?? '',
    emoji_text: row.emoji_text ?? '',
    image_url: row.image_url ?? '',
    [member('sheet')]: row.sprite_sheet ?? '',
    [member('x')]: row.sprite_x ?? '',
    [member('y')]: row.sprite_y ?? '',
    [member('width')]: row.sprite_width ?? '',
    [member('height')]: row.sprite_height ?? '',
  };
}

/** The submitted values as shown again in the form (every sprite member present, so its errors show beside it). */
export function submittedValues(form: SubmittedForm, imageUrl?: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of ['title', 'emoji_shortcode', 'display_order', 'emoji_category_id', 'kind', 'emoji_text', 'image_url', ...SPRITE_MEMBERS.map(member)]) {
    values[name] = text(form, name) ?? '';
  }
  if (imageUrl !== undefined) values['image_url'] = imageUrl;
  return values;
}

export interface EmojiBody {
  /** The API's create/update body, still as text: the API's schema coerces and checks it. */
  body: Record<string, unknown>;
  /**
   * "No category" was chosen. It is set to null after the schema check:
   * coercing form text would turn a null into 0 there.
   */
  noCategory: boolean;
  /** What the form itself requires: a kind, and that kind's field. */
  errors: FieldErrors;
}

/**
 * The API body for the kind chosen in the form. Only the chosen kind's fields
 * are sent: the service then makes the emoji that kind and clears the others.
 */
export function emojiBody(values: Readonly<Record<string, unknown>>): EmojiBody {
  const value = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
  };
  const body: Record<string, unknown> = { title: value('title'), emoji_shortcode: value('emoji_shortcode') };
  if (value('display_order') !== '') body['display_order'] = value('display_order');
  const noCategory = value('emoji_category_id') === '';
  if (!noCategory) body['emoji_category_id'] = value('emoji_category_id');

  const errors: FieldErrors = {};
  const kind = EMOJI_KINDS.find((k) => k === value('kind'));
  switch (kind) {
    case undefined:
      errors['kind'] = [t('admin.emoji_form.choose_kind')];
      break;
    case 'unicode':
      body['emoji_text'] = value('emoji_text');
      if (value('emoji_text') === '') errors['emoji_text'] = [t('admin.emoji_form.text_required')];
      break;
    case 'image':
      body['image_url'] = value('image_url');
      if (value('image_url') === '') errors['image_url'] = [t('admin.emoji_form.image_required')];
      break;
    case 'sprite': {
      body['sprite_mode'] = true;
      const params: Record<string, string> = {};
      for (const name of SPRITE_MEMBERS) if (value(member(name)) !== '') params[name] = value(member(name));
      body['sprite_params'] = params;
      break;
    }
  }
  return { body, noCategory, errors };
}

/** An unsaved emoji as the forum would draw it, or null when the chosen kind lacks what it needs. */
export function previewRow(values: Readonly<Record<string, unknown>>): EmojiRow | null {
  const value = (name: string) => String(values[name] ?? '');
  const kind = value('kind');
  const base: EmojiRow = {
    id: 0,
    title: value('title') || t('admin.emojis.preview'),
    emoji_shortcode: value('emoji_shortcode') || ':preview:',
    emoji_text: null,
    image_url: null,
    sprite_mode: false,
    sprite_x: null,
    sprite_y: null,
    sprite_width: null,
    sprite_height: null,
    sprite_sheet: null,
    emoji_category_id: null,
    display_order: 0,
    created_at: '',
    updated_at: '',
  };
  if (kind === 'unicode') return value('emoji_text') === '' ? null : { ...base, emoji_text: value('emoji_text') };
  if (kind === 'image') return value('image_url') === '' ? null : { ...base, image_url: value('image_url') };
  if (kind === 'sprite') {
    const number = (name: string, min: number) =>
      /^\d{1,5}$/.test(value(member(name))) && Number(value(member(name))) >= min ? Number(value(member(name))) : null;
    const sheet = value(member('sheet'));
    const [x, y, width, height] = [number('x', 0), number('y', 0), number('width', 1), number('height', 1)];
    if (!isFileName(sheet) || x === null || y === null || width === null || height === null || width > 512 || height > 512) return null;
    return { ...base, sprite_mode: true, sprite_sheet: sheet, sprite_x: x, sprite_y: y, sprite_width: width, sprite_height: height };
  }
  return null;
}

const PREVIEW_HELP: Record<EmojiKind, TextKey> = {
  unicode: 'admin.emoji_form.preview_unicode',
  image: 'admin.emoji_form.preview_image',
  sprite: 'admin.emoji_form.preview_sprite',
};

/** What the preview box shows: the emoji as posts will show it, with its code. */
export function emojiPreview(values: Readonly<Record<string, unknown>>): SafeHtml {
  const row = previewRow(values);
  if (row === null) {
    const kind = EMOJI_KINDS.find((k) => k === values['kind']);
    return html`<span class="muted">${t(kind === undefined ? 'admin.emoji_form.preview_kind' : PREVIEW_HELP[kind])}</span>`;
  }
  return html`${emojiHtml(row, row.emoji_shortcode)} <span>${tHtml('admin.emoji_form.shown_as', { code: html`<code>${row.emoji_shortcode}</code>` })}</span>`;
}

export interface EmojiFormContext {
  categories: readonly CategoryRow[];
  /** Uploaded sprite sheet names, offered for the sheet field. */
  sheets: readonly string[];
}

export function emojiFields(form: FormState, context: EmojiFormContext): SafeHtml {
  const imageFileId = fieldId(form, 'image_file');
  const imageFileErrors = errorsFor(form, 'image_file');
  return html`${textInput(form, { name: 'title', label: t('admin.emojis.emoji_title'), required: true, maxlength: TITLE_MAX, hint: t('admin.emoji_form.title_hint') })}
  ${textInput(form, { name: 'emoji_shortcode', label: t('admin.emojis.shortcode'), required: true, maxlength: 255, hint: t('admin.emoji_form.shortcode_hint') })}
  ${textInput(form, { name: 'display_order', label: t('admin.position'), type: 'number', required: true, min: 0, hint: t('admin.emoji_form.position_hint') })}
  ${selectField(form, { name: 'emoji_category_id', label: t('admin.emojis.category'), blank: t('admin.emojis.no_category'), options: context.categories.map((category) => ({ value: String(category.id), label: category.title })) })}
  ${radioGroup(form, { name: 'kind', label: t('admin.emojis.kind'), required: true, options: EMOJI_KINDS.map((kind) => ({ value: kind, label: t(KIND_LABELS[kind]) })) })}
  <fieldset class="kind-fields kind-unicode">
    <legend>${t(KIND_LABELS.unicode)}</legend>
    ${textInput(form, { name: 'emoji_text', label: t('admin.emoji_form.emoji_text'), hint: t('admin.emoji_form.emoji_text_hint', { max: String(EMOJI_TEXT_MAX) }) })}
  </fieldset>
  <fieldset class="kind-fields kind-image">
    <legend>${t(KIND_LABELS.image)}</legend>
    <div class="field">
      <label for="${imageFileId}">${t('admin.emoji_form.image_file')}</label>
      <p class="hint" id="${imageFileId}-hint">${t('admin.emoji_form.image_file_hint', { size: formatBytes(IMAGE_RULES.custom.maxBytes), width: String(IMAGE_RULES.custom.maxWidth), height: String(IMAGE_RULES.custom.maxHeight) })}</p>
      <input id="${imageFileId}" name="image_file" type="file" accept="image/png,image/gif,image/webp,image/jpeg" data-preview="${imageFileId}-preview" aria-describedby="${imageFileId}-hint${imageFileErrors.length > 0 ? ` ${imageFileId}-error` : ''}"${imageFileErrors.length > 0 ? html` aria-invalid="true"` : ''}>
      ${imageFileErrors.length > 0 ? html`<p class="field-error" id="${imageFileId}-error">${imageFileErrors.join(' ')}</p>` : ''}
      <div id="${imageFileId}-preview" aria-live="polite"></div>
    </div>
    ${textInput(form, { name: 'image_url', label: t('admin.emoji_form.image_url'), maxlength: IMAGE_URL_MAX, hint: t('admin.emoji_form.image_url_hint') })}
  </fieldset>
  <fieldset class="kind-fields kind-sprite">
    <legend>${t(KIND_LABELS.sprite)}</legend>
    ${errorsFor(form, 'sprite_params').length > 0 ? html`<p class="field-error" id="${fieldId(form, 'sprite_params')}">${errorsFor(form, 'sprite_params').join(' ')}</p>` : ''}
    ${textInput(form, { name: member('sheet'), label: t('admin.emoji_form.sheet'), maxlength: SPRITE_SHEET_MAX, list: `${form.id}-sheets`, hint: t('admin.emoji_form.sheet_hint') })}
    <datalist id="${form.id}-sheets">${context.sheets.map((sheet) => html`<option value="${sheet}"></option>`)}</datalist>
    <div class="sprite-numbers">
      ${textInput(form, { name: member('x'), label: t('admin.emoji_form.x'), type: 'number', min: 0 })}
      ${textInput(form, { name: member('y'), label: t('admin.emoji_form.y'), type: 'number', min: 0 })}
      ${textInput(form, { name: member('width'), label: t('admin.emoji_form.width'), type: 'number', min: 1 })}
      ${textInput(form, { name: member('height'), label: t('admin.emoji_form.height'), type: 'number', min: 1 })}
    </div>
  </fieldset>`;
}
