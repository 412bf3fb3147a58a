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
      title: 'Moderation queue',
      section: 'moderation',
      body: html`<h1>Moderation queue</h1>
<p class="muted">Posts a word filter held back, oldest first. Approving publishes the post; rejecting deletes it (with its topic when it is the topic’s opening post) and tells the author by mail.</p>
${queueCount(total, rangeText({ page: page.page, perPage: page.perPage, total }, rows.length, 'posts waiting'))}
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Posts waiting for moderation</caption>
  <thead><tr><th scope="col">Post</th><th scope="col">Author</th><th scope="col">Topic</th><th scope="col">Held by</th><th scope="col">Written</th><th scope="col">Decision</th></tr></thead>
  <tbody>${rows.map((post) => pendingRow(request, reply, post, rules.get(post.held_by_filter_id ?? 0) ?? null, back))}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total }, 'Queue pages')}`,
    });
  });

  app.post(`${BASE}:id/approve/`, { preValidation: moderators, schema: { params: IdParams } }, async (request, reply) => {
    const back = returnTo(submitted(request.body), BASE);
    const post = await forum.approvePost(request.params.id, assertUser(request));
    const message = `Post #${post.id} approved and published.`;
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
        title: `Reject post #${post.id}`,
        question: `Reject this post by ${post.author_name ?? 'a deleted user'}? It is deleted, and its author is told by mail.`,
        details: html`<blockquote class="pending-body">${post.body}</blockquote>`,
        action: `${BASE}${post.id}/reject/`,
        confirmLabel: 'Reject and delete',
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
    const message = `Post #${post.id} rejected and deleted; its author was told by mail.`;
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
  return queueCount(total, total === 0 ? 'No posts waiting.' : `${total} post${total === 1 ? '' : 's'} waiting.`, true);
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
  const name = `post #${post.id}`;
  const target = html` hx-target="closest tr" hx-swap="outerHTML"`;
  return html`<tr id="pending-${post.id}">
  <td><div class="pending-body">${post.body}</div></td>
  <td>${new AuthorLinks().link(post.author_id, post.author_name)}</td>
  <td><a href="${topicPath({ id: post.topic_id, title: post.topic_title })}">${post.topic_title}</a></td>
  <td>${rule === null ? html`<span class="muted">Rule deleted</span>` : html`<a href="/admin/word-filters/${rule.id}/">#${rule.id}</a> <code>${rule.pattern}</code> <span class="muted">(${rule.pattern_type})</span>`}</td>
  <td>${timestamp(post.created_at)}</td>
  <td class="actions">
    <form method="post" action="${BASE}${post.id}/approve/" class="inline" hx-post="${BASE}${post.id}/approve/"${target}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small">Approve<span class="visually-hidden"> ${name}</span></button>
    </form>
    <form method="post" action="${BASE}${post.id}/reject/" class="inline" hx-post="${BASE}${post.id}/reject/"${target}${htmxConfirm(`Reject ${name}? It is deleted and its author told by mail.`)}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">Reject<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}
