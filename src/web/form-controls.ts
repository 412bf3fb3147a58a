// The one set of form controls, for the public pages and the admin pages:
// each with its label, hint and errors wired for assistive technology
// (aria-invalid, aria-describedby), filled from a FormState (the values as
// submitted or from the record, the errors by field). The messages are the
// API's: forms are validated with the same schemas (checkForm, form routes)
// and services, in the reader's language (docs/i18n.md). Reading a
// submission and showing it again is form.ts.
import type { FieldErrors } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { html, type SafeHtml } from './html.ts';

/** What a form shows: values (as submitted, or from the record) and errors by field. */
export interface FormState {
  /**
   * Prefix of element ids, unique on the page (several forms may show the
   * same fields). Empty: the ids are the field names (a page's one form).
   */
  id: string;
  values: Readonly<Record<string, unknown>>;
  errors: FieldErrors;
  /**
   * Whether labels of required fields say "(required)". The admin's forms
   * mix required and optional fields and do; the public pages' forms are
   * all required fields (the browser says so on submit) and leave it out.
   */
  marksRequired: boolean;
}

export function formState(id: string, values: Readonly<Record<string, unknown>> = {}, errors: FieldErrors = {}): FormState {
  return { id, values, errors, marksRequired: true };
}

/** A public page's form: ids are the field names unless `id` is given, and required fields are not marked. */
export function pageFormState(values: Readonly<Record<string, unknown>> = {}, errors: FieldErrors = {}, id = ''): FormState {
  return { id, values, errors, marksRequired: false };
}

export interface Option {
  value: string;
  /** Text, or markup built by the caller (a poll answer with its count). */
  label: string | SafeHtml;
}

export function options(values: readonly string[], label: (value: string) => string = humanize): Option[] {
  return values.map((value) => ({ value, label: label(value) }));
}

/** `private_messages` → `Private messages` */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface FieldOptions {
  name: string;
  label: string;
  /** Element id instead of the form's prefix and the name (two fields of one name on a page). */
  id?: string;
  /** For controls inside a table row: the label is read out but not shown (the column says it). */
  hideLabel?: boolean;
  hint?: string;
  required?: boolean;
}

interface InputOptions extends FieldOptions {
  /** A password field never shows a value again. */
  type?: 'text' | 'number' | 'search' | 'url' | 'email' | 'password' | 'date';
  min?: number;
  max?: number;
  maxlength?: number;
  /** Pattern-like help for the browser only; the server decides. */
  inputmode?: string;
  autocomplete?: string;
  list?: string;
  /** htmx or data attributes, trusted markup built by the caller. */
  attributes?: SafeHtml;
}

export function textInput(form: FormState, field: InputOptions): SafeHtml {
  const id = controlId(form, field);
  const value = field.type === 'password' ? html`` : html` value="${valueOf(form, field.name)}"`;
  return html`<div class="field">
  ${labelOf(form, id, field)}
  ${hintOf(form, field)}
  <input id="${id}" name="${field.name}" type="${field.type ?? 'text'}"${value}${field.required ? html` required` : ''}${
    field.min !== undefined ? html` min="${field.min}"` : ''
  }${field.max !== undefined ? html` max="${field.max}"` : ''}${
    field.maxlength !== undefined ? html` maxlength="${field.maxlength}"` : ''
  }${field.inputmode !== undefined ? html` inputmode="${field.inputmode}"` : ''}${
    field.list !== undefined ? html` list="${field.list}"` : ''
  } autocomplete="${field.autocomplete ?? 'off'}"${describedBy(form, field)}${field.attributes ?? ''}>
  ${errorList(form, field)}
</div>`;
}

export function textArea(form: FormState, field: FieldOptions & { rows?: number; maxlength?: number; attributes?: SafeHtml }): SafeHtml {
  const id = controlId(form, field);
  return html`<div class="field">
  ${labelOf(form, id, field)}
  ${hintOf(form, field)}
  <textarea id="${id}" name="${field.name}" rows="${field.rows ?? 4}"${field.required ? html` required` : ''}${
    field.maxlength !== undefined ? html` maxlength="${field.maxlength}"` : ''
  }${describedBy(form, field)}${field.attributes ?? ''}>${valueOf(form, field.name)}</textarea>
  ${errorList(form, field)}
</div>`;
}

export function selectField(form: FormState, field: FieldOptions & { options: readonly Option[]; blank?: string; attributes?: SafeHtml }): SafeHtml {
  const id = controlId(form, field);
  const current = valueOf(form, field.name);
  return html`<div class="field">
  ${labelOf(form, id, field)}
  ${hintOf(form, field)}
  <select id="${id}" name="${field.name}"${field.required ? html` required` : ''}${describedBy(form, field)}${field.attributes ?? ''}>
    ${field.blank === undefined ? '' : html`<option value="">${field.blank}</option>`}
    ${field.options.map((option) => html`<option value="${option.value}"${option.value === current ? html` selected` : ''}>${option.label}</option>`)}
  </select>
  ${errorList(form, field)}
</div>`;
}

export function checkbox(form: FormState, field: FieldOptions & { attributes?: SafeHtml }): SafeHtml {
  const id = controlId(form, field);
  const checked = isChecked(form.values[field.name]);
  return html`<div class="field check">
  <input id="${id}" name="${field.name}" type="checkbox" value="1"${checked ? html` checked` : ''}${describedBy(form, field)}${field.attributes ?? ''}>
  <label for="${id}">${field.label}</label>
  ${hintOf(form, field)}
  ${errorList(form, field)}
</div>`;
}

/** A group of checkboxes sharing one name: a fieldset whose legend names the group. */
export function checkboxGroup(form: FormState, field: FieldOptions & { options: readonly Option[] }): SafeHtml {
  const id = controlId(form, field);
  const raw = form.values[field.name];
  const chosen = new Set(Array.isArray(raw) ? raw.map(String) : raw === undefined || raw === null ? [] : [String(raw)]);
  return html`<fieldset class="field group"${describedBy(form, field, false)}>
  <legend>${field.label}${requiredMark(form, field)}</legend>
  ${hintOf(form, field)}
  ${field.options.map(
    (option) =>
      html`<div class="check"><input id="${id}-${option.value}" name="${field.name}" type="checkbox" value="${option.value}"${chosen.has(option.value) ? html` checked` : ''}><label for="${id}-${option.value}">${option.label}</label></div>`,
  )}
  ${errorList(form, field)}
</fieldset>`;
}

/** One choice of several: a fieldset of radio buttons whose legend names the choice. */
export function radioGroup(form: FormState, field: FieldOptions & { options: readonly Option[] }): SafeHtml {
  const id = controlId(form, field);
  const current = valueOf(form, field.name);
  return html`<fieldset class="field group" id="${id}"${describedBy(form, field, false)}>
  <legend>${field.label}${requiredMark(form, field)}</legend>
  ${hintOf(form, field)}
  ${field.options.map(
    (option) =>
      html`<div class="check"><input id="${id}-${option.value}" name="${field.name}" type="radio" value="${option.value}"${option.value === current ? html` checked` : ''}><label for="${id}-${option.value}">${option.label}</label></div>`,
  )}
  ${errorList(form, field)}
</fieldset>`;
}

/** Every error of the form at the top, each linking to its field. */
export function errorSummary(form: FormState, intro = t('form.correct_following')): SafeHtml {
  const entries = Object.entries(form.errors);
  if (entries.length === 0) return html``;
  // Focused as the page loads: in view, and read out (see formNotice).
  return html`<div class="notice error" role="alert" id="${form.id}-errors" tabindex="-1" autofocus>
  <p>${intro}</p>
  <ul>${entries.map(([field, messages]) => messages.map((message) => html`<li><a href="#${fieldId(form, isShownMember(form, field) ? field : (field.split('.')[0] ?? field))}">${message}</a></li>`))}</ul>
</div>`;
}

export function fieldId(form: FormState, name: string): string {
  const safe = name.replace(/[^\w-]/g, '-');
  return form.id === '' ? safe : `${form.id}-${safe}`;
}

function controlId(form: FormState, field: FieldOptions): string {
  return field.id ?? fieldId(form, field.name);
}

/**
 * Messages for a field and its members (`applies_to.0` under `applies_to`).
 * A field whose members have controls of their own (`sprite_params.x`) is
 * named with the member, and gets only its own messages.
 */
export function errorsFor(form: FormState, name: string): string[] {
  const ownMember = name.includes('.');
  return Object.entries(form.errors)
    .filter(([field]) => field === name || (!ownMember && field.startsWith(`${name}.`) && !isShownMember(form, field)))
    .flatMap(([, messages]) => messages);
}

// Members rendered as their own controls are listed in the form's values (even when empty).
function isShownMember(form: FormState, field: string): boolean {
  return Object.hasOwn(form.values, field);
}

function errorList(form: FormState, field: FieldOptions): SafeHtml {
  const messages = errorsFor(form, field.name);
  if (messages.length === 0) return html``;
  return html`<p class="field-error" id="${controlId(form, field)}-error">${messages.map((message, i) => html`${i > 0 ? html`<br>` : ''}${message}`)}</p>`;
}

function labelOf(form: FormState, id: string, field: FieldOptions): SafeHtml {
  return html`<label for="${id}"${field.hideLabel ? html` class="visually-hidden"` : ''}>${field.label}${requiredMark(form, field)}</label>`;
}

function requiredMark(form: FormState, field: FieldOptions): SafeHtml {
  return field.required && form.marksRequired ? html` <span class="required">${t('form.required')}</span>` : html``;
}

function hintOf(form: FormState, field: FieldOptions): SafeHtml {
  return field.hint === undefined ? html`` : html`<p class="hint" id="${controlId(form, field)}-hint">${field.hint}</p>`;
}

// aria-invalid belongs on controls, not on a fieldset (role group).
function describedBy(form: FormState, field: FieldOptions, control = true): SafeHtml {
  const ids = [
    ...(field.hint !== undefined ? [`${controlId(form, field)}-hint`] : []),
    ...(errorsFor(form, field.name).length > 0 ? [`${controlId(form, field)}-error`] : []),
  ];
  if (ids.length === 0) return html``;
  const invalid = control && errorsFor(form, field.name).length > 0;
  return html` aria-describedby="${ids.join(' ')}"${invalid ? html` aria-invalid="true"` : ''}`;
}

function valueOf(form: FormState, name: string): string {
  const value = form.values[name];
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value);
}

function isChecked(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'on' || value === 'true';
}
