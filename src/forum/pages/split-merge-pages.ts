// The moderators' split and merge pages (docs/moderation.md, "Split and
// merge"), linked from a topic's moderation panel; plain forms, no script:
//
//   /topic/{slug}.{id}/split/?page=n  the replies of one page of the topic,
//       each with a box, and where they go: a new topic (title, forum) or an
//       existing one (its address or id). Posted to itself; done, it answers
//       303 to the topic the posts went into.
//   /topic/{slug}.{id}/merge/  which topic this one goes into; posted, it asks
//       on a page of its own ("merge A, n posts, into B?"), then merges and
//       answers 303 to the target.
//
// Members who do not moderate the topic's forum get the 403 page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { t, tn } from '../../i18n/messages.ts';
import { topicIdIn, topicMergePath, topicSplitPath } from '../../urls/paths.ts';
import { pageNotFound, type EntityPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { attempt, submittedText } from '../../web/form.ts';
import { errorSummary, errorsFor, pageFormState, radioGroup, selectField, textInput, type FormState } from '../../web/form-controls.ts';
import { timeHtml, wrappableText } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { assertModerates, moderates } from '../access.ts';
import { bbcodeText } from '../bbcode/bbcode.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { ForumService } from '../service.ts';
import { SPLIT_POSTS_MAX, type SplitDestination } from '../split-merge.ts';
import { TOPIC_TITLE_MAX, splitDestination } from '../routes.ts';
import { VisibleText } from '../../http/schemas.ts';
import { POSTS_PER_PAGE, loadTopic, type LoadedTopic } from './loaded-topic.ts';

/** How much of each reply the split page shows, to tell them apart. */
const EXCERPT_CHARS = 240;
const TOPIC_ADDRESS_MAX = 2000;

const SplitForm = Type.Object({
  post_ids: Type.Array(Type.String({ maxLength: 20 }), { maxItems: SPLIT_POSTS_MAX }),
  destination: Type.Union([Type.Literal('new'), Type.Literal('existing')]),
  title: Type.String({ maxLength: TOPIC_TITLE_MAX }),
  forum_id: Type.String({ maxLength: 20 }),
  topic: Type.String({ maxLength: TOPIC_ADDRESS_MAX }),
});

const NewTitle = Type.Object({ title: VisibleText(TOPIC_TITLE_MAX) });

const MergeForm = Type.Object({
  topic: Type.String({ maxLength: TOPIC_ADDRESS_MAX }),
  confirmed: Type.Optional(Type.Literal('1')),
});

/** Only the forum's moderators come further (the panel's links are theirs alone). */
function moderator(request: FastifyRequest, topic: LoadedTopic): AuthUser {
  const user = assertUser(request);
  assertModerates(user, topic.row.forum_id, 'access.moderators_only');
  return user;
}

export function topicSplitPage(forum: ForumService, presenter: ForumPresenter): EntityPage<LoadedTopic> {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    topic: LoadedTopic,
    visit: PageVisit,
    form: FormState,
    status = 200,
  ): Promise<FastifyReply> {
    const viewer = moderator(request, topic);
    const page = requestedPage(visit.query, POSTS_PER_PAGE);
    if (page === null) throw pageNotFound();
    const [posts, forums] = await Promise.all([
      forum.listPosts(topic.row.id, viewer, { page, perPage: POSTS_PER_PAGE, offset: (page - 1) * POSTS_PER_PAGE }),
      forum.listForums({ page: 1, perPage: 100, offset: 0 }, viewer).then((listed) => listed.rows.filter((row) => moderates(viewer, row.id))),
    ]);
    const last = lastPage(posts.total, POSTS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const openingId = page === 1 ? posts.rows[0]?.id : undefined;
    const texts = await Promise.all(posts.rows.map((post) => presenter.displayBody(post.body)));
    const chosen = new Set(form.values['post_ids'] === undefined ? [] : [form.values['post_ids']].flat().map(String));
    const nav = pageNav(
      page,
      last,
      (n) => topicSplitPath({ id: topic.row.id, title: topic.heading.title }, n === 1 ? undefined : { page: n }),
      t('topic.pages'),
    );
    const title = t('split.title', { title: topic.heading.title });
    return sendPage(request, reply, {
      title,
      status,
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${title}</h1>
<p><a href="${topic.heading.path}">${t('split.back')}</a></p>
<p class="muted">${t('split.help', { max: SPLIT_POSTS_MAX })}</p>
${errorSummary(form)}
${nav}
<form method="post" action="${visit.canonicalPath}${page === 1 ? '' : `?page=${page}`}" class="stacked" novalidate>
${csrfInput(request, reply)}
<fieldset class="field group" id="split-post_ids"><legend>${t('split.posts')}</legend>
<ol class="split-posts">${posts.rows.map((post, index) => {
        const excerpt = bbcodeText(texts[index] ?? '').slice(0, EXCERPT_CHARS);
        const about = html`<span class="meta">${post.author_name ?? post.guest_name ?? t('split.guest')} · ${timeHtml(post.created_at)}</span> <span class="excerpt">${wrappableText(excerpt)}</span>`;
        return post.id === openingId
          ? html`<li class="opening">${about} <em>${t('split.opening_stays')}</em></li>`
          : html`<li><input type="checkbox" name="post_ids" value="${post.id}" id="split-post-${post.id}"${chosen.has(String(post.id)) ? html` checked` : ''}> <label for="split-post-${post.id}">${about}</label></li>`;
      })}</ol>
${errorsOf(form, 'post_ids')}
</fieldset>
${radioGroup(form, {
  name: 'destination',
  label: t('split.destination_label'),
  options: [
    { value: 'new', label: t('split.to_new') },
    { value: 'existing', label: t('split.to_existing') },
  ],
})}
${textInput(form, { name: 'title', label: t('split.new_title'), maxlength: TOPIC_TITLE_MAX })}
${selectField(form, { name: 'forum_id', label: t('split.new_forum'), options: forums.map((row) => ({ value: String(row.id), label: row.name })) })}
${textInput(form, { name: 'topic', label: t('split.existing_topic'), hint: t('split.existing_hint'), maxlength: TOPIC_ADDRESS_MAX })}
<div><button type="submit">${t('split.submit')}</button></div>
</form>
${nav}`,
    });
  }

  return {
    loginRequired: true,
    load: (id, request) => loadTopic(forum, presenter, id, request),
    path: (topic) => topicSplitPath({ id: topic.row.id, title: topic.heading.title }),
    async serve(request, reply, topic, visit) {
      if (request.method !== 'POST') {
        return show(request, reply, topic, visit, pageFormState({ destination: 'new', forum_id: String(topic.row.forum_id) }, undefined, 'split'));
      }
      const viewer = moderator(request, topic);
      const typed = submittedText(request.body);
      const values = { ...typed, post_ids: postIdsOf(request.body) };
      const again = (errors: FieldErrors) => show(request, reply, topic, visit, pageFormState(values, errors, 'split'), 422);
      const checked = checkForm(SplitForm, {
        post_ids: values.post_ids,
        destination: typed['destination'] ?? '',
        title: typed['title'] ?? '',
        forum_id: typed['forum_id'] ?? '',
        topic: typed['topic'] ?? '',
      });
      if (!checked.ok) return again(checked.errors);
      const body = checked.value;
      const postIds = body.post_ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
      let to: SplitDestination;
      if (body.destination === 'existing') {
        const target = topicIdIn(body.topic);
        if (target === null) return again({ topic: [t('split.topic_unknown')] });
        to = { topic_id: target };
      } else {
        // A new topic's title obeys the rules of every title (its length, a visible character), as the API's does.
        const titled = body.title.trim() === '' ? null : checkForm(NewTitle, { title: body.title });
        if (titled !== null && !titled.ok) return again(titled.errors);
        const forumId = Number(body.forum_id);
        const made = await attempt(async () =>
          splitDestination(undefined, body.title.trim() === '' ? undefined : body.title, Number.isSafeInteger(forumId) && forumId > 0 ? forumId : undefined),
        );
        if (!made.ok) return again(made.errors);
        to = made.value;
      }
      const split = await attempt(() => forum.splitMerge.split(topic.row.id, viewer, postIds, to));
      if (!split.ok) return again('topic_id' in split.errors ? { ...split.errors, topic: split.errors['topic_id']! } : split.errors);
      const heading = await presenter.heading(split.value.topic);
      return reply.redirect(heading.path, 303);
    },
  };
}

export function topicMergePage(forum: ForumService, presenter: ForumPresenter): EntityPage<LoadedTopic> {
  function show(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, form: FormState, status = 200): FastifyReply {
    moderator(request, topic);
    const title = t('merge.title', { title: topic.heading.title });
    return sendPage(request, reply, {
      title,
      status,
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${title}</h1>
<p><a href="${topic.heading.path}">${t('split.back')}</a></p>
<p class="muted">${t('merge.help')}</p>
${errorSummary(form)}
<form method="post" action="${visit.canonicalPath}" class="stacked" novalidate>
${csrfInput(request, reply)}
${textInput(form, { name: 'topic', label: t('merge.target'), hint: t('split.existing_hint'), required: true, maxlength: TOPIC_ADDRESS_MAX })}
<div><button type="submit">${t('merge.next')}</button></div>
</form>`,
    });
  }

  /** "Merge A (n posts) into B?": nothing is merged before the moderator says so. */
  async function confirm(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, target: LoadedTopic): Promise<FastifyReply> {
    const title = t('merge.confirm_title');
    return sendPage(request, reply, {
      title,
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${title}</h1>
<p>${tn('merge.confirm_question', topic.row.posts_count, { source: topic.heading.title, target: target.heading.title })}</p>
<p class="muted">${t('merge.confirm_after')}</p>
<form method="post" action="${visit.canonicalPath}" class="actions">
${csrfInput(request, reply)}
<input type="hidden" name="topic" value="${target.row.id}">
<input type="hidden" name="confirmed" value="1">
<button type="submit" class="danger">${t('merge.submit')}</button>
<a class="button secondary" href="${topic.heading.path}">${t('merge.keep')}</a>
</form>`,
    });
  }

  return {
    loginRequired: true,
    load: (id, request) => loadTopic(forum, presenter, id, request),
    path: (topic) => topicMergePath({ id: topic.row.id, title: topic.heading.title }),
    async serve(request, reply, topic, visit) {
      if (request.method !== 'POST') return show(request, reply, topic, visit, pageFormState({}, undefined, 'merge'));
      const viewer = moderator(request, topic);
      const typed = submittedText(request.body);
      const again = (errors: FieldErrors) => show(request, reply, topic, visit, pageFormState(typed, errors, 'merge'), 422);
      const checked = checkForm(MergeForm, { topic: typed['topic'] ?? '', ...(typed['confirmed'] === undefined ? {} : { confirmed: typed['confirmed'] }) });
      if (!checked.ok) return again(checked.errors);
      const targetId = topicIdIn(checked.value.topic);
      if (targetId === null) return again({ topic: [t('split.topic_unknown')] });
      if (checked.value.confirmed !== '1') {
        if (targetId === topic.row.id) return again({ topic: [t('merge.same_topic')] });
        const target = await forum.getTopic(targetId, viewer).catch(() => undefined);
        if (target === undefined) return again({ topic: [t('split.topic_unknown')] });
        return confirm(request, reply, topic, visit, { row: target, heading: await presenter.heading(target) });
      }
      const merged = await attempt(() => forum.splitMerge.merge(topic.row.id, viewer, targetId));
      if (!merged.ok) return again({ topic: Object.values(merged.errors).flat() });
      return reply.redirect((await presenter.heading(merged.value)).path, 303);
    },
  };
}

/** Every `post_ids` value the form sent (one per ticked box). */
function postIdsOf(body: unknown): string[] {
  const value = (body as Record<string, unknown> | null | undefined)?.['post_ids'];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The posts' errors under their boxes, where the error summary links (`#split-post_ids`). */
function errorsOf(form: FormState, name: string): SafeHtml {
  const messages = errorsFor(form, name);
  return messages.length === 0
    ? html``
    : html`<p class="field-error" id="split-${name}-error">${messages.map((message, i) => html`${i > 0 ? html`<br>` : ''}${message}`)}</p>`;
}

/** The topic page's moderation panel links here. */
export function splitMergeLinks(topic: { id: number; title: string }, page: number): SafeHtml {
  return html`<p class="actions"><a class="button secondary" href="${topicSplitPath(topic, page === 1 ? undefined : { page })}">${t('split.link')}</a> <a class="button secondary" href="${topicMergePath(topic)}">${t('merge.link')}</a></p>`;
}
