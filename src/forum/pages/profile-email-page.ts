// `/profile/{slug}.{id}/email/`: write to a member by e-mail (login required).
// POST sends and comes back with `?sent=1`; other methods show the form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { profileEmailPath, profilePath, withQuery } from '../../urls/paths.ts';
import type { EntityPage, PageVisit } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { CHECK_FIELDS, attempt, formNotice, okNotice, sessionEndedPage, submittedText } from '../../web/form.ts';
import { pageFormState, textArea, textInput } from '../../web/form-controls.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { PROFILE_MAIL_MESSAGE_MAX, PROFILE_MAIL_SUBJECT_MAX, PROFILE_MAILS_PER_HOUR, ProfileMailForm } from '../profile-mail.ts';
import type { ForumPageDeps } from './deps.ts';
import { breadcrumb } from './parts.ts';
import { loadMember } from './member.ts';

interface FormState {
  status: number;
  message?: string;
  values?: Record<string, string>;
  errors?: FieldErrors;
  headers?: Record<string, string>;
}

const DRAFT_FIELDS = [
  { name: 'subject', label: 'Subject' },
  { name: 'message', label: 'Message' },
];

const NOT_SENT = {
  'needs-review':
    'Your message was not sent: it contains words that a moderator would have to review first, and a mail cannot wait for that. Please rephrase it.',
  'too-many': `Your message was not sent: you can send ${PROFILE_MAILS_PER_HOUR} messages an hour. Please try again later.`,
} as const;

export function profileEmailPage({ profileMail, users }: ForumPageDeps): EntityPage<UserRow> {
  function show(request: FastifyRequest, reply: FastifyReply, user: UserRow, visit: PageVisit, state: FormState): FastifyReply {
    const member = { id: user.id, name: user.username };
    const sent = visit.query.get('sent') === '1' && state.values === undefined;
    if (state.headers !== undefined) reply.headers(state.headers);
    return sendPage(request, reply, {
      title: `E-mail ${user.username}`,
      canonical: visit.canonicalPath,
      status: state.status,
      body: html`${breadcrumb([{ label: user.username, href: profilePath(member) }])}
<h1>Send ${user.username} an e-mail</h1>
${sent ? okNotice(`Your message to ${user.username} was sent.`) : ''}
<p class="muted">${user.username} gets your message by e-mail without seeing your address, and can answer through your profile.</p>
${formNotice(state.message, state.errors, ['subject', 'message'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(state.values, state.errors), { name: 'subject', label: 'Subject', required: true, maxlength: PROFILE_MAIL_SUBJECT_MAX })}
${textArea(pageFormState(state.values, state.errors), { name: 'message', label: 'Message', required: true, maxlength: PROFILE_MAIL_MESSAGE_MAX, rows: 10 })}
<div><button type="submit">Send</button></div>
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
      if (!form.ok) return show(request, reply, user, visit, { status: 422, message: CHECK_FIELDS, values, errors: form.errors });
      const result = await attempt(() => profileMail.send(assertUser(request), user, form.value));
      if (!result.ok) {
        const { refusal } = result;
        return show(request, reply, user, visit, {
          status: refusal?.status ?? 422,
          message: refusal?.message ?? CHECK_FIELDS,
          values,
          errors: result.errors,
          headers: refusal?.headers,
        });
      }
      if (!result.value.sent) {
        const status = result.value.reason === 'too-many' ? 429 : 422;
        return show(request, reply, user, visit, { status, message: NOT_SENT[result.value.reason], values });
      }
      return reply.redirect(withQuery(visit.canonicalPath, { sent: 1 }), 303);
    },
    async refused(request, reply, user, visit, refusal) {
      const values = submittedText(request.body);
      if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: DRAFT_FIELDS, values });
      return show(request, reply, user, visit, { status: refusal.status, message: refusal.message, values });
    },
  };
}
