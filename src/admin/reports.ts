// /admin/reports/ (docs/moderation.md, "Reports"): the open reports of the
// posts the viewer moderates, newest first (`?status=resolved` for those
// resolved, with who resolved them and how), each with the post's start, a
// link to it, the reporter and their reason, and two buttons: "Acted on it"
// and "Dismiss". Plain forms; the rules are the service's (forum/reports.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { MODERATORS, assertUser, requirePage } from '../auth/guard.ts';
import type { ReportResolution, ReportRow } from '../forum/reports.ts';
import { postPathOn } from '../forum/resource.ts';
import type { ForumService } from '../forum/service.ts';
import { ApiError } from '../http/errors.ts';
import { PageQueryProperties, pageRequest } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { t } from '../i18n/messages.ts';
import { topicPath } from '../urls/paths.ts';
import { submitted, text, withoutBlanks } from '../web/form.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, timestamp } from './lists.ts';

const BASE = '/admin/reports/';
const ListQuery = Type.Object({ ...PageQueryProperties, status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')])) });
/** How much of the reported post the list shows. */
const EXCERPT = 300;

export const reportPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  const moderators = requirePage(MODERATORS);

  app.get(BASE, { preValidation: moderators }, async (request, reply) => {
    const query = checkForm(ListQuery, withoutBlanks(request.query));
    const open = !(query.ok && query.value.status === 'resolved');
    const page = pageRequest(query.ok ? query.value : {});
    const { rows, total } = await forum.reports.list(assertUser(request), open, page);
    return sendAdminPage(request, reply, {
      title: t('admin.reports.title'),
      section: 'reports',
      body: html`<h1>${t('admin.reports.title')}</h1>
<p class="muted">${t('admin.reports.intro')}</p>
<p>${open ? html`<a href="${BASE}?status=resolved">${t('admin.reports.show_resolved')}</a>` : html`<a href="${BASE}">${t('admin.reports.show_open')}</a>`}</p>
${
  rows.length === 0
    ? html`<p>${open ? t('admin.reports.none_open') : t('admin.reports.none_resolved')}</p>`
    : html`<ol class="reports">${rows.map((row) => reportItem(request, reply, row, open))}</ol>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total }, t('admin.reports.pages'))}`,
    });
  });

  app.post(`${BASE}:id/resolve/`, { preValidation: moderators, schema: { params: IdParams } }, async (request, reply) => {
    const resolution = text(submitted(request.body), 'resolution');
    if (resolution !== 'acted' && resolution !== 'dismissed') throw new ApiError('BAD_REQUEST', t('admin.reports.choose'));
    try {
      await forum.reports.resolve((request.params as { id: number }).id, assertUser(request), resolution satisfies ReportResolution);
    } catch (error) {
      // Another moderator resolved it meanwhile: the list says so.
      if (error instanceof ApiError && error.code === 'CONFLICT') return redirectWithNotice(request, reply, BASE, error.message, 'error');
      throw error;
    }
    return redirectWithNotice(request, reply, BASE, t(resolution === 'acted' ? 'admin.reports.acted' : 'admin.reports.dismissed'));
  });
};

function reportItem(request: FastifyRequest, reply: FastifyReply, row: ReportRow, open: boolean): SafeHtml {
  const post = postPathOn(topicPath({ id: row.topic_id, title: row.topic_title }), row.post_id);
  const button = (resolution: ReportResolution, label: string, kind: string) =>
    html`<form method="post" action="${BASE}${row.id}/resolve/" class="inline">${csrfInput(request, reply)}<input type="hidden" name="resolution" value="${resolution}"><button type="submit" class="small ${kind}">${label}</button></form>`;
  return html`<li class="card">
<p><a href="${post}">${row.topic_title}</a> · ${timestamp(row.created_at)}</p>
<blockquote class="pending-body">${row.post_body.slice(0, EXCERPT)}${row.post_body.length > EXCERPT ? '…' : ''}</blockquote>
<p><strong>${row.reporter_name}</strong>: ${row.reason}</p>
${
  open
    ? html`<div class="actions">${button('acted', t('admin.reports.act'), '')}${button('dismissed', t('admin.reports.dismiss'), 'secondary')}</div>`
    : html`<p class="muted">${t(row.resolution === 'acted' ? 'admin.reports.was_acted' : 'admin.reports.was_dismissed', { name: row.resolved_by_name ?? t('admin.reports.someone') })} ${row.resolved_at === null ? '' : timestamp(row.resolved_at)}</p>`
}
</li>`;
}
