// /admin/moderation/: posts a word filter held, oldest first, with their
// author, topic and the rule that held them. Approving publishes the post
// (and its topic when it opens one); rejecting deletes it and tells the
// author by mail — both through ForumService, as the API does. Staff see
// every held post; a forum moderator those of their forums, and only those
// they may decide on (the service checks each post's forum).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ForumService } from '../forum/service.ts';
import type { PostWithAuthor } from '../forum/repository.ts';
import { ResourceNotFoundError, ValidationError } from '../http/errors.ts';
import { PageQueryProperties, pageRequest } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { topicPath } from '../urls/paths.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import type { WordFilterRecord } from '../word-filters/repository.ts';
import type { WordFiltersService } from '../word-filters/service.ts';
import { htmxConfirm, isConfirmed, returnField, returnTo, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { submitted, withoutBlanks } from '../web/form.ts';
import { MODERATORS, assertUser, requirePage } from '../auth/guard.ts';
import type { AuthUser } from '../auth/service.ts';
import { t, tn } from '../i18n/messages.ts';
import { valueLabel } from './labels.ts';
import { isHtmx, liveNotice, sendFragment, sendNoticeOnly } from './htmx.ts';
import { AuthorLinks } from '../forum/pages/parts.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';

const BASE = '/admin/moderation/';
const PageQuery = Type.Object(PageQueryProperties);

type PendingPost = PostWithAuthor & { topic_title: string };

export const moderationPages: FastifyPluginAsyncTypebox<{ forum: ForumService; wordFilters: WordFiltersService }> = async (app, { forum, wordFilters }) => {
  const moderators = requirePage(MODERATORS);

  app.get(BASE, { preValidation: moderators }, async (request, reply) => {
    const query = checkForm(PageQuery, withoutBlanks(request.query));
    const page = pageRequest(query.ok ? query.value : {});
    const { rows, total } = await forum.listPending(assertUser(request), page);
    const rules = await heldBy(wordFilters, rows);
    const back = request.url;
    return sendAdminPage(request, reply, {
      title: t('admin.moderation.title'),
      section: 'moderation',
      body: html`<h1>${t('admin.moderation.title')}</h1>
<p class="muted">${t('admin.moderation.intro')}</p>
${queueCount(total, rangeText({ page: page.page, perPage: page.perPage, total }, rows.length, { none: 'admin.moderation.none', range: 'admin.moderation.range' }))}
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.moderation.caption')}</caption>
  <thead><tr><th scope="col">${t('admin.moderation.post')}</th><th scope="col">${t('admin.moderation.author')}</th><th scope="col">${t('admin.moderation.topic')}</th><th scope="col">${t('admin.moderation.held_by')}</th><th scope="col">${t('admin.moderation.written')}</th><th scope="col">${t('admin.moderation.decision')}</th></tr></thead>
  <tbody>${rows.map((post) => pendingRow(request, reply, post, rules.get(post.held_by_filter_id ?? 0) ?? null, back))}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total }, t('admin.moderation.pages'))}`,
    });
  });

  app.post(`${BASE}:id/approve/`, { preValidation: moderators, schema: { params: IdParams } }, async (request, reply) => {
    const back = returnTo(submitted(request.body), BASE);
    const post = await forum.approvePost(request.params.id, assertUser(request));
    const message = t('admin.moderation.approved', { id: String(post.id) });
    if (isHtmx(request)) return sendFragment(reply, html`${liveNotice(message)}${await remaining(forum, assertUser(request))}`);
    return redirectWithNotice(request, reply, back, message);
  });

  app.post(`${BASE}:id/reject/`, { preValidation: moderators, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const back = returnTo(form, BASE);
    const post = await forum.getPost(request.params.id, assertUser(request));
    if (!isConfirmed(form)) {
      return sendConfirmPage(request, reply, {
        section: 'moderation',
        title: t('admin.moderation.reject_title', { id: String(post.id) }),
        question: t('admin.moderation.reject_question', { author: post.author_name ?? t('admin.moderation.deleted_user') }),
        details: html`<blockquote class="pending-body">${post.body}</blockquote>`,
        action: `${BASE}${post.id}/reject/`,
        confirmLabel: t('admin.moderation.reject_confirm'),
        cancelHref: back,
        returnTo: back,
      });
    }
    try {
      await forum.rejectPost(post.id, assertUser(request));
    } catch (error) {
      // Another moderator approved it meanwhile.
      if (!(error instanceof ValidationError)) throw error;
      if (isHtmx(request)) return sendNoticeOnly(reply, error.message, 'error');
      return redirectWithNotice(request, reply, back, error.message, 'error');
    }
    const message = t('admin.moderation.rejected', { id: String(post.id) });
    if (isHtmx(request)) return sendFragment(reply, html`${liveNotice(message)}${await remaining(forum, assertUser(request))}`);
    return redirectWithNotice(request, reply, back, message);
  });
};

function queueCount(total: number, text: string, outOfBand = false): SafeHtml {
  return html`<p class="muted" id="queue-count" data-total="${total}"${outOfBand ? html` hx-swap-oob="true"` : ''}>${text}</p>`;
}

/** After an inline decision: the queue's size now (as this moderator sees it), replacing the line above the table. */
async function remaining(forum: ForumService, moderator: AuthUser): Promise<SafeHtml> {
  const { total } = await forum.listPending(moderator, { page: 1, perPage: 1, offset: 0 });
  return queueCount(total, total === 0 ? t('admin.moderation.none_left') : tn('admin.moderation.left', total), true);
}

/** The rules that held these posts; a rule deleted since then (or unknown, id 0) is absent. */
async function heldBy(wordFilters: WordFiltersService, posts: readonly PendingPost[]): Promise<Map<number, WordFilterRecord>> {
  const rules = new Map<number, WordFilterRecord>();
  for (const id of new Set(posts.map((post) => post.held_by_filter_id))) {
    if (id === null || id === 0) continue;
    try {
      rules.set(id, await wordFilters.get(id));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundError)) throw error;
    }
  }
  return rules;
}

function pendingRow(request: FastifyRequest, reply: FastifyReply, post: PendingPost, rule: WordFilterRecord | null, back: string): SafeHtml {
  const name = t('admin.moderation.named', { id: String(post.id) });
  const target = html` hx-target="closest tr" hx-swap="outerHTML"`;
  return html`<tr id="pending-${post.id}">
  <td><div class="pending-body">${post.body}</div></td>
  <td>${new AuthorLinks().link(post.author_id, post.author_name)}</td>
  <td><a href="${topicPath({ id: post.topic_id, title: post.topic_title })}">${post.topic_title}</a></td>
  <td>${rule === null ? html`<span class="muted">${t('admin.moderation.rule_deleted')}</span>` : html`<a href="/admin/word-filters/${rule.id}/">#${rule.id}</a> <code>${rule.pattern}</code> <span class="muted">(${valueLabel('admin.pattern_kind', rule.pattern_type)})</span>`}</td>
  <td>${timestamp(post.created_at)}</td>
  <td class="actions">
    <form method="post" action="${BASE}${post.id}/approve/" class="inline" hx-post="${BASE}${post.id}/approve/"${target}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small">${t('admin.moderation.approve')}<span class="visually-hidden"> ${name}</span></button>
    </form>
    <form method="post" action="${BASE}${post.id}/reject/" class="inline" hx-post="${BASE}${post.id}/reject/"${target}${htmxConfirm(t('admin.moderation.reject_ask', { name }))}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">${t('admin.moderation.reject')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}
