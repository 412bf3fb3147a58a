// Editing a post on its topic page (docs/formatting.md, "Editing"): "Edit"
// under the author's own posts (and every post, for moderators) opens the page
// holding it with an edit form in place of the reply form
// (`?post={id}&edit={id}#edit-heading`), posted to `…/edit-post/`. An edited
// post shows "edited" with the time; moderators find "History" under it
// (`?history={id}`), the texts its edits replaced, newest first. "Delete"
// under an author's own replies posts to `…/delete-post/`: a published reply
// is withdrawn (hidden; a moderator can restore it), a pending one is gone.
import { tHtml } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { IdParams } from '../../http/schemas.ts';
import { FRAGMENT_KEY, parseId, withQuery } from '../../urls/paths.ts';
import type { PageVisit } from '../../urls/semantic-routes.ts';
import { failedNotice } from '../../web/form.ts';
import { pageFormState, textArea } from '../../web/form-controls.ts';
import { timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { moderates } from '../access.ts';
import type { PostRevision, PostWithAuthor, TopicWithAuthor } from '../repository.ts';
import { ForumBodies, POST_BODY_MAX } from '../routes.ts';
import type { ForumService } from '../service.ts';
import type { ReaderPermissions } from '../permissions.ts';
import { AuthorLinks } from './parts.ts';
import { ReplyForm, previewBlock } from './reply-form.ts';
import { emojiPickerField } from '../../web/emoji-picker.ts';

export const EditPostForm = Type.Object({ post_id: IdParams.properties.id, body: ForumBodies.post.properties.body, preview: ReplyForm.properties.preview });

/** Who may edit a post: its author where the forum `forumId` gives them `edit`, and the forum's moderators (as access.ts assertMayChange). */
export function mayEdit(viewer: AuthUser | null, post: { author_id: number | null }, forumId: number, permissions: ReaderPermissions): boolean {
  if (viewer === null) return false;
  return moderates(viewer, forumId) || (post.author_id !== null && post.author_id === viewer.id && permissions.may(forumId, 'edit'));
}

export const DeletePostForm = Type.Object({ post_id: IdParams.properties.id });

/** Who finds "Delete" under a post: its author, under a reply (the opening post goes with its topic), where the forum `forumId` lets them delete. */
export function mayDelete(
  viewer: AuthUser | null,
  post: { author_id: number | null },
  opening: boolean,
  forumId: number,
  permissions: ReaderPermissions,
): boolean {
  if (viewer === null || opening || post.author_id === null || post.author_id !== viewer.id) return false;
  return moderates(viewer, forumId) || permissions.may(forumId, 'delete');
}

/** "Delete" under a post: it submits the page's one delete form (deletePostForm) with the post's id, so the cached post list holds no token. */
export function deleteButton(postId: number): SafeHtml {
  return html`<button type="submit" class="secondary" form="delete-post" name="post_id" value="${postId}">${t('post.delete')}<span class="visually-hidden">${t('post.number', { id: postId })}</span></button>`;
}

export function deletePostForm(request: FastifyRequest, reply: FastifyReply, path: string): SafeHtml {
  return html`<form id="delete-post" method="post" action="${path}delete-post/" hidden>${csrfInput(request, reply)}</form>`;
}

export function editLink(topicPath: string, postId: number): SafeHtml {
  return html`<a class="edit" href="${withQuery(topicPath, { post: postId, edit: postId, [FRAGMENT_KEY]: 'edit-heading' })}">${t('post.edit')}<span class="visually-hidden">${t('post.number', { id: postId })}</span></a>`;
}

export function historyLink(topicPath: string, postId: number): SafeHtml {
  return html`<a class="history" href="${withQuery(topicPath, { post: postId, history: postId, [FRAGMENT_KEY]: 'history-heading' })}">${t('post.history')}<span class="visually-hidden">${t('post.of_number', { id: postId })}</span></a>`;
}

/** The post named by `?edit=` (or by a refused edit's `post_id`), when it is this topic's and the viewer may edit it. */
export async function postToEdit(
  forum: ForumService,
  topic: TopicWithAuthor,
  viewer: AuthUser | null,
  id: string | null | undefined,
  permissions: ReaderPermissions,
): Promise<PostWithAuthor | undefined> {
  const postId = id === null || id === undefined ? null : parseId(id);
  if (postId === null || viewer === null) return undefined;
  const post = await forum.getPost(postId, viewer).catch(() => undefined);
  return post !== undefined && post.topic_id === topic.id && mayEdit(viewer, post, topic.forum_id, permissions) ? post : undefined;
}

export function editSection(
  request: FastifyRequest,
  reply: FastifyReply,
  visit: PageVisit,
  post: PostWithAuthor,
  failed: { values: Record<string, string>; errors: FieldErrors; preview?: SafeHtml } | undefined,
): SafeHtml {
  const values = failed?.values ?? { body: post.body };
  const previewed = failed?.preview !== undefined;
  return html`<section aria-labelledby="edit-heading">
<h2 id="edit-heading">${t('edit.heading', { id: post.id })}</h2>
${failed === undefined || previewed ? '' : failedNotice(undefined, failed.errors, ['body'])}
${failed?.preview === undefined ? '' : previewBlock(t('post.preview'), failed.preview, t('post.edit_preview_next'))}
<form method="post" action="${visit.canonicalPath}edit-post/" class="stacked">
${csrfInput(request, reply)}
<input type="hidden" name="post_id" value="${post.id}">
${textArea(pageFormState(values, failed?.errors), { name: 'body', id: 'edit-body', label: t('edit.text'), required: true, maxlength: POST_BODY_MAX, rows: 10, attributes: emojiPickerField() })}
<div class="actions"><button type="submit">${t('edit.save')}</button><button type="submit" name="preview" value="1" class="secondary">${t('post.preview')}</button><a href="${withQuery(visit.canonicalPath, { post: post.id, [FRAGMENT_KEY]: `post-${post.id}` })}">${t('edit.cancel')}</a></div>
</form>
</section>`;
}

/** The texts a post's edits replaced (moderators only), newest first. */
export function historySection(postId: number, revisions: readonly PostRevision[]): SafeHtml {
  const authors = new AuthorLinks();
  return html`<section aria-labelledby="history-heading" class="history">
<h2 id="history-heading">${t('history.heading', { id: postId })}</h2>
${
  revisions.length === 0
    ? html`<p>${t('history.never')}</p>`
    : html`<ol>${revisions.map(
        (revision) =>
          html`<li><p class="muted">${tHtml('history.replaced', { time: timeHtml(revision.replaced_at), editor: authors.link(revision.editor_id, revision.editor_name) })}</p><pre class="revision">${revision.body}</pre></li>`,
      )}</ol>`
}
</section>`;
}
