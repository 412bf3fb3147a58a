// A moderator's comment under a post on the topic page (docs/moderation.md,
// "Moderator comments"): the note as everyone sees it, and for the forum's
// moderators "Comment" under each post, which opens the page holding it with
// the comment form in place of the reply form (`?post={id}&comment={id}`),
// posted to `…/mod-comment/` (or `…/mod-uncomment/` to remove it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { IdParams } from '../../http/schemas.ts';
import { t } from '../../i18n/messages.ts';
import { FRAGMENT_KEY, parseId, withQuery } from '../../urls/paths.ts';
import { entityForm, type EntityForm, type PageVisit } from '../../urls/semantic-routes.ts';
import { attempt, failedNotice, submittedText } from '../../web/form.ts';
import { pageFormState, selectField, textArea } from '../../web/form-controls.ts';
import { timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { tHtml } from '../../web/translated.ts';
import { moderates } from '../access.ts';
import { MODERATOR_COMMENT_KINDS } from '../resource.ts';
import type { PostOnPage, PostWithAuthor, TopicWithAuthor } from '../repository.ts';
import { ForumBodies } from '../routes.ts';
import type { ForumService } from '../service.ts';
import { AuthorLinks } from './parts.ts';

const ModeratorCommentForm = Type.Object({ post_id: IdParams.properties.id, ...ForumBodies.moderatorComment.properties });
const UncommentForm = Type.Object({ post_id: IdParams.properties.id });

/** The note under a post, as everyone who sees the post sees it. */
export function moderatorCommentHtml(row: PostOnPage, text: SafeHtml, authors: AuthorLinks): SafeHtml {
  if (row.mod_comment_kind === null || row.mod_comment_at === null) return html``;
  const by =
    row.mod_comment_by === null || row.mod_comment_by_name === null
      ? html`${t('mod_comment.by_staff')}`
      : authors.link(row.mod_comment_by, row.mod_comment_by_name);
  return html`<aside class="mod-comment ${row.mod_comment_kind}" aria-label="${t(`mod_comment.kind.${row.mod_comment_kind}`)}">
<p class="mod-comment-title"><strong>${t(`mod_comment.kind.${row.mod_comment_kind}`)}</strong> · ${tHtml('mod_comment.from', { moderator: by, time: timeHtml(row.mod_comment_at) })}</p>
<div class="body">${text}</div>
</aside>`;
}

export function moderatorCommentLink(topicPath: string, postId: number): SafeHtml {
  return html`<a class="mod-comment-link" href="${withQuery(topicPath, { post: postId, comment: postId, [FRAGMENT_KEY]: 'mod-comment-heading' })}">${t('mod_comment.link')}<span class="visually-hidden">${t('post.number', { id: postId })}</span></a>`;
}

/** The post named by `?comment=` (or by a refused comment's `post_id`), when it is this topic's and the viewer moderates its forum. */
export async function postToComment(
  forum: ForumService,
  topic: TopicWithAuthor,
  viewer: AuthUser | null,
  id: string | null | undefined,
): Promise<PostWithAuthor | undefined> {
  const postId = id === null || id === undefined ? null : parseId(id);
  if (postId === null || viewer === null || !moderates(viewer, topic.forum_id)) return undefined;
  const post = await forum.getPost(postId, viewer).catch(() => undefined);
  return post !== undefined && post.topic_id === topic.id ? post : undefined;
}

export function moderatorCommentSection(
  request: FastifyRequest,
  reply: FastifyReply,
  visit: PageVisit,
  post: PostWithAuthor,
  failed: { values: Record<string, string>; errors: FieldErrors } | undefined,
): SafeHtml {
  const values = failed?.values ?? { kind: post.mod_comment_kind ?? 'comment', text: post.mod_comment ?? '' };
  const form = pageFormState(values, failed?.errors);
  return html`<section aria-labelledby="mod-comment-heading">
<h2 id="mod-comment-heading">${t('mod_comment.heading', { id: post.id })}</h2>
${failed === undefined ? '' : failedNotice(undefined, failed.errors, ['kind', 'text'])}
<form method="post" action="${visit.canonicalPath}mod-comment/" class="stacked">
${csrfInput(request, reply)}
<input type="hidden" name="post_id" value="${post.id}">
${selectField(form, { name: 'kind', id: 'mod-comment-kind', label: t('mod_comment.kind'), options: MODERATOR_COMMENT_KINDS.map((kind) => ({ value: kind, label: t(`mod_comment.kind.${kind}`) })) })}
${textArea(form, { name: 'text', id: 'mod-comment-text', label: t('mod_comment.text'), hint: t('mod_comment.hint'), required: true, rows: 5 })}
<div class="actions"><button type="submit">${t('mod_comment.save')}</button><a href="${withQuery(visit.canonicalPath, { post: post.id, [FRAGMENT_KEY]: `post-${post.id}` })}">${t('edit.cancel')}</a></div>
</form>
${
  post.mod_comment === null
    ? ''
    : html`<form method="post" action="${visit.canonicalPath}mod-uncomment/" class="inline">${csrfInput(request, reply)}<input type="hidden" name="post_id" value="${post.id}"><button type="submit" class="danger">${t('mod_comment.remove')}</button></form>`
}
</section>`;
}

type ShowAgain<T> = (
  request: FastifyRequest,
  reply: FastifyReply,
  topic: T,
  visit: PageVisit,
  failed: { values: Record<string, string>; errors: FieldErrors },
) => Promise<FastifyReply>;

/** The comment's two forms; each comes back to the post. */
export function moderatorCommentForms<T extends { row: TopicWithAuthor }>(forum: ForumService, showAgain: ShowAgain<T>): Array<EntityForm<T>> {
  const toPost = (reply: FastifyReply, visit: PageVisit, postId: number) =>
    reply.redirect(withQuery(visit.canonicalPath, { post: postId, [FRAGMENT_KEY]: `post-${postId}` }), 303);
  const onTopic = async (postId: number, topic: T, viewer: AuthUser) => {
    const post = await forum.getPost(postId, viewer);
    return post.topic_id === topic.row.id;
  };
  return [
    entityForm<T, typeof ModeratorCommentForm>({
      name: 'mod-comment',
      body: ModeratorCommentForm,
      async submit(request, reply, topic, visit, body) {
        const moderator = assertUser(request);
        if (!(await onTopic(body.post_id, topic, moderator))) return toPost(reply, visit, body.post_id);
        const written = await attempt(() => forum.moderatorComments.set(body.post_id, moderator, body.kind, body.text));
        if (!written.ok)
          return showAgain(request, reply, topic, visit, {
            values: { post_id: String(body.post_id), kind: body.kind, text: body.text },
            errors: written.errors,
          });
        return toPost(reply, visit, body.post_id);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, { values: submittedText(request.body), errors }),
    }),
    entityForm<T, typeof UncommentForm>({
      name: 'mod-uncomment',
      body: UncommentForm,
      async submit(request, reply, topic, visit, body) {
        const moderator = assertUser(request);
        if (await onTopic(body.post_id, topic, moderator)) await forum.moderatorComments.remove(body.post_id, moderator);
        return toPost(reply, visit, body.post_id);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, { values: submittedText(request.body), errors }),
    }),
  ];
}
