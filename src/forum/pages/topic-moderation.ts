// The moderators' panel of a topic page (docs/moderation.md): lock or unlock,
// pin or unpin, move to another forum, delete. Each is a form at its own
// address below the topic (`…/lock/`, `…/move/`, …); members who are not
// moderators get the 403 page from the service's check, guests the login.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import { ValidationError, type FieldErrors } from '../../http/errors.ts';
import { forumPath, withQuery } from '../../urls/paths.ts';
import { entityForm, type EntityForm, type PageVisit } from '../../urls/semantic-routes.ts';
import { NoFields, failedNotice } from '../../web/form.ts';
import { pageFormState, selectField } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { ForumBodies } from '../routes.ts';
import type { ForumService } from '../service.ts';
import { buttonForm } from './parts.ts';
import type { TopicWithAuthor } from '../repository.ts';

/** What the panel needs of the topic page's topic. */
interface ShownTopic {
  row: TopicWithAuthor;
}

/** How the topic page shows the panel again after a refused move (422). */
export type ShowAgain<T> = (request: FastifyRequest, reply: FastifyReply, topic: T, visit: PageVisit, errors: FieldErrors) => Promise<FastifyReply>;

/** The panel, for moderators only; `forums` are where the topic may move. */
export function moderationPanel(
  request: FastifyRequest,
  reply: FastifyReply,
  topic: ShownTopic,
  visit: PageVisit,
  forums: ReadonlyArray<{ id: number; name: string }>,
  errors: FieldErrors | undefined,
): SafeHtml {
  const path = visit.canonicalPath;
  const elsewhere = forums.filter((forum) => forum.id !== topic.row.forum_id);
  return html`<details class="moderation"${errors === undefined ? '' : html` open`}><summary>Moderate this topic</summary>
${errors === undefined ? '' : failedNotice(undefined, errors, ['forum_id'])}
<div class="actions">
${topic.row.locked ? buttonForm(request, reply, `${path}unlock/`, 'Unlock') : buttonForm(request, reply, `${path}lock/`, 'Lock')}
${topic.row.pinned ? buttonForm(request, reply, `${path}unpin/`, 'Unpin') : buttonForm(request, reply, `${path}pin/`, 'Pin')}
${buttonForm(request, reply, `${path}delete/`, 'Delete topic')}
</div>
${
  elsewhere.length === 0
    ? ''
    : html`<form method="post" action="${path}move/" class="stacked">
${csrfInput(request, reply)}
${selectField(pageFormState({}, errors), { name: 'forum_id', id: 'move-forum', label: 'Move to forum', required: true, options: elsewhere.map((forum) => ({ value: String(forum.id), label: forum.name })) })}
<div><button type="submit" class="secondary">Move</button></div>
</form>`
}
</details>`;
}

/** The panel's forms; each comes back to the topic (a deleted topic to its forum). */
export function moderationForms<T extends ShownTopic>(forum: ForumService, showAgain: ShowAgain<T>): Array<EntityForm<T>> {
  const back = (reply: FastifyReply, visit: PageVisit) => reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
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
    entityForm<T, typeof NoFields>({
      name: 'delete',
      body: NoFields,
      async submit(request, reply, topic) {
        await forum.deleteTopic(topic.row.id, assertUser(request));
        const parent = await forum.getForum(topic.row.forum_id);
        return reply.redirect(forumPath(parent), 303);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, errors),
    }),
  ];
}
