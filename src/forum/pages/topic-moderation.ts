// The moderators' panel of a topic page (docs/moderation.md): lock or unlock,
// pin or unpin, announce or not, hide or restore, move to another forum,
// delete; and the Hide and Restore buttons under each post. Each is a form at its own
// address below the topic (`…/lock/`, `…/move/`, …); members who do not
// moderate the topic's forum get the 403 page from the service's check,
// guests the login. The panel offers a move only into forums its viewer
// moderates too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import { ValidationError, type FieldErrors } from '../../http/errors.ts';
import { IdParams } from '../../http/schemas.ts';
import { forumPath, withQuery } from '../../urls/paths.ts';
import { entityForm, type EntityForm, type PageVisit } from '../../urls/semantic-routes.ts';
import { NoFields, failedNotice } from '../../web/form.ts';
import { pageFormState, selectField } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { postPathOn } from '../resource.ts';
import { ForumBodies } from '../routes.ts';
import type { ForumService } from '../service.ts';
import { buttonForm } from './parts.ts';
import { t, tn } from '../../i18n/messages.ts';
import type { TopicWithAuthor } from '../repository.ts';
import { assertModerates } from '../access.ts';

/** What the panel needs of the topic page's topic. */
interface ShownTopic {
  row: TopicWithAuthor;
}

const PostChoice = Type.Object({ post_id: IdParams.properties.id });

/**
 * A post's Hide or Restore button. It belongs to one of the two forms of
 * postModerationForms (the HTML `form` attribute), so the post list, which the
 * page cache keeps for every moderator alike, holds no session's CSRF token.
 */
export function postModerationButton(postId: number, hidden: boolean): SafeHtml {
  return html`<button type="submit" class="secondary" form="${hidden ? 'restore-post' : 'hide-post'}" name="post_id" value="${postId}">${t(hidden ? 'mod.restore' : 'mod.hide')}<span class="visually-hidden">${t('post.number', { id: String(postId) })}</span></button>`;
}

/** The two forms the posts' buttons submit, outside the cached post list. */
export function postModerationForms(request: FastifyRequest, reply: FastifyReply, path: string): SafeHtml {
  return html`<form id="hide-post" method="post" action="${path}hide-post/" hidden>${csrfInput(request, reply)}</form>
<form id="restore-post" method="post" action="${path}restore-post/" hidden>${csrfInput(request, reply)}</form>`;
}

const DeleteConfirmation = Type.Object({ confirmed: Type.Optional(Type.Literal('1')) });

/** "Delete this topic and its N posts?": the question the panel's Delete asks before anything is deleted. */
function confirmDeletion(request: FastifyRequest, reply: FastifyReply, topic: ShownTopic, visit: PageVisit): FastifyReply {
  const title = t('mod.delete_confirm_title', { title: topic.row.title });
  return sendPage(request, reply, {
    title,
    body: html`<h1>${title}</h1>
<p>${tn('mod.delete_confirm_question', topic.row.posts_count)}</p>
<form method="post" action="${visit.canonicalPath}delete/" class="actions">
  ${csrfInput(request, reply)}
  <input type="hidden" name="confirmed" value="1">
  <button type="submit" class="danger">${t('mod.delete_confirm_button')}</button>
  <a class="button secondary" href="${visit.canonicalPath}">${t('mod.keep_topic')}</a>
</form>`,
  });
}

/** How the topic page shows the panel again after a refused move (422). */
export type ShowAgain<T> = (request: FastifyRequest, reply: FastifyReply, topic: T, visit: PageVisit, errors: FieldErrors) => Promise<FastifyReply>;

/** What the forum lets the viewer do to a topic that is a right rather than moderation (moderators pass both unless the forum keeps them for admins). */
export interface TopicRights {
  pin: boolean;
  announce: boolean;
}

/**
 * Pin or Unpin, Announce or Remove announcement, each where the viewer has
 * the right: in the panel, and alone for a member the forum gives the right
 * without moderating it.
 */
export function rightButtons(request: FastifyRequest, reply: FastifyReply, topic: ShownTopic, path: string, rights: TopicRights): SafeHtml {
  const pin = () => (topic.row.pinned ? buttonForm(request, reply, `${path}unpin/`, t('mod.unpin')) : buttonForm(request, reply, `${path}pin/`, t('mod.pin')));
  const announce = () =>
    topic.row.announced
      ? buttonForm(request, reply, `${path}unannounce/`, t('mod.unannounce'))
      : buttonForm(request, reply, `${path}announce/`, t('mod.announce'));
  return html`${rights.pin ? pin() : ''}
${rights.announce ? announce() : ''}`;
}

/**
 * The panel, for the moderators of the topic's forum only; `forums` are
 * where the topic may move (its viewer moderates them); `rights`: the
 * forum's `pin` and `announce` rights.
 */
export function moderationPanel(
  request: FastifyRequest,
  reply: FastifyReply,
  topic: ShownTopic,
  visit: PageVisit,
  forums: ReadonlyArray<{ id: number; name: string }>,
  errors: FieldErrors | undefined,
  rights: TopicRights,
  /** The links to the split and merge pages (split-merge-pages.ts). */
  splitAndMerge: SafeHtml,
): SafeHtml {
  const path = visit.canonicalPath;
  const elsewhere = forums.filter((forum) => forum.id !== topic.row.forum_id);
  return html`<details class="moderation"${errors === undefined ? '' : html` open`}><summary>${t('mod.summary')}</summary>
${errors === undefined ? '' : failedNotice(undefined, errors, ['forum_id'])}
<div class="actions">
${topic.row.locked ? buttonForm(request, reply, `${path}unlock/`, t('mod.unlock')) : buttonForm(request, reply, `${path}lock/`, t('mod.lock'))}
${rightButtons(request, reply, topic, path, rights)}
${topic.row.hidden_at === null ? buttonForm(request, reply, `${path}hide/`, t('mod.hide_topic')) : buttonForm(request, reply, `${path}restore/`, t('mod.restore_topic'))}
${buttonForm(request, reply, `${path}delete/`, t('mod.delete_topic'), {}, 'danger')}
</div>
${
  elsewhere.length === 0
    ? ''
    : html`<form method="post" action="${path}move/" class="stacked">
${csrfInput(request, reply)}
${selectField(pageFormState({}, errors), { name: 'forum_id', id: 'move-forum', label: t('mod.move_to'), required: true, options: elsewhere.map((forum) => ({ value: String(forum.id), label: forum.name })) })}
<div><button type="submit" class="secondary">${t('mod.move')}</button></div>
</form>`
}
${splitAndMerge}
</details>`;
}

/** The panel's forms; each comes back to the topic (a deleted topic to its forum). */
export function moderationForms<T extends ShownTopic>(forum: ForumService, showAgain: ShowAgain<T>): Array<EntityForm<T>> {
  const back = (reply: FastifyReply, visit: PageVisit) => reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
  /** Hide or Restore under a post: the post's id comes with the button (postModerationButton). */
  const postSwitch = (name: string, hide: boolean) =>
    entityForm<T, typeof PostChoice>({
      name,
      body: PostChoice,
      async submit(request, reply, topic, visit, body) {
        try {
          await forum.hiding.post(body.post_id, assertUser(request), hide);
        } catch (error) {
          if (error instanceof ValidationError) return showAgain(request, reply, topic, visit, error.errors);
          throw error;
        }
        return reply.redirect(postPathOn(visit.canonicalPath, body.post_id), 303);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, errors),
    });
  const button = (name: string, act: (id: number, moderator: AuthUser) => Promise<unknown>) =>
    entityForm<T, typeof NoFields>({
      name,
      body: NoFields,
      async submit(request, reply, topic, visit) {
        await act(topic.row.id, assertUser(request));
        return back(reply, visit);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, errors),
    });
  return [
    button('lock', (id, moderator) => forum.topicModeration.lock(id, moderator, true)),
    button('unlock', (id, moderator) => forum.topicModeration.lock(id, moderator, false)),
    button('pin', (id, moderator) => forum.topicModeration.pin(id, moderator, true)),
    button('unpin', (id, moderator) => forum.topicModeration.pin(id, moderator, false)),
    button('announce', (id, moderator) => forum.topicModeration.announce(id, moderator, true)),
    button('unannounce', (id, moderator) => forum.topicModeration.announce(id, moderator, false)),
    button('hide', (id, moderator) => forum.hiding.topic(id, moderator, true)),
    button('restore', (id, moderator) => forum.hiding.topic(id, moderator, false)),
    postSwitch('hide-post', true),
    postSwitch('restore-post', false),
    entityForm<T, typeof ForumBodies.move>({
      name: 'move',
      body: ForumBodies.move,
      async submit(request, reply, topic, visit, body) {
        try {
          await forum.topicModeration.move(topic.row.id, assertUser(request), body.forum_id);
        } catch (error) {
          if (error instanceof ValidationError) return showAgain(request, reply, topic, visit, error.errors);
          throw error;
        }
        return back(reply, visit);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, errors),
    }),
    entityForm<T, typeof DeleteConfirmation>({
      name: 'delete',
      body: DeleteConfirmation,
      async submit(request, reply, topic, visit, body) {
        // Deleting takes every post with it and cannot be undone: the button asks first, on a page of its own (no script needed).
        if (body.confirmed !== '1') {
          // Only those who may delete it are asked; others get the refusal the delete itself gives.
          assertModerates(assertUser(request), topic.row.forum_id, 'access.delete_topic');
          return confirmDeletion(request, reply, topic, visit);
        }
        await forum.deleteTopic(topic.row.id, assertUser(request));
        const parent = await forum.getForum(topic.row.forum_id);
        return reply.redirect(forumPath(parent), 303);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, errors),
    }),
  ];
}
