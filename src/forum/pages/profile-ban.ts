// The ban panel of a profile page, for moderators who may ban the member
// (docs/moderation.md): a reason and an optional last day, posted to
// `/profile/{slug}.{id}/ban/`; on a banned member, its reason and end and
// "Lift the ban" (`…/unban/`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { withQuery } from '../../urls/paths.ts';
import { entityForm, type EntityForm, type PageVisit } from '../../urls/semantic-routes.ts';
import { banEndDay } from '../../users/ban.ts';
import { t } from '../../i18n/messages.ts';
import type { UserRow } from '../../users/repository.ts';
import { NoFields, attempt, failedNotice, submittedText } from '../../web/form.ts';
import { pageFormState, textInput } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { BanBody } from '../ban-routes.ts';
import { BAN_REASON_MAX, type MemberBans } from '../member-bans.ts';
import { buttonForm } from './parts.ts';

/** The API's body, with the empty "last day" a form sends for a ban without an end. */
const BanForm = Type.Object({
  reason: BanBody.properties.reason,
  until: Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$', description: 'The day the ban ends (00:00 UTC); empty: until lifted' })),
});

export interface FailedBan {
  values: Record<string, string>;
  errors: FieldErrors;
}

export type ShowProfile = (request: FastifyRequest, reply: FastifyReply, user: UserRow, visit: PageVisit, failed?: FailedBan) => Promise<FastifyReply>;

export function banPanel(request: FastifyRequest, reply: FastifyReply, user: UserRow, visit: PageVisit, failed: FailedBan | undefined): SafeHtml {
  if (user.status === 'banned') {
    const end = banEndDay(user);
    return html`<section aria-labelledby="ban-heading" class="moderation"><h2 id="ban-heading">${t('ban.heading')}</h2>
<p>${t('ban.reason', { reason: user.ban_reason ?? t('ban.no_reason') })} ${end === null ? t('ban.until_lifted') : t('ban.ends_on', { day: end })}</p>
${buttonForm(request, reply, `${visit.canonicalPath}unban/`, t('ban.lift'))}
</section>`;
  }
  const form = pageFormState(failed?.values, failed?.errors);
  return html`<details class="moderation"${failed === undefined ? '' : html` open`}><summary>${t('ban.summary', { name: user.username })}</summary>
${failed === undefined ? '' : failedNotice(undefined, failed.errors, ['reason', 'until'])}
<form method="post" action="${visit.canonicalPath}ban/" class="stacked">
${csrfInput(request, reply)}
${textInput(form, { name: 'reason', label: t('ban.reason_label'), required: true, maxlength: BAN_REASON_MAX })}
${textInput(form, { name: 'until', label: t('ban.until_label'), type: 'date' })}
<div><button type="submit">${t('ban.submit')}</button></div>
</form>
</details>`;
}

export function banForms(bans: MemberBans, show: ShowProfile): Array<EntityForm<UserRow>> {
  return [
    entityForm<UserRow, typeof BanForm>({
      name: 'ban',
      body: BanForm,
      async submit(request, reply, user, visit, body) {
        const banned = await attempt(() =>
          bans.ban(assertUser(request), user.id, { reason: body.reason, until: body.until === undefined || body.until === '' ? null : body.until }),
        );
        if (!banned.ok) return show(request, reply, user, visit, { values: submittedText(request.body), errors: banned.errors });
        return reply.redirect(withQuery(visit.canonicalPath, { ban: 'saved' }), 303);
      },
      invalid: (request, reply, user, visit, errors) => show(request, reply, user, visit, { values: submittedText(request.body), errors }),
    }),
    entityForm<UserRow, typeof NoFields>({
      name: 'unban',
      body: NoFields,
      async submit(request, reply, user, visit) {
        await bans.lift(assertUser(request), user.id);
        return reply.redirect(withQuery(visit.canonicalPath, { ban: 'lifted' }), 303);
      },
      invalid: (request, reply, user, visit, errors) => show(request, reply, user, visit, { values: {}, errors }),
    }),
  ];
}
