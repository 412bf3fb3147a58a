// /admin/forums/{id}/permissions/: a forum's permissions as TorrentPier's
// "forum permissions" screen set them, without JavaScript: one level per
// action, then each grant (to a group or one member) as a row of actions and
// "moderates", with a row to add one by name. Saved whole through the API's
// service (forum-permissions.ts): one transaction, logged.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMINS, assertUser, requirePage } from '../auth/guard.ts';
import type { AccessLevel } from '../db/schema.ts';
import type { NamedGrant, PermissionsInput } from '../forum/forum-permissions.ts';
import { ACCESS_ACTIONS, ACCESS_LEVELS, type AccessAction } from '../forum/permissions.ts';
import type { ForumRow } from '../forum/repository.ts';
import type { ForumService } from '../forum/service.ts';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { t } from '../i18n/messages.ts';
import { checkbox, checkboxGroup, errorSummary, formState, selectField, textInput, type FormState } from '../web/form-controls.ts';
import { submitted, text, validationErrors, type SubmittedForm } from '../web/form.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/forums/';
/** How many grant rows one form may carry back: the service's limit plus the row that adds one. */
const ROWS_MAX = 501;

export const forumPermissionPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  const admin = requirePage(ADMINS);

  app.get(`${BASE}:id/permissions/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const state = await forum.permissions.get(row.id);
    const grants = await forum.permissions.named(state.grants);
    const values: Record<string, unknown> = Object.fromEntries(ACCESS_ACTIONS.map((action) => [`level_${action}`, state.levels[action]]));
    grants.forEach((grant, index) => {
      values[`grant_${index}_actions`] = [...grant.actions, ...(grant.moderate ? ['moderate'] : [])];
    });
    return permissionsPage(request, reply, row, grants, formState('permissions', values));
  });

  app.post(`${BASE}:id/permissions/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const form = submitted(request.body);
    const current = await forum.permissions.named((await forum.permissions.get(row.id)).grants);
    const read = await readForm(
      form,
      (name) => forum.permissions.groupNamed(name),
      (name) => forum.moderators.named([name]),
    );
    const shown = formState('permissions', form, read.errors);
    if (Object.keys(read.errors).length > 0) return permissionsPage(request, reply, row, current, shown, 422);
    try {
      await forum.permissions.replace(row.id, read.input, assertUser(request), row.name);
    } catch (error) {
      return permissionsPage(request, reply, row, current, formState('permissions', form, validationErrors(error)), 422);
    }
    forum.access.changed();
    return redirectWithNotice(request, reply, `${BASE}${row.id}/permissions/`, t('admin.permissions.saved', { name: row.name }));
  });
};

/**
 * The form as the service's input: the levels, each kept grant (a row names
 * its holder in a hidden field, so a grant another admin added meanwhile is
 * neither lost nor mistaken for another), and the new one when a name is
 * given. A name no group or member has is an error of the new row.
 */
async function readForm(
  form: SubmittedForm,
  groupNamed: (name: string) => Promise<number | undefined>,
  membersNamed: (name: string) => Promise<{ found: Array<{ id: number }> }>,
): Promise<{ input: PermissionsInput; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const levels = Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, text(form, `level_${action}`) ?? '']));
  const grants: PermissionsInput['grants'][number][] = [];
  for (let index = 0; index < ROWS_MAX; index++) {
    const holder = HOLDER.exec(text(form, `grant_${index}_holder`) ?? '');
    if (holder === null) break;
    if (text(form, `grant_${index}_remove`) === '1') continue;
    const id = Number(holder[2]);
    const chosen = checked(form, `grant_${index}_actions`);
    grants.push({
      ...(holder[1] === 'g' ? { group_id: id } : { user_id: id }),
      actions: chosen.filter((value) => value !== 'moderate'),
      moderate: chosen.includes('moderate'),
    });
  }
  const name = (text(form, 'new_name') ?? '').trim();
  if (name !== '') {
    const kind = text(form, 'new_kind') === 'member' ? 'member' : 'group';
    const id = kind === 'group' ? await groupNamed(name) : (await membersNamed(name)).found[0]?.id;
    if (id === undefined) errors['new_name'] = [t(kind === 'group' ? 'admin.permissions.no_group' : 'admin.permissions.no_member', { name })];
    else {
      const chosen = checked(form, 'new_actions');
      grants.push({
        ...(kind === 'group' ? { group_id: id } : { user_id: id }),
        actions: chosen.filter((value) => value !== 'moderate'),
        moderate: chosen.includes('moderate'),
      });
    }
  }
  return { input: { levels, grants }, errors };
}

/** A row's holder field: `g12` (group 12) or `u5` (member 5); ids within the API's range. */
const HOLDER = /^([gu])([1-9][0-9]{0,8})$/;

function holderField(grant: NamedGrant): string {
  return 'group_id' in grant ? `g${grant.group_id}` : `u${grant.user_id}`;
}

/** The values of a checkbox group (none checked: none sent). */
function checked(form: SubmittedForm, name: string): string[] {
  const value = form[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

function actionOptions(): Array<{ value: string; label: string }> {
  return [...ACCESS_ACTIONS.map((action) => ({ value: action, label: actionName(action) })), { value: 'moderate', label: t('admin.permissions.moderate') }];
}

function actionName(action: AccessAction): string {
  return t(`admin.permissions.action.${action}`);
}

function levelName(level: AccessLevel): string {
  return t(`admin.permissions.level.${level}`);
}

function permissionsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  row: ForumRow,
  grants: readonly NamedGrant[],
  form: FormState,
  status = 200,
): FastifyReply {
  const title = t('admin.permissions.title', { name: row.name });
  return sendAdminPage(request, reply, {
    title,
    section: 'forums',
    status,
    body: html`<p><a href="${BASE}${row.id}/">← ${t('admin.forums.edit_title', { name: row.name })}</a></p>
<h1>${title}</h1>
<p class="muted">${t('admin.permissions.intro')}</p>
${errorSummary(form)}
<form method="post" action="${BASE}${row.id}/permissions/" class="stacked permissions" novalidate>
  ${csrfInput(request, reply)}
  <h2>${t('admin.permissions.levels')}</h2>
  <div class="level-grid">
  ${ACCESS_ACTIONS.map((action) =>
    selectField(form, {
      name: `level_${action}`,
      label: actionName(action),
      options: ACCESS_LEVELS.map((level) => ({ value: level, label: levelName(level) })),
    }),
  )}
  </div>
  <h2>${t('admin.permissions.grants')}</h2>
  ${grants.length === 0 ? html`<p class="muted">${t('admin.permissions.no_grants')}</p>` : grants.map((grant, index) => grantRow(form, grant, index))}
  <fieldset class="grant">
    <legend>${t('admin.permissions.add')}</legend>
    ${selectField(form, {
      name: 'new_kind',
      label: t('admin.permissions.holder_kind'),
      options: [
        { value: 'group', label: t('admin.permissions.group') },
        { value: 'member', label: t('admin.permissions.member') },
      ],
    })}
    ${textInput(form, { name: 'new_name', label: t('admin.permissions.holder_name'), maxlength: 60 })}
    ${checkboxGroup(form, { name: 'new_actions', label: t('admin.permissions.granted'), options: actionOptions() })}
  </fieldset>
  <div class="actions"><button type="submit">${t('admin.permissions.save')}</button><a href="${BASE}${row.id}/">${t('admin.cancel')}</a></div>
</form>`,
  });
}

function grantRow(form: FormState, grant: NamedGrant, index: number): SafeHtml {
  const holder = 'group_id' in grant ? t('admin.permissions.group_named', { name: grant.name }) : t('admin.permissions.member_named', { name: grant.name });
  return html`<fieldset class="grant">
  <legend>${holder}</legend>
  <input type="hidden" name="grant_${index}_holder" value="${holderField(grant)}">
  ${checkboxGroup(form, { name: `grant_${index}_actions`, label: t('admin.permissions.granted'), options: actionOptions() })}
  ${checkbox(form, { name: `grant_${index}_remove`, label: t('admin.permissions.remove') })}
</fieldset>`;
}
