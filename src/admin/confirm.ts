// Destructive actions ask first. A plain form post without `confirmed`
// answers with this page; with htmx the button asks in a dialog
// (hx-confirm) and sends `confirmed` itself.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../i18n/messages.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { localPath } from '../http/local-path.ts';
import { csrfInput } from '../web/page.ts';
import { sendAdminPage, type SectionId } from './layout.ts';
import { flag, text, type SubmittedForm } from '../web/form.ts';

export interface Confirmation {
  section: SectionId;
  title: string;
  question: string;
  details?: SafeHtml;
  action: string;
  confirmLabel: string;
  cancelHref: string;
  returnTo?: string;
  /** The fields of the form being asked about, posted again with the answer (a mass send's text). */
  hidden?: Readonly<Record<string, string>>;
  /** A second button posting those fields back with `back=1` instead of `confirmed`, to change them (the cancel link drops them). */
  backLabel?: string;
}

export function sendConfirmPage(request: FastifyRequest, reply: FastifyReply, c: Confirmation): FastifyReply {
  return sendAdminPage(request, reply, {
    title: c.title,
    section: c.section,
    body: html`<h1>${c.title}</h1>
<p>${c.question}</p>
${c.details ?? ''}
<form method="post" action="${c.action}" class="actions">
  ${csrfInput(request, reply)}
  ${Object.entries(c.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  ${c.returnTo === undefined ? '' : html`<input type="hidden" name="return" value="${c.returnTo}">`}
  ${
    // With a way back, each button says what it sends; without, the one answer is a hidden field (Enter confirms too).
    c.backLabel === undefined
      ? html`<input type="hidden" name="confirmed" value="1">
  <button type="submit" class="danger">${c.confirmLabel}</button>`
      : html`<button type="submit" name="confirmed" value="1" class="danger">${c.confirmLabel}</button>
  <button type="submit" name="back" value="1" class="secondary">${c.backLabel}</button>`
  }
  <a class="button secondary" href="${c.cancelHref}">${t('admin.cancel')}</a>
</form>`,
  });
}

export function isConfirmed(form: SubmittedForm): boolean {
  return flag(form, 'confirmed');
}

/** Hidden field carrying the list page to come back to after a plain form post. */
export function returnField(path: string): SafeHtml {
  return html`<input type="hidden" name="return" value="${path}">`;
}

/** Where to go back to: the submitted `return` when it is a page of this section, else `fallback`. */
export function returnTo(form: SubmittedForm, fallback: string): string {
  const target = localPath(text(form, 'return'), fallback);
  return target.startsWith(fallback) ? target : fallback;
}

/** htmx attributes of a destructive button: ask in a dialog, then send `confirmed`. */
export function htmxConfirm(question: string): SafeHtml {
  return html` hx-confirm="${question}" hx-vals='{"confirmed":"1"}'`;
}
