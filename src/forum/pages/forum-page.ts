// `/forum/{slug}.{id}/`: a forum's topics, latest activity first, and for
// members the form that starts a topic (POST to the same address).
// `?start=<offset>` (the legacy viewforum parameter) opens the page holding
// that offset, as on topic pages. The forum's rule (docs/access.md): a forum
// the reader may not view is a 404 page like an unknown one; one they may
// view but not read shows its name and why, 403, and nothing of its topics;
// the new-topic form is there only for those with the `post` right.
import { tLink } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser, requirePageUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { forumFeedPath, forumPath, loginPath, topicUnreadPath, withQuery } from '../../urls/paths.ts';
import { entityForm, pageNotFound, type EntityPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { attempt, failedNotice, failedStatus, sessionEndedPage, submittedText } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textArea, textInput } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { ForumRow } from '../repository.ts';
import { ForumBodies, POST_BODY_MAX, TOPIC_TITLE_MAX } from '../routes.ts';
import { filled, PageCache, uncached, viewerKind, type Fragment } from '../page-cache.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { ForumPageDeps } from './deps.ts';
import { ReplyForm, previewBlock } from './reply-form.ts';
import { forumCrumbs, forumTable, loadForumListing } from './forum-list.ts';
import { EDITOR_SCRIPTS, emojiPickerField } from '../../web/emoji-picker.ts';
import { breadcrumb, buttonForm, feedLinks, visibleFeedLinks, moderatorsLine, topicTable, unreadMarker } from './parts.ts';
import { NoFields } from '../../web/form.ts';
import type { ForumModerator } from '../moderators.ts';
import { releaseFieldset, releaseValues } from './release-fields.ts';
import { composeRelease } from '../release-templates.ts';
import { POLL_FORM_FIELDS, PollFormFields, pollFieldset, pollFormErrors, pollFromForm } from './poll-box.ts';

export const TOPICS_PER_PAGE = PER_PAGE_DEFAULT;

/** The API's new-topic body without forum_id: the page's address names the forum. */
const NewTopicForm = Type.Object({
  title: ForumBodies.topic.properties.title,
  body: ForumBodies.topic.properties.body,
  preview: ReplyForm.properties.preview,
  ...PollFormFields,
});

interface NewTopicState {
  values: Record<string, string>;
  errors: FieldErrors;
  /** Refused as a whole (expired form 403, posting too fast 429) rather than for its fields. */
  refusal?: FormRefusal;
  /** The topic as it will read: the Preview button, not a failure (200). */
  preview?: { title: string; body: SafeHtml };
}

const DRAFT_FIELDS = [
  { name: 'title', label: 'Title' },
  { name: 'body', label: 'Message' },
];

/**
 * Kept beside the cached table: each listed topic's id, stored view count and
 * first-unread link (made from its displayed title), by its index (hole
 * `index` is its Views cell, hole `count + index` its unread marker, hole
 * `2 × count + index` the line other capabilities add under its title), and the
 * forum's moderators and subforums, which change only with a write the cache
 * watches.
 */
interface ListedTopics {
  topics: Array<{ id: number; stored: number; unreadPath: string }>;
  moderators: ForumModerator[];
  subforums: ForumRow[];
}

export function forumPage({ forum, presenter, views, addons, pageCache }: ForumPageDeps): EntityPage<ForumRow> {
  async function show(request: FastifyRequest, reply: FastifyReply, row: ForumRow, visit: PageVisit, failed?: NewTopicState): Promise<FastifyReply> {
    const permissions = await forum.access.of(request.user);
    // Refused before the page cache is asked: nothing of the topics is read for this reader.
    if (!permissions.may(row.id, 'read')) return readNeeded(request, reply, row);
    const page = requestedPage(visit.query, TOPICS_PER_PAGE);
    if (page === null) throw pageNotFound();
    const topics = await topicList(row, request.user, page);
    const last = lastPage(topics.total, TOPICS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const listed = topics.data.topics;
    const { subforums } = topics.data;
    const topicIds = listed.map((topic) => topic.id);
    const [unread, crumbs, lines] = await Promise.all([
      forum.unread.ofTopics(request.user, topicIds),
      forumCrumbs(forum, row, false),
      addons?.topicLines === undefined || topicIds.length === 0 ? new Map<number, SafeHtml>() : addons.topicLines(topicIds),
    ]);
    const subforumTable =
      subforums.length === 0
        ? ''
        : html`<h2>${t('forum.subforums')}</h2>${forumTable(await loadForumListing({ forum, presenter }, subforums, request.user), t('forum.subforums'))}`;
    const href = (n: number) => withQuery(visit.canonicalPath, n === 1 ? {} : { page: n });
    const template = request.user !== null && permissions.may(row.id, 'post') ? await forum.releases.of(row.id) : null;

    return sendPage(request, reply, {
      title: page === 1 ? row.name : t('page.numbered', { title: row.name, page }),
      canonical: href(page),
      head: html`${feedLinks(t('feed.forum', { name: row.name }), (format) => forumFeedPath(row, format))}${request.user === null ? '' : EDITOR_SCRIPTS}`,
      status: failed === undefined || failed.preview !== undefined ? 200 : failedStatus(reply, failed.refusal),
      body: html`${breadcrumb(crumbs)}
<h1>${row.name}</h1>
${row.description === '' ? '' : html`<p class="muted">${row.description}</p>`}
${moderatorsLine(topics.data.moderators)}
${subforumTable}
<div class="actions">${
        request.user === null || permissions.may(row.id, 'post') ? html`<a class="button" href="#new-topic">${t('forum.new_topic')}</a>` : ''
      }${request.user === null ? '' : buttonForm(request, reply, `${visit.canonicalPath}mark-read/`, t('forum.mark_read'))}${visibleFeedLinks(
        t('feed.forum', { name: row.name }),
        (format) => forumFeedPath(row, format),
      )}</div>
${filled(topics, (hole) => {
  if (hole < listed.length) return listed[hole]!.stored + views.unwritten(listed[hole]!.id);
  if (hole >= 2 * listed.length) return lines.get(listed[hole - 2 * listed.length]!.id)?.value ?? '';
  const topic = listed[hole - listed.length]!;
  return unreadMarker(unread.get(topic.id), topic.unreadPath).value;
})}
${pageNav(page, last, href)}
<section aria-labelledby="new-topic">
<h2 id="new-topic">${t('forum.new_topic')}</h2>
${
  request.user === null
    ? html`<p>${tLink('forum.login_to_start', loginPath({ next: visit.canonicalPath }))}</p>`
    : !permissions.may(row.id, 'post')
      ? html`<p class="notice">${t('access.post_needed')}</p>`
      : html`${failed === undefined || failed.preview !== undefined ? '' : failedNotice(failed.refusal, failed.errors, ['title', 'body', ...POLL_FORM_FIELDS, ...(template?.fields.map((field) => `release.${field.key}`) ?? [])])}
${failed?.preview === undefined ? '' : previewBlock(t('forum.preview', { title: failed.preview.title }), failed.preview.body, t('forum.preview_next'))}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(failed?.values, failed?.errors), { name: 'title', label: t('forum.title'), required: true, maxlength: TOPIC_TITLE_MAX })}
${template === null ? '' : releaseFieldset(template, failed?.values, failed?.errors)}
${textArea(pageFormState(failed?.values, failed?.errors), {
  name: 'body',
  label: template === null ? t('forum.message') : t('release.description'),
  ...(template === null ? {} : { hint: t('release.description_hint') }),
  required: true,
  maxlength: POST_BODY_MAX,
  rows: 10,
  attributes: emojiPickerField(),
})}
${permissions.may(row.id, 'poll_create') ? pollFieldset(failed?.values, failed?.errors, false) : ''}
<div class="actions"><button type="submit">${t('forum.start')}</button><button type="submit" name="preview" value="1" class="secondary">${t('post.preview')}</button></div>
</form>
${addons?.newTopic?.(request, row, permissions) ?? ''}`
}
</section>`,
    });
  }

  /** A forum the reader may view but not read: its name and what is missing (403), none of its topics or subforums. */
  async function readNeeded(request: FastifyRequest, reply: FastifyReply, row: ForumRow): Promise<FastifyReply> {
    return sendPage(request, reply, {
      title: row.name,
      status: 403,
      body: html`${breadcrumb(await forumCrumbs(forum, row, false))}
<h1>${row.name}</h1>
${row.description === '' ? '' : html`<p class="muted">${row.description}</p>`}
<p class="notice">${t('access.read_needed')}</p>
${request.user === null ? html`<p>${tLink('forum.login_to_read', loginPath({ next: forumPath(row) }))}</p>` : ''}`,
    });
  }

  /**
   * The page's table of topics, from the page cache when it has it
   * (page-cache.ts). Its Views cells are holes: the stored count kept beside
   * it plus the views counted here and not yet written, filled on every view.
   */
  function topicList(row: ForumRow, viewer: AuthUser | null, page: number): Promise<Fragment<ListedTopics>> {
    const render = async () => {
      const [{ rows, total }, moderators, subforums] = await Promise.all([
        forum.topicsOf(row, viewer, { page, perPage: TOPICS_PER_PAGE, offset: (page - 1) * TOPICS_PER_PAGE }),
        forum.moderators.ofForums([row.id]).then((found) => found.get(row.id) ?? []),
        // Subforums are listed above the first page of topics.
        page === 1 && row.parent_id === null
          ? forum.access
              .of(viewer)
              .then((permissions) => forum.forums.subforums([row.id], permissions))
              .then((found) => found.get(row.id) ?? [])
          : [],
      ]);
      const [headings, lastPosts] = await Promise.all([presenter.headings(rows), forum.topics.lastPosts(rows.map((topic) => topic.id))]);
      const list =
        rows.length === 0
          ? html`<p>${t('forum.no_topics')}</p>`
          : topicTable(rows, headings, {
              caption: t('forum.topics_in', { forum: row.name }),
              lastPosts,
              unwrittenViews: (id) => views.unwritten(id),
              viewsCell: (_topic, index) => PageCache.hole(index),
              // Read state is the member's own and changes without a write the cache watches: a hole.
              unreadCell: (_topic, index) => PageCache.hole(rows.length + index),
              // So are other capabilities' lines (a release's swarm).
              lineCell: (_topic, index) => PageCache.hole(2 * rows.length + index),
            });
      const listed = rows.map((topic, index) => ({
        id: topic.id,
        stored: topic.views_count,
        unreadPath: topicUnreadPath({ id: topic.id, title: headings[index]!.title }),
      }));
      return { html: list, total, data: { topics: listed, moderators, subforums } };
    };
    // The caption names the forum, so the key carries its name.
    return pageCache === undefined
      ? render().then((fill) => uncached(fill))
      : pageCache.get(`f${row.id}:${page}:${viewerKind(viewer, row.id)}:${row.name}`, render);
  }

  return {
    // A forum the reader may not view is unknown to them: the same 404 page, before anything else.
    load: async (id, request) => forum.forums.visibleTo(id, await forum.access.of(request.user)),
    path: (row) => forumPath(row),
    async serve(request, reply, row, visit) {
      if (request.method !== 'POST') return show(request, reply, row, visit);
      if (request.user === null) {
        await requirePageUser(request, reply);
        return reply;
      }
      const values = submittedText(request.body);
      const form = checkForm(NewTopicForm, request.body);
      if (!form.ok) return show(request, reply, row, visit, { values, errors: form.errors });
      const template = await forum.releases.of(row.id);
      const release = template === null ? undefined : releaseValues(template, values);
      if (form.value.preview !== undefined) {
        // A release previews as the template will lay it out.
        const composed =
          template === null ? { ok: true as const, value: form.value } : await attempt(async () => composeRelease(template, form.value, release!));
        if (!composed.ok) return show(request, reply, row, visit, { values, errors: composed.errors });
        const [title, [body]] = await Promise.all([presenter.displayTitle(composed.value.title), presenter.bodies([{ body: composed.value.body }])]);
        return show(request, reply, row, visit, { values, errors: {}, ...(body === undefined ? {} : { preview: { title, body } }) });
      }
      const poll = pollFromForm(form.value);
      const created = await attempt(() =>
        forum.createTopic(assertUser(request), {
          forum_id: row.id,
          title: form.value.title,
          body: form.value.body,
          ...(poll === undefined ? {} : { poll }),
          ...(release === undefined ? {} : { release }),
        }),
      );
      if (!created.ok) return show(request, reply, row, visit, { values, errors: pollFormErrors(created.errors), refusal: created.refusal });
      return reply.redirect((await presenter.heading(created.value)).path, 303);
    },
    async refused(request, reply, row, visit, refusal) {
      const values = submittedText(request.body);
      if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: DRAFT_FIELDS, values });
      return show(request, reply, row, visit, { values, errors: {}, refusal });
    },
    forms: [
      entityForm({
        name: 'mark-read',
        body: NoFields,
        async submit(request, reply, row, visit) {
          await forum.unread.markForumRead(assertUser(request), row.id);
          return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
        },
        invalid: (request, reply, row, visit) => show(request, reply, row, visit),
      }),
    ],
  };
}
