// Form controls with their label, and the messages of a failed check right
// next to the field they are about (linked with aria-describedby). A form
// refused as a whole (an expired CSRF token, flood control) is shown again
// with what was typed and the reason above it (FormRefusal).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FloodError } from '../auth/flood-control.ts';
import { ApiError, ValidationError, type FieldErrors } from '../http/errors.ts';
import { loginPath } from '../urls/paths.ts';
import { html, type SafeHtml } from './html.ts';
import { sendPage } from './page.ts';

export interface FieldOptions {
  name: string;
  label: string;
  /** Element id; defaults to the name. Set it when a page has two fields of one name. */
  id?: string;
  value?: string | undefined;
  errors?: FieldErrors | undefined;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  maxLength?: number;
}

export function inputField(type: 'text' | 'email' | 'password', options: FieldOptions): SafeHtml {
  const { id, describedBy, messages } = parts(options);
  return html`<div><label for="${id}">${options.label}</label>${hint(options, id)}<input id="${id}" name="${options.name}" type="${type}"${type === 'password' ? '' : html` value="${options.value ?? ''}"`}${attributes(options, describedBy, messages.length > 0)}>${errorList(id, messages)}</div>`;
}

export function textareaField(options: FieldOptions & { rows?: number }): SafeHtml {
  const { id, describedBy, messages } = parts(options);
  return html`<div><label for="${id}">${options.label}</label>${hint(options, id)}<textarea id="${id}" name="${options.name}" rows="${options.rows ?? 6}"${attributes(options, describedBy, messages.length > 0)}>${options.value ?? ''}</textarea>${errorList(id, messages)}</div>`;
}

/** Messages about the form as a whole, or about fields the form does not show. */
export function formNotice(message: string | undefined, errors?: FieldErrors, shownFields: readonly string[] = []): SafeHtml {
  const other = Object.entries(errors ?? {})
    .filter(([field]) => !shownFields.includes(field))
    .flatMap(([, messages]) => messages);
  const lines = [...(message === undefined ? [] : [message]), ...other];
  if (lines.length === 0) return html``;
  return html`<div class="notice error" role="alert">${lines.map((line) => html`<p>${line}</p>`)}</div>`;
}

/** The summary shown above a form whose fields have errors. */
export const CHECK_FIELDS = 'Please correct the fields marked below.';

/** A notice for the result of an action (shown after a redirect or on the same page). */
export function okNotice(message: string): SafeHtml {
  return html`<p class="notice ok" role="status">${message}</p>`;
}

/**
 * A submission refused for a reason that is not in its fields (an expired
 * CSRF token: 403; posting too fast: 429). The page shows the form again
 * with what was typed, the message above it, and this status.
 */
export interface FormRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

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
      return { ok: false, errors: {}, refusal: { status: error.status, message: `${error.message} What you wrote is kept below.`, headers: error.headers } };
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
    title: 'Not saved: you are logged out',
    canonical: canonicalPath,
    status: 403,
    head: html`<meta name="robots" content="noindex">`,
    body: html`<h1>Not saved: you are logged out</h1>
<div class="notice error" role="alert"><p>Your login ended before you sent this form, so nothing was saved. Copy what you wrote, <a href="${loginPath({ next: canonicalPath })}">log in</a>, and send it again.</p></div>
${written.map((field) => html`<div class="stacked"><label for="draft-${field.name}">${field.label} (what you wrote)</label><textarea id="draft-${field.name}" name="${field.name}" rows="8" readonly>${draft.values[field.name] ?? ''}</textarea></div>`)}`,
  });
}

/** The notice above a form shown again: the refusal's message, or the request to correct the fields. */
export function failedNotice(refusal: FormRefusal | undefined, errors: FieldErrors | undefined, shownFields: readonly string[]): SafeHtml {
  return formNotice(refusal?.message ?? CHECK_FIELDS, errors, shownFields);
}

/** The submitted text fields, to put back into a form shown again. */
export function submitted(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') values[key] = value;
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
export const OUTDATED_FORM_REFUSAL: FormRefusal = {
  status: 400,
  message: 'This form came from an older version of this page, so nothing was saved. What you wrote is kept below: check it and send it again.',
};

/** 400 for a post to a page that has no form there (a page loaded before an upgrade, a hand-made request). */
export function outdatedForm(): ApiError {
  return new ApiError('BAD_REQUEST', 'This form cannot be handled here: it came from an older version of the page. Reload the page and try again.');
}

function parts(options: FieldOptions): { id: string; describedBy: string[]; messages: string[] } {
  const id = options.id ?? options.name;
  const messages = options.errors?.[options.name] ?? [];
  const describedBy = [...(options.hint === undefined ? [] : [`${id}-hint`]), ...(messages.length === 0 ? [] : [`${id}-error`])];
  return { id, describedBy, messages };
}

function hint(options: FieldOptions, id: string): SafeHtml {
  return options.hint === undefined ? html`` : html`<p class="hint muted" id="${id}-hint">${options.hint}</p>`;
}

function attributes(options: FieldOptions, describedBy: string[], invalid: boolean): SafeHtml {
  return html`${options.required === true ? html` required` : ''}${options.autocomplete === undefined ? '' : html` autocomplete="${options.autocomplete}"`}${options.maxLength === undefined ? '' : html` maxlength="${options.maxLength}"`}${describedBy.length === 0 ? '' : html` aria-describedby="${describedBy.join(' ')}"`}${invalid ? html` aria-invalid="true"` : ''}`;
}

function errorList(id: string, messages: string[]): SafeHtml {
  if (messages.length === 0) return html``;
  return html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>`;
}
