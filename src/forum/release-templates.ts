// Release templates (migration 0045; docs/release-templates.md; TorrentPier's
// posting templates): what a forum's new releases ask for and how their title
// and opening post are laid out from it. The post is built once, when the
// topic is made, and is an ordinary post from then on (its author edits it as
// any other); the values are kept beside the topic, so that the filterable
// fields select topics on the forum page and through the API.
import type { Kysely, Transaction } from 'kysely';
import { type Clock, isoNow } from '../clock.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { Database } from '../db/schema.ts';
import { Snapshot } from '../db/snapshot.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { FieldErrorBag, ModelNotFoundError } from '../http/errors.ts';
import { safeUrl } from '../http/safe-url.ts';
import { hasVisibleCharacter, isStorableText } from '../http/validation.ts';
import { t } from '../i18n/messages.ts';
import { formatBytes } from '../i18n/sizes.ts';

export const RELEASE_FIELD_KINDS = ['text', 'number', 'choice', 'image', 'size'] as const;
export type ReleaseFieldKind = (typeof RELEASE_FIELD_KINDS)[number];

/** A field's key: what `{key}` in a layout names and what forms and the API send it as. */
export const FIELD_KEY = /^[a-z][a-z0-9_]{0,31}$/;
export const FIELDS_MAX = 30;
export const LABEL_MAX = 100;
export const CHOICES_MAX = 50;
export const CHOICE_MAX = 100;
export const TITLE_LAYOUT_MAX = 255;
export const BODY_LAYOUT_MAX = 20_000;
/** A text value: a line or a short paragraph (the post's own text is the description). */
export const VALUE_MAX = 1_000;
/** A composed title and post are a topic's: the limits of TOPIC_TITLE_MAX and POST_BODY_MAX (forum/routes.ts, which imports this module's service). */
const COMPOSED_TITLE_MAX = 255;
const COMPOSED_BODY_MAX = 60_000;
/** The largest number or size a field takes: a petabyte, in bytes. */
const NUMBER_MAX = 2 ** 50;

export interface ReleaseField {
  id: number;
  key: string;
  label: string;
  kind: ReleaseFieldKind;
  required: boolean;
  /** Offered as a filter of the forum's topics (choice and number fields). */
  filterable: boolean;
  /** A choice field's options; empty for the others. */
  choices: string[];
}

export interface ReleaseTemplate {
  forumId: number;
  /** The title, `{title}` being what the author typed and `{key}` a field's value; empty: the typed title alone. */
  titleLayout: string;
  /** The opening post in BBCode with `{key}` and `{description}`; empty: each field on a line, then the description. */
  bodyLayout: string;
  fields: ReleaseField[];
}

export interface ReleaseFieldInput {
  key: string;
  label: string;
  kind: ReleaseFieldKind;
  required: boolean;
  filterable: boolean;
  choices: readonly string[];
}

export interface ReleaseTemplateInput {
  title_layout: string;
  body_layout: string;
  fields: readonly ReleaseFieldInput[];
}

/** A release's values as its topic keeps them. */
export interface ReleaseValue {
  fieldId: number;
  value: string;
  number: number | null;
}

/** What a release template made of a new topic. */
export interface ComposedRelease {
  title: string;
  body: string;
  values: ReleaseValue[];
}

const RELEASE_TEMPLATES_TOPIC = 'release-templates';

export class ReleaseTemplates {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  /** Every forum's template by forum: few, and read by every new-topic form, so kept in memory (db/snapshot.ts). */
  readonly #snapshot: Snapshot<ReadonlyMap<number, ReleaseTemplate>>;

  constructor(db: Kysely<Database>, database: { writes: WriteWatch; changes: ChangeFeed }, clock: Clock, onError: (error: unknown) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#snapshot = new Snapshot(
      { topic: RELEASE_TEMPLATES_TOPIC, tables: new Set(['release_templates', 'release_fields']), load: () => this.#read() },
      database,
      onError,
    );
  }

  /** The forum's template; null when it has none. */
  async of(forumId: number): Promise<ReleaseTemplate | null> {
    return (await this.#snapshot.current()).get(forumId) ?? null;
  }

  async #read(): Promise<Map<number, ReleaseTemplate>> {
    const [templates, fields] = await Promise.all([
      this.#db.selectFrom('release_templates').selectAll().execute(),
      this.#db.selectFrom('release_fields').selectAll().orderBy('position').execute(),
    ]);
    const fieldsOf = Map.groupBy(fields, (row) => row.forum_id);
    return new Map(
      templates.map((template) => [
        template.forum_id,
        {
          forumId: template.forum_id,
          titleLayout: template.title_layout,
          bodyLayout: template.body_layout,
          fields: (fieldsOf.get(template.forum_id) ?? []).map((row) => ({
            id: row.id,
            key: row.key,
            label: row.label,
            kind: row.kind,
            required: Boolean(row.required),
            filterable: Boolean(row.filterable),
            choices: row.choices === '' ? [] : row.choices.split('\n'),
          })),
        },
      ]),
    );
  }

  /**
   * Sets the forum's template whole. A field whose key the template keeps
   * keeps its id, so the releases made with it keep their values; a field
   * left out goes with its values.
   */
  async set(forumId: number, input: ReleaseTemplateInput): Promise<ReleaseTemplate> {
    const checked = checkedTemplate(input);
    await this.#db.transaction().execute(async (trx) => {
      const at = isoNow(this.#clock);
      const template = { title_layout: checked.title_layout, body_layout: checked.body_layout, updated_at: at };
      await trx
        .insertInto('release_templates')
        .values({ forum_id: forumId, ...template })
        .onConflict((conflict) => conflict.column('forum_id').doUpdateSet(template))
        .execute();
      const kept = checked.fields.map((field) => field.key);
      let stale = trx.deleteFrom('release_fields').where('forum_id', '=', forumId);
      if (kept.length > 0) stale = stale.where('key', 'not in', kept);
      await stale.execute();
      for (const [position, field] of checked.fields.entries()) {
        const row = {
          position,
          label: field.label,
          kind: field.kind,
          required: field.required,
          filterable: field.filterable,
          choices: field.choices.join('\n'),
        };
        await trx
          .insertInto('release_fields')
          .values({ forum_id: forumId, key: field.key, ...row })
          .onConflict((conflict) => conflict.columns(['forum_id', 'key']).doUpdateSet(row))
          .execute();
      }
    });
    this.#snapshot.changed();
    return (await this.of(forumId))!;
  }

  async remove(forumId: number): Promise<void> {
    const deleted = await this.#db.deleteFrom('release_templates').where('forum_id', '=', forumId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new ModelNotFoundError('Release template', forumId);
    this.#snapshot.changed();
  }

  /** Keeps a new topic's values, in its transaction. */
  async save(trx: Transaction<Database>, topicId: number, values: readonly ReleaseValue[]): Promise<void> {
    if (values.length === 0) return;
    await trx
      .insertInto('release_values')
      .values(values.map((value) => ({ topic_id: topicId, field_id: value.fieldId, value: value.value, number_value: value.number })))
      .execute();
  }

  /** A topic's release values, in its template's order. */
  valuesOf(topicId: number): Promise<Array<{ key: string; label: string; kind: ReleaseFieldKind; value: string }>> {
    return this.#db
      .selectFrom('release_values')
      .innerJoin('release_fields', 'release_fields.id', 'release_values.field_id')
      .select(['release_fields.key', 'release_fields.label', 'release_fields.kind', 'release_values.value'])
      .where('release_values.topic_id', '=', topicId)
      .orderBy('release_fields.position')
      .execute();
  }
}

/**
 * The release filters of a query string (`release.quality=1080p`): the
 * fields' keys and the values asked for. Each key once (its last value), at
 * most a template's worth, each value as long as a choice may be; anything
 * else is not a filter and is left alone.
 */
export function releaseFiltersIn(query: URLSearchParams): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [name, value] of query) {
    if (!name.startsWith('release.')) continue;
    const key = name.slice('release.'.length);
    if (!FIELD_KEY.test(key) || value.length > CHOICE_MAX || (Object.keys(filters).length >= FIELDS_MAX && !(key in filters))) continue;
    filters[key] = value;
  }
  return filters;
}

/**
 * The title and opening post a template makes of what the author typed (the
 * title and the description) and the fields' values; the field errors are
 * named `release.{key}`, every one at once.
 */
export function composeRelease(template: ReleaseTemplate, typed: { title: string; body: string }, given: Readonly<Record<string, string>>): ComposedRelease {
  const errors = new FieldErrorBag();
  const values: ReleaseValue[] = [];
  const shown = new Map<string, string>();
  for (const field of template.fields) {
    const raw = (given[field.key] ?? '').trim();
    const name = `release.${field.key}`;
    if (!isStorableText(raw)) {
      errors.add(name, t('release.error.unstorable'));
      continue;
    }
    if (raw === '') {
      if (field.required) errors.add(name, t('release.error.required', { label: field.label }));
      shown.set(field.key, '');
      continue;
    }
    const value = fieldValue(field, raw);
    if ('error' in value) {
      errors.add(name, value.error);
      continue;
    }
    values.push({ fieldId: field.id, value: value.stored, number: value.number });
    shown.set(field.key, value.shown);
  }
  for (const key of Object.keys(given)) {
    if (!template.fields.some((field) => field.key === key)) errors.add(`release.${key}`, t('release.error.unknown'));
  }
  errors.throwIfAny();
  const fill = (layout: string, extra: Record<string, string>) =>
    layout.replace(/\{([a-z][a-z0-9_]{0,31})\}/g, (whole, key: string) => extra[key] ?? shown.get(key) ?? whole);
  const title = template.titleLayout === '' ? typed.title : fill(template.titleLayout, { title: typed.title }).replace(/\s+/g, ' ').trim();
  const body =
    template.bodyLayout === ''
      ? [...template.fields.filter((field) => shown.get(field.key)).map((field) => defaultLine(field, shown.get(field.key)!)), '', typed.body].join('\n').trim()
      : template.bodyLayout
          .split('\n')
          .filter((line) => !onlyEmptyFields(line, shown))
          .map((line) => fill(line, { description: typed.body }))
          .join('\n')
          .trim();
  if (title.length > COMPOSED_TITLE_MAX) errors.add('title', t('release.error.title_long', { max: COMPOSED_TITLE_MAX }));
  if (body.length > COMPOSED_BODY_MAX) errors.add('body', t('release.error.long', { max: COMPOSED_BODY_MAX }));
  errors.throwIfAny();
  return { title, body, values };
}

/** A layout line that names fields and only empty ones (`[img]{poster}[/img]` without a poster): it is left out. */
function onlyEmptyFields(line: string, shown: ReadonlyMap<string, string>): boolean {
  const keys = [...line.matchAll(/\{([a-z][a-z0-9_]{0,31})\}/g)].map((match) => match[1]!).filter((key) => shown.has(key));
  return keys.length > 0 && keys.every((key) => shown.get(key) === '');
}

function defaultLine(field: ReleaseField, shown: string): string {
  return field.kind === 'image' ? `[img]${shown}[/img]` : `[b]${field.label}:[/b] ${shown}`;
}

type Parsed = { stored: string; shown: string; number: number | null } | { error: string };

/** One field's value as typed: what is kept, what the post shows, its number; or why it is refused. */
function fieldValue(field: ReleaseField, raw: string): Parsed {
  switch (field.kind) {
    case 'text':
      if (raw.length > VALUE_MAX) return { error: t('release.error.long', { max: VALUE_MAX }) };
      if (!hasVisibleCharacter(raw)) return { error: t('release.error.required', { label: field.label }) };
      return { stored: raw, shown: raw, number: null };
    case 'number': {
      if (!/^\d{1,16}$/.test(raw) || Number(raw) > NUMBER_MAX) return { error: t('release.error.number') };
      return { stored: String(Number(raw)), shown: String(Number(raw)), number: Number(raw) };
    }
    case 'choice':
      return field.choices.includes(raw) ? { stored: raw, shown: raw, number: null } : { error: t('release.error.choice') };
    case 'image': {
      const url = safeUrl(raw);
      if (url === undefined || raw.length > VALUE_MAX || !/^https?:\/\//i.test(url)) return { error: t('release.error.image') };
      return { stored: url, shown: url, number: null };
    }
    case 'size': {
      const bytes = sizeInBytes(raw);
      if (bytes === null) return { error: t('release.error.size') };
      return { stored: String(bytes), shown: formatBytes(bytes), number: bytes };
    }
  }
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  б: 1,
  kb: 1024,
  kib: 1024,
  кб: 1024,
  киб: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  мб: 1024 ** 2,
  миб: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  гб: 1024 ** 3,
  гиб: 1024 ** 3,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  тб: 1024 ** 4,
  тиб: 1024 ** 4,
};

/** "1.4 GB", "700 MiB", "1,5 ГБ", "123456" (bytes): binary units, as the site writes sizes; null when it is none. */
export function sizeInBytes(text: string): number | null {
  const match = /^(\d{1,16}(?:[.,]\d{1,3})?)\s*([a-zа-я]{0,3})$/i.exec(text.trim());
  if (match === null) return null;
  const unit = SIZE_UNITS[match[2]!.toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.round(Number(match[1]!.replace(',', '.')) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 && bytes <= NUMBER_MAX ? bytes : null;
}

/** The template's fields as written, or 422 naming each wrong one (`fields.{n}.key` …). */
function checkedTemplate(input: ReleaseTemplateInput): ReleaseTemplateInput {
  const errors = new FieldErrorBag();
  // A form's text reaches here unchecked by a schema: none may hold what no database stores.
  if (!isStorableText(input.title_layout)) errors.add('title_layout', t('release.error.unstorable'));
  if (!isStorableText(input.body_layout)) errors.add('body_layout', t('release.error.unstorable'));
  if (input.title_layout.length > TITLE_LAYOUT_MAX) errors.add('title_layout', t('release.error.long', { max: TITLE_LAYOUT_MAX }));
  if (input.body_layout.length > BODY_LAYOUT_MAX) errors.add('body_layout', t('release.error.long', { max: BODY_LAYOUT_MAX }));
  if (input.fields.length === 0 || input.fields.length > FIELDS_MAX) errors.add('fields', t('release.error.fields', { max: FIELDS_MAX }));
  const keys = new Set<string>();
  const fields = input.fields.map((field, index) => {
    const at = `fields.${index}`;
    const key = field.key.trim();
    if (!FIELD_KEY.test(key) || key === 'title' || key === 'description') errors.add(`${at}.key`, t('release.error.key'));
    else if (keys.has(key)) errors.add(`${at}.key`, t('release.error.key_taken'));
    keys.add(key);
    for (const part of ['key', 'label', 'choices'] as const) {
      const value = part === 'choices' ? field.choices.join('\n') : field[part];
      if (!isStorableText(value)) errors.add(`${at}.${part}`, t('release.error.unstorable'));
    }
    const label = field.label.trim();
    if (!hasVisibleCharacter(label) || label.length > LABEL_MAX) errors.add(`${at}.label`, t('release.error.label', { max: LABEL_MAX }));
    const choices = [...new Set(field.choices.map((choice) => choice.trim()).filter((choice) => choice !== ''))];
    if (
      field.kind === 'choice' &&
      (choices.length < 2 || choices.length > CHOICES_MAX || choices.some((choice) => choice.length > CHOICE_MAX || choice.includes('\n')))
    ) {
      errors.add(`${at}.choices`, t('release.error.choices', { max: CHOICES_MAX }));
    }
    if (field.filterable && field.kind !== 'choice' && field.kind !== 'number') errors.add(`${at}.filterable`, t('release.error.filterable'));
    return { ...field, key, label, choices: field.kind === 'choice' ? choices : [] };
  });
  errors.throwIfAny();
  return { title_layout: input.title_layout.trim(), body_layout: input.body_layout.replace(/\r\n?/g, '\n').trim(), fields };
}
