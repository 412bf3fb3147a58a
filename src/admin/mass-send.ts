// /admin/mass-send/ (docs/mass-mail.md): write a private message or an e-mail
// to all members, one group's or one role's, and send it after a
// confirmation that says how many members it goes to; every send made, with
// its progress. Plain forms: the first post asks ("This will go to 1,234
// members"), carrying the form's fields; the answer posts them again with
// `confirmed` (send) or `back` (change them). The rules are the service's
// (mass-send/service.ts), the fields' limits the API's schemas.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ADMINS, assertUser, requirePage } from '../auth/guard.ts';
import { newSecret } from '../auth/secrets.ts';
import { bbcodeMailText } from '../forum/bbcode/bbcode.ts';
import type { FieldErrors } from '../http/errors.ts';
import { PageQueryProperties, pageRequest } from '../http/pagination.ts';
import { IdParams, OneOf, Reference } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { number, t, tn } from '../i18n/messages.ts';
import type { MassSendRow } from '../mass-send/repository.ts';
import { AUDIENCE_KINDS, AUDIENCE_ROLES, MASS_SEND_KINDS, type MassSendInput, type MassSends } from '../mass-send/service.ts';
import { Body, Subject } from '../messages/routes.ts';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX } from '../messages/service.ts';
import { massSendAdminPath, profilePath } from '../urls/paths.ts';
import { errorSummary, formState, radioGroup, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { flag, optionalText, submitted, text, validationErrors, withoutBlanks, type SubmittedForm } from '../web/form.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { isConfirmed, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { valueLabel, valueOptions } from './labels.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';

const BASE = massSendAdminPath();
const FORM = 'mass-send';
/** How often the page of a send under way looks at its progress again (htmx; without it, a reload). */
const PROGRESS_POLL = 'every 5s';

/** The form as posted: the audience's group or role only with that audience. */
const MassSendForm = Type.Object({
  kind: OneOf(MASS_SEND_KINDS),
  audience: OneOf(AUDIENCE_KINDS),
  group_id: Type.Optional(Reference('The group')),
  role: Type.Optional(OneOf(AUDIENCE_ROLES)),
  subject: Subject,
  body: Body,
});

const ListQuery = Type.Object(PageQueryProperties);

/** The form's fields as posted again from the confirmation. */
const FIELDS = ['kind', 'audience', 'group_id', 'role', 'subject', 'body'] as const;

/** A private message's text as its recipients see it (the presenter's messageBody). */
export type MessageRenderer = (body: string) => Promise<SafeHtml>;

export const massSendPages: FastifyPluginAsyncTypebox<{ massSends: MassSends; render: MessageRenderer }> = async (app, { massSends, render }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => listPage(request, reply, formState(FORM, { kind: 'message', audience: 'all' })));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const values = Object.fromEntries(FIELDS.map((field) => [field, text(form, field) ?? '']));
    const refused = (errors: FieldErrors) => listPage(request, reply, formState(FORM, values, errors), 422);
    const input = formInput(form);
    if ('errors' in input) return refused(input.errors);
    if (flag(form, 'back')) return listPage(request, reply, formState(FORM, values));
    const sender = assertUser(request);
    if (!isConfirmed(form)) {
      let recipients: number;
      try {
        recipients = await massSends.preview(sender, input.kind, input.audience);
      } catch (error) {
        return refused(formErrors(validationErrors(error)));
      }
      return sendConfirmPage(request, reply, {
        section: 'mass-send',
        title: t('admin.mass_send.confirm_title'),
        question: tn('admin.mass_send.confirm_question', recipients, { kind: valueLabel('admin.mass_send.kind', input.kind) }),
        details: summary(input, await groupName(massSends, input)),
        action: BASE,
        confirmLabel: tn('admin.mass_send.send_to', recipients),
        backLabel: t('admin.mass_send.change'),
        cancelHref: BASE,
        // The confirmation's own key: posted twice (a double click), it makes one send.
        hidden: { ...Object.fromEntries(FIELDS.flatMap((field) => (values[field] === '' ? [] : [[field, values[field]!]]))), request_key: newSecret(18) },
      });
    }
    try {
      const { send, created } = await massSends.createOnce(sender, input, requestKey(form));
      const notice = created ? tn('admin.mass_send.started', send.recipients) : t('admin.mass_send.already');
      return redirectWithNotice(request, reply, massSendAdminPath(send.id), notice);
    } catch (error) {
      return refused(formErrors(validationErrors(error)));
    }
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const send = await massSends.get((request.params as { id: number }).id);
    return sendAdminPage(request, reply, {
      title: send.subject,
      section: 'mass-send',
      body: html`<p><a href="${BASE}">← ${t('admin.mass_send.title')}</a></p>
<h1>${send.subject}</h1>
${progress(send)}
<dl class="facts">
  <dt>${t('admin.mass_send.kind')}</dt><dd>${valueLabel('admin.mass_send.kind', send.kind)}</dd>
  <dt>${t('admin.mass_send.audience')}</dt><dd>${audienceText(send)}</dd>
  <dt>${t('admin.mass_send.sender')}</dt><dd>${sender(send)}</dd>
  <dt>${t('admin.mass_send.created')}</dt><dd>${timestamp(send.created_at)}</dd>
</dl>
<h2>${t('admin.mass_send.as_read')}</h2>
${send.kind === 'message' ? html`<div class="body">${await render(send.body)}</div>` : html`<div class="mail-body">${bbcodeMailText(send.body)}</div>`}`,
    });
  });

  async function listPage(request: FastifyRequest, reply: FastifyReply, form: FormState, status = 200): Promise<FastifyReply> {
    const query = checkForm(ListQuery, withoutBlanks(request.query));
    const page = pageRequest(query.ok ? query.value : {});
    const [{ rows, total }, groups] = await Promise.all([massSends.list(page), massSends.groups()]);
    const info = { page: page.page, perPage: page.perPage, total };
    return sendAdminPage(request, reply, {
      title: t('admin.mass_send.title'),
      section: 'mass-send',
      status,
      body: html`<h1>${t('admin.mass_send.title')}</h1>
<p class="muted">${t('admin.mass_send.help')}</p>
<h2>${t('admin.mass_send.new')}</h2>
${errorSummary(form)}
<form method="post" action="${BASE}" class="stacked" novalidate>
${csrfInput(request, reply)}
${radioGroup(form, { name: 'kind', label: t('admin.mass_send.kind'), required: true, options: valueOptions('admin.mass_send.kind', MASS_SEND_KINDS) })}
${radioGroup(form, { name: 'audience', label: t('admin.mass_send.audience'), required: true, options: valueOptions('admin.mass_send.audience', AUDIENCE_KINDS) })}
${selectField(form, {
  name: 'group_id',
  label: t('admin.mass_send.group'),
  hint: t('admin.mass_send.group_hint'),
  blank: t('admin.mass_send.choose_group'),
  options: groups.map((group) => ({ value: String(group.id), label: group.name })),
})}
${selectField(form, { name: 'role', label: t('admin.mass_send.role'), hint: t('admin.mass_send.role_hint'), blank: t('admin.mass_send.choose_role'), options: valueOptions('admin.role', AUDIENCE_ROLES) })}
${textInput(form, { name: 'subject', label: t('admin.mass_send.subject'), required: true, maxlength: MESSAGE_SUBJECT_MAX })}
${textArea(form, { name: 'body', label: t('admin.mass_send.body'), hint: t('admin.mass_send.body_hint'), required: true, rows: 12, maxlength: MESSAGE_BODY_MAX })}
<div><button type="submit">${t('admin.mass_send.continue')}</button></div>
</form>
<h2>${t('admin.mass_send.sends')}</h2>
<p class="muted">${rangeText(info, rows.length, { none: 'admin.mass_send.none', range: 'admin.mass_send.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="cards">
<caption class="visually-hidden">${t('admin.mass_send.sends')}</caption>
<thead><tr><th scope="col">${t('admin.mass_send.subject')}</th><th scope="col">${t('admin.mass_send.kind')}</th><th scope="col">${t('admin.mass_send.audience')}</th><th scope="col">${t('admin.mass_send.sender')}</th><th scope="col">${t('admin.mass_send.created')}</th><th scope="col">${t('admin.mass_send.progress')}</th></tr></thead>
<tbody>${rows.map(
        (send) => html`<tr>
<th scope="row"><a href="${massSendAdminPath(send.id)}">${send.subject}</a></th>
<td data-label="${t('admin.mass_send.kind')}">${valueLabel('admin.mass_send.kind', send.kind)}</td>
<td data-label="${t('admin.mass_send.audience')}">${audienceText(send)}</td>
<td data-label="${t('admin.mass_send.sender')}">${sender(send)}</td>
<td data-label="${t('admin.mass_send.created')}">${timestamp(send.created_at)}</td>
<td data-label="${t('admin.mass_send.progress')}">${progressText(send)}</td>
</tr>`,
      )}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.mass_send.pages'))}`,
    });
  }
};

/** The form's send, or its field errors; a group or role is read only for the audience that has one. */
function formInput(form: SubmittedForm): MassSendInput | { errors: FieldErrors } {
  const audience = optionalText(form, 'audience');
  const choices = withoutBlanks({
    kind: text(form, 'kind'),
    audience,
    group_id: audience === 'group' ? text(form, 'group_id') : undefined,
    role: audience === 'role' ? text(form, 'role') : undefined,
  });
  const checked = checkForm(MassSendForm, { ...choices, subject: text(form, 'subject') ?? '', body: text(form, 'body') ?? '' });
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  // The API says "The audience.group id field is required."; the form has a select to point at.
  if (audience === 'group' && choices['group_id'] === undefined) errors['group_id'] = [t('admin.mass_send.choose_group')];
  if (audience === 'role' && choices['role'] === undefined) errors['role'] = [t('admin.mass_send.choose_role')];
  if (!checked.ok || Object.keys(errors).length > 0) return { errors };
  const { kind, group_id, role, subject, body } = checked.value;
  return { kind, audience: { kind: checked.value.audience, group_id, role }, subject, body };
}

/** The confirmation's key, when it is one (newSecret(18)); anything else makes a send of its own. */
function requestKey(form: SubmittedForm): string | undefined {
  const key = text(form, 'request_key');
  return key !== undefined && /^[\w-]{24}$/.test(key) ? key : undefined;
}

/** The service's names of the audience's fields, and the form's. */
const FORM_FIELDS: Readonly<Record<string, string>> = { 'audience.kind': 'audience', 'audience.group_id': 'group_id', 'audience.role': 'role' };

function formErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [FORM_FIELDS[field] ?? field, messages]));
}

async function groupName(massSends: MassSends, input: MassSendInput): Promise<string | null> {
  if (input.audience.kind !== 'group') return null;
  return (await massSends.groups()).find((group) => group.id === input.audience.group_id)?.name ?? null;
}

/** What the confirmation repeats before sending: kind, audience and subject. */
function summary(input: MassSendInput, group: string | null): SafeHtml {
  const audience =
    input.audience.kind === 'group'
      ? t('admin.mass_send.to_group', { group: group ?? '' })
      : input.audience.kind === 'role'
        ? t('admin.mass_send.to_role', { role: valueLabel('admin.role', input.audience.role ?? 'user') })
        : t('admin.mass_send.to_all');
  return html`<dl class="facts">
  <dt>${t('admin.mass_send.kind')}</dt><dd>${valueLabel('admin.mass_send.kind', input.kind)}</dd>
  <dt>${t('admin.mass_send.audience')}</dt><dd>${audience}</dd>
  <dt>${t('admin.mass_send.subject')}</dt><dd>${input.subject}</dd>
</dl>`;
}

function audienceText(send: MassSendRow): string {
  if (send.audience === 'group') return t('admin.mass_send.to_group', { group: send.group_name ?? '' });
  if (send.audience === 'role') return t('admin.mass_send.to_role', { role: valueLabel('admin.role', send.role ?? 'user') });
  return t('admin.mass_send.to_all');
}

function sender(send: MassSendRow): SafeHtml {
  return send.sender_id === null
    ? html`${send.sender_name}`
    : html`<a href="${profilePath({ id: send.sender_id, name: send.sender_name })}">${send.sender_name}</a>`;
}

/** "120 of 300 · sending", or "300 of 300 · done". */
function progressText(send: MassSendRow): SafeHtml {
  return html`${t('admin.mass_send.sent_of', { sent: number(send.sent), recipients: number(send.recipients) })} <span class="badge ${send.status === 'done' ? 'on' : 'off'}">${valueLabel('admin.mass_send.status', send.status)}</span>`;
}

/** The send's progress; under way, it looks again every few seconds (htmx swaps in the new figures, and stops once done). */
function progress(send: MassSendRow): SafeHtml {
  const polling =
    send.status === 'sending' ? html` hx-get="${massSendAdminPath(send.id)}" hx-trigger="${PROGRESS_POLL}" hx-select="#progress" hx-swap="outerHTML"` : '';
  return html`<section id="progress" aria-labelledby="progress-heading"${polling}>
<h2 id="progress-heading">${t('admin.mass_send.progress')}</h2>
<p><progress max="${Math.max(send.recipients, send.sent, 1)}" value="${send.sent}" aria-labelledby="progress-heading"></progress> ${progressText(send)}</p>
<p class="muted">${send.finished_at === null ? t('admin.mass_send.under_way') : html`${t('admin.mass_send.finished')} ${timestamp(send.finished_at)}`}</p>
</section>`;
}
