// /report/{post id}/ (docs/moderation.md, "Reports"): a member's report of a
// post to its moderators, linked as "Report" under others' posts. The form
// shows the post's start and asks what is wrong; posted to itself, it thanks
// the member and leads back to the post. No script needed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { t } from '../../i18n/messages.ts';
import { parseId, topicPath } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { attempt, failedNotice, submittedText } from '../../web/form.ts';
import { pageFormState, textArea } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { REPORT_REASON_MAX } from '../reports.ts';
import { postPathOn } from '../resource.ts';
import type { ForumService } from '../service.ts';

export function reportPath(postId: number): string {
  return `/report/${postId}/`;
}

/** "Report" under a post, for signed-in readers who did not write it. */
export function reportLink(postId: number): SafeHtml {
  return html`<a class="report" href="${reportPath(postId)}" rel="nofollow">${t('report.link')}<span class="visually-hidden">${t('post.number', { id: postId })}</span></a>`;
}

export function reportPage(forum: ForumService): FixedPage {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    postId: number,
    values: Record<string, string>,
    errors?: FieldErrors,
  ): Promise<FastifyReply> {
    const { post, topic } = await forum.posts.withTopic(postId, assertUser(request));
    const title = t('report.title');
    return sendPage(request, reply, {
      title,
      status: errors === undefined ? 200 : 422,
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${title}</h1>
<p><a href="${postPathOn(topicPath({ id: topic.id, title: topic.title }), post.id)}">${topic.title}</a></p>
<blockquote class="pending-body">${post.body.slice(0, 500)}${post.body.length > 500 ? '…' : ''}</blockquote>
${errors === undefined ? '' : failedNotice(undefined, errors, ['reason'])}
<form method="post" action="${reportPath(post.id)}" class="stacked">
${csrfInput(request, reply)}
${textArea(pageFormState(values, errors), { name: 'reason', label: t('report.reason'), hint: t('report.reason_hint'), required: true, rows: 4, maxlength: REPORT_REASON_MAX })}
<div><button type="submit">${t('report.send')}</button></div>
</form>`,
    });
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      const postId = parseId(visit.params['id'] ?? '');
      if (postId === null) throw pageNotFound();
      if (request.method !== 'POST') return show(request, reply, postId, {});
      const values = submittedText(request.body);
      const reason = (values['reason'] ?? '').slice(0, REPORT_REASON_MAX + 1);
      const sent = await attempt(() => forum.reports.report(postId, assertUser(request), reason));
      if (!sent.ok) return show(request, reply, postId, values, sent.errors);
      const { topic } = await forum.posts.withTopic(postId, assertUser(request));
      return sendPage(request, reply, {
        title: t('report.sent_title'),
        head: html`<meta name="robots" content="noindex">`,
        body: html`<h1>${t('report.sent_title')}</h1>
<p>${t('report.sent')}</p>
<p><a href="${postPathOn(topicPath({ id: topic.id, title: topic.title }), postId)}">${t('report.back')}</a></p>`,
      });
    },
  };
}
