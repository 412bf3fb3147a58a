// /admin/moderation-log/: what moderators did (approve, reject, lock, pin,
// announce, move, delete, ban), newest first, filtered by action and moderator. Admins only:
// the log is how they see their moderators' work.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { assertUser, MODERATORS, requirePage } from '../auth/guard.ts';
import { moderatedScope } from '../forum/access.ts';
import { MODERATION_ACTIONS, type LogEntry } from '../forum/moderation-log.ts';
import { ModerationLogQuery } from '../forum/routes.ts';
import type { ForumService } from '../forum/service.ts';
import { pageRequest } from '../http/pagination.ts';
import { checkForm } from '../http/validation.ts';
import { forumPath } from '../urls/paths.ts';
import { withoutBlanks } from '../web/form.ts';
import { errorSummary, formState, options, selectField, textInput } from '../web/form-controls.ts';
import { isTextKey, t } from '../i18n/messages.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { AuthorLinks } from '../forum/pages/parts.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';

const BASE = '/admin/moderation-log/';

const ACTION_NAMES: Readonly<Record<LogEntry['action'], string>> = {
  approve: 'Approved',
  reject: 'Rejected',
  lock: 'Locked',
  unlock: 'Unlocked',
  pin: 'Pinned',
  unpin: 'Unpinned',
  announce: 'Announced',
  unannounce: 'Removed announcement',
  close_poll: 'Closed poll',
  reopen_poll: 'Reopened poll',
  delete_poll: 'Deleted poll',
  comment_post: 'Commented on post',
  uncomment_post: 'Removed comment from post',
  move: 'Moved',
  split_topic: 'Split topic',
  merge_topic: 'Merged topic',
  resolve_report: 'Resolved report',
  delete_topic: 'Deleted topic',
  delete_post: 'Deleted post',
  ban: 'Banned',
  unban: 'Lifted ban',
  hide_post: 'Hid post',
  restore_post: 'Restored post',
  hide_topic: 'Hid topic',
  restore_topic: 'Restored topic',
  remove_avatar: 'Removed avatar',
  set_permissions: 'Set forum permissions',
};

export const moderationLogPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  app.get(BASE, { preValidation: requirePage(MODERATORS) }, async (request, reply) => {
    const raw = withoutBlanks(request.query);
    const query = checkForm(ModerationLogQuery, raw);
    const filters = formState('filters', raw, query.ok ? {} : query.errors);
    const page = pageRequest(query.ok ? query.value : {});
    // A forum moderator reads the entries about their forums (docs/access.md); staff all of them.
    const user = assertUser(request);
    const permissions = await forum.access.of(user);
    const { rows, total } = query.ok
      ? await forum.moderationLog.list(
          { action: query.value.action ?? null, actorName: query.value.moderator ?? null, topicId: query.value.topic_id ?? null },
          page,
          moderatedScope(user, permissions),
          permissions.viewScope(),
        )
      : { rows: [], total: 0 };
    const info = { page: page.page, perPage: page.perPage, total };
    const authors = new AuthorLinks();
    return sendAdminPage(request, reply, {
      title: t('admin.log.title'),
      section: 'moderation-log',
      status: query.ok ? 200 : 422,
      body: html`<h1>${t('admin.log.title')}</h1>
<p class="muted">${t('admin.log.intro')}</p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="${t('admin.log.filter')}">
  ${selectField(filters, { name: 'action', label: t('admin.log.action'), blank: t('admin.any'), options: options(MODERATION_ACTIONS, (action) => actionName(action as LogEntry['action'])) })}
  ${textInput(filters, { name: 'moderator', label: t('admin.log.moderator'), type: 'search', maxlength: 32 })}
  <div class="actions"><button type="submit">${t('admin.filter')}</button><a href="${BASE}">${t('admin.clear')}</a></div>
</form>
${errorSummary(filters, t('admin.filter_invalid'))}
<p class="muted">${rangeText(info, rows.length, { none: 'admin.log.none', range: 'admin.log.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.log.title')}</caption>
  <thead><tr><th scope="col">${t('admin.log.when')}</th><th scope="col">${t('admin.log.moderator')}</th><th scope="col">${t('admin.log.action')}</th><th scope="col">${t('admin.log.on')}</th><th scope="col">${t('admin.log.where')}</th></tr></thead>
  <tbody>${rows.map(
    (entry) => html`<tr>
    <td>${timestamp(entry.created_at)}</td>
    <td>${authors.link(entry.actor_id, entry.actor_name)}</td>
    <th scope="row">${actionName(entry.action)}</th>
    <td>${entry.subject}${entry.topic_id === null ? '' : html` <span class="muted">(${entry.post_id === null ? t('admin.log.topic', { topic: String(entry.topic_id) }) : t('admin.log.topic_post', { topic: String(entry.topic_id), post: String(entry.post_id) })})</span>`}</td>
    <td>${where(entry)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.log.pages'))}`,
    });
  });
};

function forumLink(id: number | null, name: string | null): SafeHtml {
  if (id === null) return html``;
  return name === null
    ? html`<span class="muted">${t('admin.log.deleted_forum', { id: String(id) })}</span>`
    : html`<a href="${forumPath({ id, name })}">${name}</a>`;
}

function where(entry: LogEntry): SafeHtml {
  const between = entry.action === 'move' || ((entry.action === 'split_topic' || entry.action === 'merge_topic') && entry.to_forum_id !== entry.forum_id);
  if (between) return html`${forumLink(entry.forum_id, entry.forum_name)} → ${forumLink(entry.to_forum_id, entry.to_forum_name)}`;
  return forumLink(entry.forum_id, entry.forum_name);
}

/** The action's name in the reader's language; an action the catalogs do not name yet keeps its English name. */
function actionName(action: LogEntry['action']): string {
  const key = `admin.log.action.${action}`;
  return isTextKey(key) ? t(key) : ACTION_NAMES[action];
}
