// `/profile/{slug}.{id}/email/`: write to a member by e-mail (login required).
// POST sends and comes back with `?sent=1`; other methods show the form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { profileEmailPath, profilePath, withQuery } from '../../urls/paths.ts';
import type { EntityPage, PageVisit } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { attempt, checkFields, formNotice, okNotice, sessionEndedPage, submittedText } from '../../web/form.ts';
import { pageFormState, textArea, textInput } from '../../web/form-controls.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { PROFILE_MAIL_MESSAGE_MAX, PROFILE_MAIL_SUBJECT_MAX, PROFILE_MAILS_PER_HOUR, ProfileMailForm } from '../profile-mail.ts';
import type { ForumPageDeps } from './deps.ts';
import { breadcrumb } from './parts.ts';
import { loadMember } from './member.ts';
import { t, tn } from '../../i18n/messages.ts';

interface FormState {
  status: number;
  message?: string;
  values?: Record<string, string>;
  errors?: FieldErrors;
  headers?: Record<string, string>;
}

/** The fields shown again when the login ended meanwhile, named in the reader's language. */
const draftFields = () => [
  { name: 'subject', label: t('messages.subject') },
  { name: 'message', label: t('messages.message') },
];

/** Why a mail was not sent, in the reader's language. */
function notSent(reason: 'needs-review' | 'too-many'): string {
  return reason === 'too-many' ? tn('profile_mail.too_many', PROFILE_MAILS_PER_HOUR) : t('profile_mail.needs_review');
}

export function profileEmailPage({ profileMail, users }: ForumPageDeps): EntityPage<UserRow> {
  function show(request: FastifyRequest, reply: FastifyReply, user: UserRow, visit: PageVisit, state: FormState): FastifyReply {
    const member = { id: user.id, name: user.username };
    const sent = visit.query.get('sent') === '1' && state.values === undefined;
    if (state.headers !== undefined) reply.headers(state.headers);
    return sendPage(request, reply, {
      title: t('profile_mail.title', { name: user.username }),
      canonical: visit.canonicalPath,
      status: state.status,
      body: html`${breadcrumb([{ label: user.username, href: profilePath(member) }])}
<h1>${t('profile.email', { name: user.username })}</h1>
${sent ? okNotice(t('profile_mail.sent', { name: user.username })) : ''}
<p class="muted">${t('profile_mail.intro', { name: user.username })}</p>
${formNotice(state.message, state.errors, ['subject', 'message'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(state.values, state.errors), { name: 'subject', label: t('messages.subject'), required: true, maxlength: PROFILE_MAIL_SUBJECT_MAX })}
${textArea(pageFormState(state.values, state.errors), { name: 'message', label: t('messages.message'), required: true, maxlength: PROFILE_MAIL_MESSAGE_MAX, rows: 10 })}
<div><button type="submit">${t('messages.send')}</button></div>
</form>`,
    });
  }

  return {
    loginRequired: true,
    load: (id) => loadMember(users, id),
    path: (user) => profileEmailPath({ id: user.id, name: user.username }),
    async serve(request, reply, user, visit) {
      if (request.method !== 'POST') return show(request, reply, user, visit, { status: 200 });
      const values = submittedText(request.body);
      const form = checkForm(ProfileMailForm, request.body);
      if (!form.ok) return show(request, reply, user, visit, { status: 422, message: checkFields(), values, errors: form.errors });
      const result = await attempt(() => profileMail.send(assertUser(request), user, form.value));
      if (!result.ok) {
        const { refusal } = result;
        return show(request, reply, user, visit, {
          status: refusal?.status ?? 422,
          message: refusal?.message ?? checkFields(),
          values,
          errors: result.errors,
          headers: refusal?.headers,
        });
      }
      if (!result.value.sent) {
        const status = result.value.reason === 'too-many' ? 429 : 422;
        return show(request, reply, user, visit, { status, message: notSent(result.value.reason), values });
      }
      return reply.redirect(withQuery(visit.canonicalPath, { sent: 1 }), 303);
    },
    async refused(request, reply, user, visit, refusal) {
      const values = submittedText(request.body);
      if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: draftFields(), values });
      return show(request, reply, user, visit, { status: refusal.status, message: refusal.message, values });
    },
  };
}
