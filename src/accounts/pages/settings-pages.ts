// `/settings/` (login required): the owner's e-mail address, password,
// signature and avatar, one form each, posted to `/settings/email/`, `/settings/password/`,
// `/settings/signature/` and `/settings/avatar/` (multipart; `/settings/remove-avatar/`) and checked there by their schemas;
// reading, privacy and mail to all members likewise (`/settings/mass-mail/`). Address and
// password changes need the current password. A new address takes effect
// when the link mailed to it is opened at `/settings/email/{key}/`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import { startBrowserSession } from './login-pages.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { loginPath, profilePath, settingsPath } from '../../urls/paths.ts';
import { fixedForm, type FixedForm, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { PASSWORD_MIN, SIGNATURE_MAX } from '../../users/fields.ts';
import type { UserRow } from '../../users/repository.ts';
import { csrfMismatch } from '../../auth/csrf.ts';
import {
  NoFields,
  attempt,
  failedNotice,
  failedStatus,
  formerAction,
  okNotice,
  outdatedForm,
  outdatedFormRefusal,
  sessionEndedPage,
  submittedText,
} from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { checkbox, pageFormState, selectField, textArea, textInput } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { EmailChangeForm, MassMailForm, PasswordChangeForm, PrivacyForm, ReadingForm, SignatureForm, withConfirmation } from '../forms.ts';
import { LOCALES, LOCALE_NAMES, TIME_ZONE_LIST, isTimeZone } from '../../i18n/locale.ts';
import { readerOf } from '../../i18n/context.ts';
import { t, tn } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { tHtml } from '../../web/translated.ts';
import { EMAIL_CHANGE_KEY_HOURS } from '../service.ts';
import { uploadedFile } from '../../http/multipart.ts';
import { AVATAR_RULES } from '../../users/avatars/avatar-image.ts';
import { avatarUrl } from '../../users/avatars/avatars.ts';
import { avatarImg } from '../../web/avatar.ts';
import type { AccountPageDeps } from './deps.ts';
import { withKey, type KeyProblemTexts } from './key-problem.ts';

type Section = 'email' | 'password' | 'signature' | 'avatar' | 'reading' | 'privacy' | 'mass-mail';

interface Failed {
  section: Section;
  values: Record<string, string>;
  errors: FieldErrors;
  /** Refused as a whole (an expired form, 403) rather than for its fields. */
  refusal?: FormRefusal;
}

/** The sections a form posted to `/settings/` itself (before each had its address) can be from. */
const SECTIONS: readonly Section[] = ['email', 'password', 'signature'];

/** What a form shows again when its login ended meanwhile; passwords are never echoed. In the reader's language, so made for each request. */
function draftFields(section: Section): Array<{ name: string; label: string }> {
  if (section === 'email') return [{ name: 'email', label: t('settings.email.new') }];
  if (section === 'signature') return [{ name: 'signature', label: t('profile.signature') }];
  return [];
}

/** The notice after a saved section (`?saved=…`), in the reader's language. */
function savedNotice(saved: string | null): string | undefined {
  switch (saved) {
    case 'email':
      return tn('settings.saved.email', EMAIL_CHANGE_KEY_HOURS);
    case 'email-unchanged':
      return t('settings.saved.email_unchanged');
    case 'password':
      return t('settings.saved.password');
    case 'signature':
      return t('settings.saved.signature');
    case 'avatar':
      return t('settings.saved.avatar');
    case 'avatar-removed':
      return t('settings.saved.avatar_removed');
    case 'reading':
      return t('settings.reading.saved');
    case 'privacy':
      return t('settings.privacy.saved');
    case 'mass-mail':
      return t('settings.mass_mail.saved');
    default:
      return undefined;
  }
}

export function settingsPage({ accounts, auth, avatars, massMail }: AccountPageDeps): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, query: URLSearchParams, failed?: Failed): Promise<FastifyReply> {
    const me = await accounts.owner(assertUser(request));
    const saved = failed !== undefined ? undefined : savedNotice(query.get('saved'));
    const errorsOf = (section: Section) => (failed?.section === section ? failed.errors : undefined);
    const valueOf = (section: Section, field: string, fallback = '') => (failed?.section === section ? (failed.values[field] ?? '') : fallback);
    return sendPage(request, reply, {
      title: t('settings.title'),
      canonical: settingsPath(),
      status: failed === undefined ? 200 : failedStatus(reply, failed.refusal),
      body: html`<h1>${t('settings.title')}</h1>
${saved === undefined ? '' : okNotice(saved)}
<p>${tHtml('settings.public_profile', { profile: html`<a href="${profilePath({ id: me.id, name: me.username })}">${me.username}</a>` })}</p>
${section(
  request,
  reply,
  'email',
  t('register.email'),
  failed,
  ['email', 'current_password'],
  html`
<p class="muted">${t('settings.email.now', { email: me.email })}</p>
${textInput(pageFormState({ email: valueOf('email', 'email') }, errorsOf('email') ?? {}), { type: 'email', name: 'email', id: 'email-new', label: t('settings.email.new'), required: true, autocomplete: 'email' })}
${textInput(pageFormState({}, errorsOf('email') ?? {}), { type: 'password', name: 'current_password', id: 'email-current-password', label: t('settings.email.current_password'), required: true, autocomplete: 'current-password' })}
<div><button type="submit">${t('settings.email.submit')}</button></div>`,
)}
${section(
  request,
  reply,
  'password',
  t('login.password'),
  failed,
  ['current_password', 'password', 'password_confirmation'],
  html`
${textInput(pageFormState({}, errorsOf('password') ?? {}), { type: 'password', name: 'current_password', id: 'password-current-password', label: t('settings.password.current'), required: true, autocomplete: 'current-password' })}
${textInput(pageFormState({}, errorsOf('password') ?? {}), { type: 'password', name: 'password', id: 'password-new', label: t('reset.password'), required: true, autocomplete: 'new-password', hint: t('register.password_hint', { min: PASSWORD_MIN }) })}
${textInput(pageFormState({}, errorsOf('password') ?? {}), { type: 'password', name: 'password_confirmation', id: 'password-confirmation', label: t('reset.repeat'), required: true, autocomplete: 'new-password' })}
<div><button type="submit">${t('settings.password.submit')}</button></div>`,
)}
${section(
  request,
  reply,
  'signature',
  t('profile.signature'),
  failed,
  ['signature'],
  html`
${textArea(pageFormState({ signature: valueOf('signature', 'signature', me.signature) }, errorsOf('signature') ?? {}), { name: 'signature', label: t('profile.signature'), maxlength: SIGNATURE_MAX, rows: 4, hint: tn('settings.signature.hint', SIGNATURE_MAX) })}
<div><button type="submit">${t('settings.signature.save')}</button></div>`,
)}
${avatarSection(request, reply, me, failed?.section === 'avatar' ? failed : undefined)}
${section(
  request,
  reply,
  'reading',
  t('settings.reading'),
  failed,
  ['locale', 'time_zone'],
  html`
<p class="muted">${t('settings.reading.hint')}</p>
${selectField(pageFormState({ locale: valueOf('reading', 'locale', me.locale ?? '') }, errorsOf('reading') ?? {}), {
  name: 'locale',
  label: t('settings.language'),
  blank: t('settings.language.auto'),
  options: LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] })),
})}
${selectField(pageFormState({ time_zone: valueOf('reading', 'time_zone', me.time_zone ?? '') }, errorsOf('reading') ?? {}), {
  name: 'time_zone',
  label: t('settings.time_zone'),
  blank: t('settings.time_zone.auto', { zone: readerOf(request, null).timeZone }),
  options: TIME_ZONE_LIST.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
})}
<div><button type="submit">${t('settings.reading.save')}</button></div>`,
)}
${section(
  request,
  reply,
  'privacy',
  t('settings.privacy'),
  failed,
  ['hide_online'],
  html`
${checkbox(pageFormState({ hide_online: valueOf('privacy', 'hide_online', me.hide_online ? '1' : '') }, errorsOf('privacy') ?? {}), {
  name: 'hide_online',
  label: t('settings.privacy.hide_online'),
  hint: t('settings.privacy.hint'),
})}
<div><button type="submit">${t('settings.privacy.save')}</button></div>`,
)}
${section(
  request,
  reply,
  'mass-mail',
  t('settings.mass_mail'),
  failed,
  ['mass_mails'],
  html`
${checkbox(pageFormState({ mass_mails: valueOf('mass-mail', 'mass_mails', me.mass_mails ? '1' : '') }, errorsOf('mass-mail') ?? {}), {
  name: 'mass_mails',
  label: t('settings.mass_mail.label'),
  hint: t('settings.mass_mail.hint'),
})}
<div><button type="submit">${t('settings.mass_mail.save')}</button></div>`,
)}`,
    });
  }

  function section(
    request: FastifyRequest,
    reply: FastifyReply,
    name: Section,
    title: string,
    failed: Failed | undefined,
    fields: string[],
    controls: SafeHtml,
  ): SafeHtml {
    return html`<section aria-labelledby="${name}-heading">
<h2 id="${name}-heading">${title}</h2>
${failed?.section !== name ? '' : failedNotice(failed.refusal, failed.errors, fields)}
<form method="post" action="${settingsPath()}${name}/" class="stacked">
${csrfInput(request, reply)}
${controls}
</form>
</section>`;
  }

  function avatarSection(request: FastifyRequest, reply: FastifyReply, me: UserRow, failed: Failed | undefined): SafeHtml {
    const url = avatarUrl(me);
    const errors = failed?.errors['file'];
    return html`<section aria-labelledby="avatar-heading">
<h2 id="avatar-heading">${t('settings.avatar')}</h2>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['file'])}
${url === null ? html`<p class="muted">${t('settings.avatar.none')}</p>` : html`<p>${avatarImg(url, 80, t('settings.avatar.alt'))}</p>`}
<form method="post" action="${settingsPath()}avatar/" enctype="multipart/form-data" class="stacked">
${csrfInput(request, reply)}
<div class="field"><label for="avatar-file">${t('settings.avatar.image')}</label>
<p class="hint" id="avatar-file-hint">${t('settings.avatar.hint', { size: formatBytes(AVATAR_RULES.maxBytes) })}</p>
<input type="file" id="avatar-file" name="file" accept="image/png,image/jpeg,image/gif,image/webp" required aria-describedby="avatar-file-hint${errors === undefined ? '' : ' avatar-file-error'}"${errors === undefined ? '' : html` aria-invalid="true"`}>
${errors === undefined ? '' : html`<p class="error" id="avatar-file-error">${errors.join(' ')}</p>`}
</div>
<div><button type="submit">${t('settings.avatar.upload')}</button></div>
</form>
${
  url === null
    ? ''
    : html`<form method="post" action="${settingsPath()}remove-avatar/" class="inline">
${csrfInput(request, reply)}
<button type="submit">${t('settings.avatar.remove')}</button>
</form>`
}
</section>`;
  }

  /** A section's form shown again with what was typed (passwords never) and why nothing was saved. */
  async function refill(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, section: Section, refusal: FormRefusal): Promise<FastifyReply> {
    const values = submittedText(request.body);
    if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: draftFields(section), values });
    return show(request, reply, visit.query, { section, values, errors: {}, refusal });
  }

  /** A section's form at `/settings/{section}/`: its schema, then the service; field errors show the section again (422). */
  function sectionForm<S extends TSchema>(
    section: Section,
    body: S,
    submit: FixedForm<S>['submit'],
    check: (values: Record<string, string>, errors: FieldErrors | undefined) => FieldErrors | undefined = (_, errors) => errors,
  ): FixedForm<S> {
    return fixedForm({
      name: section,
      body,
      async submit(request, reply, visit, valid) {
        const errors = check(submittedText(request.body), undefined);
        if (errors !== undefined) return show(request, reply, visit.query, { section, values: submittedText(request.body), errors });
        return submit(request, reply, visit, valid);
      },
      invalid: (request, reply, visit, errors) => {
        const values = submittedText(request.body);
        return show(request, reply, visit.query, { section, values, errors: check(values, errors) ?? errors });
      },
      refused: (request, reply, visit, refusal) => refill(request, reply, visit, section, refusal),
    });
  }

  const failed = (request: FastifyRequest, reply: FastifyReply, visit: PageVisit, section: Section, errors: FieldErrors) =>
    show(request, reply, visit.query, { section, values: submittedText(request.body), errors });

  const forms: FixedForm[] = [
    sectionForm('email', EmailChangeForm, async (request, reply, visit, body) => {
      const result = await attempt(() => accounts.requestEmailChange(assertUser(request), body.current_password, body.email));
      if (!result.ok) return failed(request, reply, visit, 'email', result.errors);
      return reply.redirect(settingsPath({ saved: result.value === 'unchanged' ? 'email-unchanged' : 'email' }), 303);
    }),
    sectionForm(
      'password',
      PasswordChangeForm,
      async (request, reply, visit, body) => {
        const user = assertUser(request);
        const result = await attempt(() => accounts.changePassword(user, body.current_password, body.password));
        if (!result.ok) return failed(request, reply, visit, 'password', result.errors);
        // The change ended every session, this one too; this browser gets a new one.
        await startBrowserSession(auth, user.id, request, reply);
        return reply.redirect(settingsPath({ saved: 'password' }), 303);
      },
      (values, errors) => withConfirmation(errors, values),
    ),
    sectionForm('signature', SignatureForm, async (request, reply, visit, body) => {
      const result = await attempt(() => accounts.changeSignature(assertUser(request), body.signature));
      if (!result.ok) return failed(request, reply, visit, 'signature', result.errors);
      return reply.redirect(settingsPath({ saved: 'signature' }), 303);
    }),
    sectionForm('privacy', PrivacyForm, async (request, reply, _visit, body) => {
      await accounts.changePrivacy(assertUser(request), body.hide_online === '1');
      return reply.redirect(settingsPath({ saved: 'privacy' }), 303);
    }),
    sectionForm('mass-mail', MassMailForm, async (request, reply, _visit, body) => {
      await massMail.set(assertUser(request), body.mass_mails === '1');
      return reply.redirect(settingsPath({ saved: 'mass-mail' }), 303);
    }),
    sectionForm('reading', ReadingForm, async (request, reply, visit, body) => {
      const locale = body.locale === undefined || body.locale === '' ? null : body.locale;
      const zone = body.time_zone === undefined || body.time_zone === '' ? null : body.time_zone;
      if (zone !== null && !isTimeZone(zone)) return failed(request, reply, visit, 'reading', { time_zone: [t('settings.reading.bad_time_zone')] });
      await accounts.changeReading(assertUser(request), locale, zone);
      return reply.redirect(settingsPath({ saved: 'reading' }), 303);
    }),
    fixedForm({
      name: 'avatar',
      body: NoFields,
      fileBytes: AVATAR_RULES.maxBytes,
      async submit(request, reply, visit) {
        const user = assertUser(request);
        const result = await attempt(() => avatars.upload(user.id, uploadedFile(request), user));
        if (!result.ok) return failed(request, reply, visit, 'avatar', result.errors);
        return reply.redirect(settingsPath({ saved: 'avatar' }), 303);
      },
      invalid: (request, reply, visit, errors) => failed(request, reply, visit, 'avatar', errors),
      refused: (request, reply, visit, refusal) => refill(request, reply, visit, 'avatar', refusal),
    }),
    fixedForm({
      name: 'remove-avatar',
      body: NoFields,
      async submit(request, reply) {
        const user = assertUser(request);
        await avatars.remove(user.id, user);
        return reply.redirect(settingsPath({ saved: 'avatar-removed' }), 303);
      },
      invalid: (request, reply, visit, errors) => failed(request, reply, visit, 'avatar', errors),
      refused: (request, reply, visit, refusal) => refill(request, reply, visit, 'avatar', refusal),
    }),
  ];

  /** A POST to `/settings/` itself: a section's form from before each had its address. Shown again, nothing saved (400). */
  async function former(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply> {
    const section = formerSection(request.body);
    if (section === undefined) throw outdatedForm();
    return refill(request, reply, visit, section, outdatedFormRefusal());
  }

  return {
    loginRequired: true,
    serve: (request, reply, visit) => (request.method === 'POST' ? former(request, reply, visit) : show(request, reply, visit.query)),
    async refused(request, reply, visit, refusal) {
      const section = formerSection(request.body);
      if (section === undefined) throw csrfMismatch();
      return refill(request, reply, visit, section, refusal);
    },
    forms,
  };
}

function formerSection(body: unknown): Section | undefined {
  return SECTIONS.find((name) => name === formerAction(body));
}

/** In the reader's language, so made for each request. */
function problems(): KeyProblemTexts {
  return {
    title: t('settings.confirm.invalid_title'),
    messages: { unknown: t('settings.confirm.unknown'), expired: t('settings.confirm.expired'), used: t('settings.confirm.used') },
    next: html`<p><a href="${settingsPath()}">${t('settings.title')}</a> · <a href="${loginPath()}">${t('login.title')}</a></p>`,
  };
}

const NOINDEX = html`<meta name="robots" content="noindex">`;

/** `/settings/email/{key}/`: GET asks, POST confirms (so a mail scanner following the link changes nothing). */
export function emailConfirmationPage({ accounts }: AccountPageDeps): FixedPage {
  function done(request: FastifyRequest, reply: FastifyReply, user: UserRow): FastifyReply {
    return sendPage(request, reply, {
      title: t('settings.confirm.done_title'),
      head: NOINDEX,
      body: html`<h1>${t('settings.confirm.done_title')}</h1><p class="notice ok" role="status">${t('settings.confirm.done', { name: user.username, email: user.email })}</p><p><a href="${settingsPath()}">${t('settings.title')}</a></p>`,
    });
  }

  return {
    async serve(request, reply, visit) {
      const key = visit.params['key'] ?? '';
      return withKey(request, reply, problems(), async () => {
        const { change, user } = await accounts.checkEmailChange(key);
        if (request.method === 'POST') {
          const result = await attempt(() => accounts.confirmEmailChange(key));
          if (result.ok) return done(request, reply, result.value);
          return sendPage(request, reply, {
            title: t('settings.confirm.taken_title'),
            status: 409,
            head: NOINDEX,
            body: html`<h1>${t('settings.confirm.taken_title')}</h1><p class="notice error" role="alert">${t('settings.confirm.taken', { email: change.new_email, name: user.username })}</p><p><a href="${settingsPath()}">${t('settings.title')}</a></p>`,
          });
        }
        return sendPage(request, reply, {
          title: t('settings.confirm.title'),
          head: NOINDEX,
          body: html`<h1>${t('settings.confirm.title')}</h1>
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
<p>${tHtml('settings.confirm.question', { email: html`<strong>${change.new_email}</strong>`, name: html`<strong>${user.username}</strong>` })}</p>
<div><button type="submit">${t('settings.confirm.submit')}</button></div>
</form>`,
        });
      });
    },
  };
}
