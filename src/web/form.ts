// A submitted form: reading its fields, running the service behind it, and
// showing it again when it fails, with what was typed and the reason above
// it (field errors 422; refused as a whole, FormRefusal: an expired CSRF
// token 403, flood control 429). The controls themselves are
// form-controls.ts, one set for the public and the admin pages. Its texts
// are the reader's language's, so made for each request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { FloodError } from '../auth/flood-control.ts';
import { ApiError, ValidationError, type FieldErrors, type FormRefusal } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { loginPath } from '../urls/paths.ts';
import { html, type SafeHtml } from './html.ts';
import { sendPage } from './page.ts';
import { tLink } from './translated.ts';

/** Messages about the form as a whole, or about fields the form does not show. */
export function formNotice(message: string | undefined, errors?: FieldErrors, shownFields: readonly string[] = []): SafeHtml {
  const other = Object.entries(errors ?? {})
    .filter(([field]) => !shownFields.includes(field))
    .flatMap(([, messages]) => messages);
  const lines = [...(message === undefined ? [] : [message]), ...other];
  if (lines.length === 0) return html``;
  // Focused as the page loads, so that the browser brings it into view (a refused form is often far down the page) and screen readers read it.
  return html`<div class="notice error" role="alert" tabindex="-1" autofocus>${lines.map((line) => html`<p>${line}</p>`)}</div>`;
}

/** The summary shown above a form whose fields have errors. */
export function checkFields(): string {
  return t('form.check_fields');
}

/** A notice for the result of an action (shown after a redirect or on the same page). */
export function okNotice(message: string): SafeHtml {
  return html`<p class="notice ok" role="status">${message}</p>`;
}

/** The body of a form that is only a button (watch, delete, mark all read). */
export const NoFields = Type.Object({});

export type Attempt<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors; refusal?: FormRefusal };

/**
 * Runs a service call; its validation errors become field errors for the
 * form, and flood control's 429 a refusal, instead of an error page.
 */
export async function attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof ValidationError) return { ok: false, errors: error.errors };
    if (error instanceof FloodError)
      return { ok: false, errors: {}, refusal: { status: error.status, message: t('form.kept_below', { message: error.message }), headers: error.headers } };
    throw error;
  }
}

/** The status of a form shown again (the refusal's, with its headers, or 422 for field errors). */
export function failedStatus(reply: FastifyReply, refusal: FormRefusal | undefined): number {
  if (refusal === undefined) return 422;
  if (refusal.headers !== undefined) reply.headers(refusal.headers);
  return refusal.status;
}

export interface Draft {
  /** Form fields and their labels, in the order the form shows them. */
  fields: ReadonlyArray<{ name: string; label: string }>;
  values: Record<string, string>;
}

/**
 * What a member's form shows again when its session has ended meanwhile
 * (the CSRF token was refused and the browser is a guest now): nothing was
 * saved, here is what you wrote to copy, log in and send it again. 403.
 */
export function sessionEndedPage(request: FastifyRequest, reply: FastifyReply, canonicalPath: string, draft: Draft): FastifyReply {
  const written = draft.fields.filter((field) => (draft.values[field.name] ?? '') !== '');
  return sendPage(request, reply, {
    title: t('form.logged_out_title'),
    canonical: canonicalPath,
    status: 403,
    head: html`<meta name="robots" content="noindex">`,
    body: html`<h1>${t('form.logged_out_title')}</h1>
<div class="notice error" role="alert"><p>${tLink('form.logged_out', loginPath({ next: canonicalPath }))}</p></div>
${written.map((field) => html`<div class="stacked"><label for="draft-${field.name}">${t('form.what_you_wrote', { label: field.label })}</label><textarea id="draft-${field.name}" name="${field.name}" rows="8" readonly>${draft.values[field.name] ?? ''}</textarea></div>`)}`,
  });
}

/** The notice above a form shown again: the refusal's message, or the request to correct the fields. */
export function failedNotice(refusal: FormRefusal | undefined, errors: FieldErrors | undefined, shownFields: readonly string[]): SafeHtml {
  return formNotice(refusal?.message ?? checkFields(), errors, shownFields);
}

/** The submitted text fields, to put back into a form shown again. */
export function submittedText(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') values[key] = value;
    // A field the form's schema coerced (an id) was text when typed: it is shown again as such.
    else if (typeof value === 'number') values[key] = String(value);
  }
  return values;
}

/**
 * The `action` field with which pages told their forms apart before each
 * form had its own address. Read only to show such a form (from a page
 * loaded before the change) again; nothing is done by it.
 */
export function formerAction(body: unknown): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['action'] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What a page says above a form from its former version, shown again (400): nothing was done. */
export function outdatedFormRefusal(): FormRefusal {
  return { status: 400, message: t('form.outdated') };
}

/** 400 for a post to a page that has no form there (a page loaded before an upgrade, a hand-made request). */
export function outdatedForm(): ApiError {
  return new ApiError('BAD_REQUEST', t('form.outdated_page'));
}

// Reading a submitted form field by field (application/x-www-form-urlencoded or multipart).

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
