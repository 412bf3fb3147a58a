// `/forum/{slug}.{id}/`: a forum's topics, latest activity first, and for
// members the form that starts a topic (POST to the same address).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { forumPath, loginPath, withQuery } from '../../urls/paths.ts';
import { pageNotFound, type EntityPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { CHECK_FIELDS, attempt, formNotice, inputField, submitted, textareaField } from '../../web/form.ts';
import { html } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, requirePageUser, sendPage } from '../../web/page.ts';
import type { ForumRow } from '../repository.ts';
import { ForumBodies, POST_BODY_MAX, TOPIC_TITLE_MAX } from '../routes.ts';
import type { ForumPageDeps } from './deps.ts';
import { breadcrumb, topicTable } from './parts.ts';

export const TOPICS_PER_PAGE = PER_PAGE_DEFAULT;

/** The API's new-topic body without forum_id: the page's address names the forum. */
const NewTopicForm = Type.Object({ title: ForumBodies.topic.properties.title, body: ForumBodies.topic.properties.body });

interface NewTopicState {
  values: Record<string, string>;
  errors: FieldErrors;
}

export function forumPage({ forum, presenter, views }: ForumPageDeps): EntityPage<ForumRow> {
  async function show(request: FastifyRequest, reply: FastifyReply, row: ForumRow, visit: PageVisit, failed?: NewTopicState): Promise<FastifyReply> {
    const page = requestedPage(visit.query);
    if (page === null) throw pageNotFound();
    const { rows, total } = await forum.topicsOf(row, request.user, { page, perPage: TOPICS_PER_PAGE, offset: (page - 1) * TOPICS_PER_PAGE });
    const last = lastPage(total, TOPICS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const headings = await presenter.headings(rows);
    const href = (n: number) => withQuery(visit.canonicalPath, n === 1 ? {} : { page: n });

    return sendPage(request, reply, {
      title: page === 1 ? row.name : `${row.name} (page ${page})`,
      canonical: href(page),
      status: failed === undefined ? 200 : 422,
      body: html`${breadcrumb([])}
<h1>${row.name}</h1>
${row.description === '' ? '' : html`<p class="muted">${row.description}</p>`}
${rows.length === 0
  ? html`<p>No topics here yet.</p>`
  : topicTable(rows, headings, { caption: `Topics in ${row.name}`, unwrittenViews: (id) => views.unwritten(id) })}
${pageNav(page, last, href)}
<section aria-labelledby="new-topic">
<h2 id="new-topic">Start a new topic</h2>
${request.user === null
  ? html`<p><a href="${loginPath({ next: visit.canonicalPath })}">Log in</a> to start a topic.</p>`
  : html`${failed === undefined ? '' : formNotice(CHECK_FIELDS, failed.errors, ['title', 'body'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${inputField('text', { name: 'title', label: 'Title', value: failed?.values['title'], errors: failed?.errors, required: true, maxLength: TOPIC_TITLE_MAX })}
${textareaField({ name: 'body', label: 'Message', value: failed?.values['body'], errors: failed?.errors, required: true, maxLength: POST_BODY_MAX, rows: 10 })}
<div><button type="submit">Start topic</button></div>
</form>`}
</section>`,
    });
  }

  return {
    load: (id) => forum.getForum(id),
    path: (row) => forumPath(row),
    async serve(request, reply, row, visit) {
      if (request.method !== 'POST') return show(request, reply, row, visit);
      if (request.user === null) {
        await requirePageUser(request, reply);
        return reply;
      }
      const values = submitted(request.body);
      const form = checkForm(NewTopicForm, request.body);
      if (!form.ok) return show(request, reply, row, visit, { values, errors: form.errors });
      const created = await attempt(() => forum.createTopic(assertUser(request), { forum_id: row.id, ...form.value }));
      if (!created.ok) return show(request, reply, row, visit, { values, errors: created.errors });
      return reply.redirect((await presenter.heading(created.value)).path, 303);
    },
  };
}
