// The topic page's reply form (docs/formatting.md): a "Quote" link under each
// post opens the page with the form filled with `[quote="Name"]…[/quote]`
// (`?post={id}&quote={id}#reply-heading`, no JavaScript), and "Preview" shows
// the reply as it will read (replacement rules, BBCode, emoji) above the form
// without posting it.
import { tLink } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { moderates } from '../access.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { loginPath, parseId, withQuery, FRAGMENT_KEY } from '../../urls/paths.ts';
import type { PageVisit } from '../../urls/semantic-routes.ts';
import { failedNotice } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textArea } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { emojiPickerField } from '../../web/emoji-picker.ts';
import { lockedMessage } from '../posts.ts';
import type { TopicWithAuthor } from '../repository.ts';
import { ForumBodies, POST_BODY_MAX } from '../routes.ts';
import type { ForumService } from '../service.ts';
import type { ReaderPermissions } from '../permissions.ts';

/** The reply's body, and `preview` when the Preview button sent it. */
export const ReplyForm = Type.Object({
  body: ForumBodies.post.properties.body,
  preview: Type.Optional(Type.String({ maxLength: 16, description: 'Present: show the reply, post nothing' })),
});

/** What the form shows again: what was typed, why it was not posted, or its preview. */
export interface ReplyDraft {
  values: Record<string, string>;
  errors: FieldErrors;
  refusal?: FormRefusal;
  preview?: SafeHtml;
}

/** Who may reply here: members with the forum's `reply` right, and only its forum's moderators to a locked topic. */
export function mayReply(viewer: AuthUser | null, topic: Pick<TopicWithAuthor, 'locked' | 'forum_id'>, permissions: ReaderPermissions): boolean {
  return viewer !== null && permissions.may(topic.forum_id, 'reply') && (!topic.locked || moderates(viewer, topic.forum_id));
}

/** "Quote" under a post: the page holding the post, with the form filled. */
export function quoteLink(topicPath: string, postId: number): SafeHtml {
  return html`<a class="quote" href="${withQuery(topicPath, { post: postId, quote: postId, [FRAGMENT_KEY]: 'reply-heading' })}">${t('post.quote')}<span class="visually-hidden">${t('post.number', { id: postId })}</span></a>`;
}

/** The form filled with the quoted post (`?quote=`), when it is one of this topic's posts the viewer sees. */
export async function quotedDraft(forum: ForumService, topic: TopicWithAuthor, viewer: AuthUser, query: URLSearchParams): Promise<ReplyDraft | undefined> {
  const quote = query.get('quote');
  const postId = quote === null ? null : parseId(quote);
  if (postId === null) return undefined;
  const post = await forum.getPost(postId, viewer).catch(() => undefined);
  if (post === undefined || post.topic_id !== topic.id) return undefined;
  const name = post.author_name ?? post.guest_name ?? 'Guest';
  return { values: { body: `[quote="${name.replaceAll('"', "'")}"]${post.body}[/quote]\n` }, errors: {} };
}

/** The text as it will read, above its form (the reply, new-topic and edit forms' Preview); `notYet` says which button posts it. */
export function previewBlock(heading: string, body: SafeHtml, notYet: string): SafeHtml {
  return html`<section class="preview" aria-labelledby="preview-heading"><h3 id="preview-heading">${heading}</h3><div class="post"><div class="body">${body}</div></div><p class="muted">${notYet}</p></section>`;
}

export function replySection(
  request: FastifyRequest,
  reply: FastifyReply,
  topic: TopicWithAuthor,
  visit: PageVisit,
  draft: ReplyDraft | undefined,
  permissions: ReaderPermissions,
): SafeHtml {
  if (topic.locked && !moderates(request.user, topic.forum_id)) return html`<p class="notice">${lockedMessage()}</p>`;
  if (request.user === null) {
    return html`<p>${tLink('reply.login', loginPath({ next: visit.canonicalPath }))}</p>`;
  }
  // No form where the forum refuses the reply: the service would refuse it (403).
  if (!permissions.may(topic.forum_id, 'reply')) return html`<p class="notice">${t('access.reply_needed')}</p>`;
  const failed = draft !== undefined && (Object.keys(draft.errors).length > 0 || draft.refusal !== undefined);
  return html`<section aria-labelledby="reply-heading">
<h2 id="reply-heading">${t('reply.heading')}</h2>
${topic.locked ? html`<p class="muted">${t('reply.locked_staff')}</p>` : ''}
${failed ? failedNotice(draft.refusal, draft.errors, ['body']) : ''}
${draft?.preview === undefined ? '' : previewBlock(t('post.preview'), draft.preview, t('post.reply_preview_next'))}
<form method="post" action="${visit.canonicalPath}reply/" class="stacked">
${csrfInput(request, reply)}
${textArea(pageFormState(draft?.values, draft?.errors), { name: 'body', label: t('reply.body'), required: true, maxlength: POST_BODY_MAX, rows: 8, attributes: emojiPickerField() })}
<div class="actions"><button type="submit">${t('reply.post')}</button><button type="submit" name="preview" value="1" class="secondary">${t('post.preview')}</button></div>
</form>
</section>`;
}
