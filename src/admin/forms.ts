// Form controls with their label, hint and errors wired for assistive
// technology (aria-invalid, aria-describedby), and the readers that turn a
// submitted form into the values the API's schemas check. The messages are
// the API's: forms are validated with the same schemas (checkForm) and
// services.
import { ValidationError, type FieldErrors } from '../http/errors.ts';
import { html, type SafeHtml } from '../web/html.ts';

/** What a form shows: values (as submitted, or from the record) and errors by field. */
export interface FormState {
  /** Prefix of element ids, unique on the page (several forms may show the same fields). */
  id: string;
  values: Readonly<Record<string, unknown>>;
  errors: FieldErrors;
}

export function formState(id: string, values: Readonly<Record<string, unknown>> = {}, errors: FieldErrors = {}): FormState {
  return { id, values, errors };
}

export interface Option {
  value: string;
  label: string;
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
  /** For controls inside a table row: the label is read out but not shown (the column says it). */
  hideLabel?: boolean;
  hint?: string;
  required?: boolean;
}

interface InputOptions extends FieldOptions {
  type?: 'text' | 'number' | 'search' | 'url';
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
  const id = fieldId(form, field.name);
  return html`<div class="field">
  ${labelOf(id, field)}
  ${hintOf(form, field)}
  <input id="${id}" name="${field.name}" type="${field.type ?? 'text'}" value="${valueOf(form, field.name)}"${field.required ? html` required` : ''}${
    field.min !== undefined ? html` min="${field.min}"` : ''
  }${field.max !== undefined ? html` max="${field.max}"` : ''}${
    field.maxlength !== undefined ? html` maxlength="${field.maxlength}"` : ''
  }${field.inputmode !== undefined ? html` inputmode="${field.inputmode}"` : ''}${
    field.list !== undefined ? html` list="${field.list}"` : ''
  } autocomplete="${field.autocomplete ?? 'off'}"${describedBy(form, field)}${field.attributes ?? ''}>
  ${errorList(form, field.name)}
</div>`;
}

export function textArea(form: FormState, field: FieldOptions & { rows?: number; maxlength?: number; attributes?: SafeHtml }): SafeHtml {
  const id = fieldId(form, field.name);
  return html`<div class="field">
  <label for="${id}">${field.label}${field.required ? html` <span class="required">(required)</span>` : ''}</label>
  ${hintOf(form, field)}
  <textarea id="${id}" name="${field.name}" rows="${field.rows ?? 4}"${field.required ? html` required` : ''}${
    field.maxlength !== undefined ? html` maxlength="${field.maxlength}"` : ''
  }${describedBy(form, field)}${field.attributes ?? ''}>${valueOf(form, field.name)}</textarea>
  ${errorList(form, field.name)}
</div>`;
}

export function selectField(form: FormState, field: FieldOptions & { options: readonly Option[]; blank?: string; attributes?: SafeHtml }): SafeHtml {
  const id = fieldId(form, field.name);
  const current = valueOf(form, field.name);
  return html`<div class="field">
  ${labelOf(id, field)}
  ${hintOf(form, field)}
  <select id="${id}" name="${field.name}"${field.required ? html` required` : ''}${describedBy(form, field)}${field.attributes ?? ''}>
    ${field.blank === undefined ? '' : html`<option value="">${field.blank}</option>`}
    ${field.options.map((option) => html`<option value="${option.value}"${option.value === current ? html` selected` : ''}>${option.label}</option>`)}
  </select>
  ${errorList(form, field.name)}
</div>`;
}

export function checkbox(form: FormState, field: FieldOptions & { attributes?: SafeHtml }): SafeHtml {
  const id = fieldId(form, field.name);
  const checked = isChecked(form.values[field.name]);
  return html`<div class="field check">
  <input id="${id}" name="${field.name}" type="checkbox" value="1"${checked ? html` checked` : ''}${describedBy(form, field)}${field.attributes ?? ''}>
  <label for="${id}">${field.label}</label>
  ${hintOf(form, field)}
  ${errorList(form, field.name)}
</div>`;
}

/** A group of checkboxes sharing one name: a fieldset whose legend names the group. */
export function checkboxGroup(form: FormState, field: FieldOptions & { options: readonly Option[] }): SafeHtml {
  const id = fieldId(form, field.name);
  const raw = form.values[field.name];
  const chosen = new Set(Array.isArray(raw) ? raw.map(String) : raw === undefined || raw === null ? [] : [String(raw)]);
  return html`<fieldset class="field group"${describedBy(form, field, false)}>
  <legend>${field.label}${field.required ? html` <span class="required">(required)</span>` : ''}</legend>
  ${hintOf(form, field)}
  ${field.options.map(
    (option) =>
      html`<div class="check"><input id="${id}-${option.value}" name="${field.name}" type="checkbox" value="${option.value}"${chosen.has(option.value) ? html` checked` : ''}><label for="${id}-${option.value}">${option.label}</label></div>`,
  )}
  ${errorList(form, field.name)}
</fieldset>`;
}

/** One choice of several: a fieldset of radio buttons whose legend names the choice. */
export function radioGroup(form: FormState, field: FieldOptions & { options: readonly Option[] }): SafeHtml {
  const id = fieldId(form, field.name);
  const current = valueOf(form, field.name);
  return html`<fieldset class="field group" id="${id}"${describedBy(form, field, false)}>
  <legend>${field.label}${field.required ? html` <span class="required">(required)</span>` : ''}</legend>
  ${hintOf(form, field)}
  ${field.options.map(
    (option) =>
      html`<div class="check"><input id="${id}-${option.value}" name="${field.name}" type="radio" value="${option.value}"${option.value === current ? html` checked` : ''}><label for="${id}-${option.value}">${option.label}</label></div>`,
  )}
  ${errorList(form, field.name)}
</fieldset>`;
}

/** Every error of the form at the top, each linking to its field. */
export function errorSummary(form: FormState, intro = 'Please correct the following:'): SafeHtml {
  const entries = Object.entries(form.errors);
  if (entries.length === 0) return html``;
  return html`<div class="notice error" role="alert" id="${form.id}-errors">
  <p>${intro}</p>
  <ul>${entries.map(([field, messages]) => messages.map((message) => html`<li><a href="#${fieldId(form, isShownMember(form, field) ? field : (field.split('.')[0] ?? field))}">${message}</a></li>`))}</ul>
</div>`;
}

export function fieldId(form: FormState, name: string): string {
  return `${form.id}-${name.replace(/[^\w-]/g, '-')}`;
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

function errorList(form: FormState, name: string): SafeHtml {
  const messages = errorsFor(form, name);
  if (messages.length === 0) return html``;
  return html`<p class="field-error" id="${fieldId(form, name)}-error">${messages.map((message, i) => html`${i > 0 ? html`<br>` : ''}${message}`)}</p>`;
}

function labelOf(id: string, field: FieldOptions): SafeHtml {
  return html`<label for="${id}"${field.hideLabel ? html` class="visually-hidden"` : ''}>${field.label}${field.required ? html` <span class="required">(required)</span>` : ''}</label>`;
}

function hintOf(form: FormState, field: FieldOptions): SafeHtml {
  return field.hint === undefined ? html`` : html`<p class="hint" id="${fieldId(form, field.name)}-hint">${field.hint}</p>`;
}

// aria-invalid belongs on controls, not on a fieldset (role group).
function describedBy(form: FormState, field: FieldOptions, control = true): SafeHtml {
  const ids = [
    ...(field.hint !== undefined ? [`${fieldId(form, field.name)}-hint`] : []),
    ...(errorsFor(form, field.name).length > 0 ? [`${fieldId(form, field.name)}-error`] : []),
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

// Reading a submitted form (application/x-www-form-urlencoded or multipart).

export type SubmittedForm = Readonly<Record<string, unknown>>;

export function submitted(body: unknown): SubmittedForm {
  return typeof body === 'object' && body !== null && !Buffer.isBuffer(body) ? (body as SubmittedForm) : {};
}

/** A text field; a repeated field gives its last value. */
export function text(form: SubmittedForm, name: string): string | undefined {
  const value = form[name];
  if (Array.isArray(value)) return typeof value.at(-1) === 'string' ? (value.at(-1) as string) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A text field, left out when empty (optional fields of the API). */
export function optionalText(form: SubmittedForm, name: string): string | undefined {
  const value = text(form, name);
  return value === undefined || value === '' ? undefined : value;
}

/** Every value of a field that may repeat (checkbox groups). */
export function list(form: SubmittedForm, name: string): string[] {
  const value = form[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** A checkbox: on when sent with any value but "0". */
export function flag(form: SubmittedForm, name: string): boolean {
  const value = text(form, name);
  return value !== undefined && value !== '0' && value !== 'false';
}

/** The field errors of a service's validation failure; anything else is rethrown. */
export function validationErrors(error: unknown): FieldErrors {
  if (error instanceof ValidationError) return error.errors;
  throw error;
}

/** Drops empty values, so an untouched filter field means "any" rather than an invalid "". */
export function withoutBlanks(query: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(submitted(query))) {
    if (value === '' || value === undefined) continue;
    result[key] = value;
  }
  return result;
}
