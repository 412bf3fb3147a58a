// `/topic/{slug}.{id}/`: a topic's posts, oldest first, fifty to a page.
// `?post=<id>` opens the page holding that post; `?start=<offset>` (the
// legacy viewtopic parameter) the page holding that offset. Members reply,
// watch or stop watching, and the author or a moderator edits the title,
// each form posted to its own address below the topic's (`reply/`,
// `rename/`, `watch/`, `unwatch/`) and its body checked by its schema there.
// The topic is loaded through the forum's rule (Topics.get: 404 as unknown
// without `view`, 403 without `read`) before anything else, the page cache
// included; the forms shown follow the reader's rights there
// (docs/access-paths.md).
import { tHtml } from '../../web/translated.ts';
import { number, t, tn, type TextKey } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { assertUser, requirePageUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { parseId, topicFeedPath, topicUnreadPath, withQuery } from '../../urls/paths.ts';
import { entityForm, pageNotFound, type EntityForm, type EntityPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { csrfMismatch } from '../../auth/csrf.ts';
import { attempt, failedNotice, failedStatus, formerAction, outdatedForm, outdatedFormRefusal, sessionEndedPage, submittedText } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textInput } from '../../web/form-controls.ts';
import { dateHtml, timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { PostOnPage } from '../repository.ts';
import type { Role } from '../../db/schema.ts';
import { postPathOn } from '../resource.ts';
import { ForumBodies, TOPIC_TITLE_MAX } from '../routes.ts';
import { moderates } from '../service.ts';
import { filled, PageCache, uncached, viewerKind, type Fragment } from '../page-cache.ts';
import type { ForumPageDeps } from './deps.ts';
import { AuthorLinks, breadcrumb, buttonForm, feedLinks, topicBadges } from './parts.ts';
import { NoFields } from '../../web/form.ts';
import { moderationForms, moderationPanel, rightButtons, postModerationButton, postModerationForms } from './topic-moderation.ts';
import type { ReaderPermissions } from '../permissions.ts';
import { ReplyForm, mayReply, quoteLink, quotedDraft, replySection } from './reply-form.ts';
import {
  DeletePostForm,
  EditPostForm,
  deleteButton,
  deletePostForm,
  editLink,
  editSection,
  historyLink,
  historySection,
  mayDelete,
  mayEdit,
  postToEdit,
} from './post-editing.ts';
import { avatarImg } from '../../web/avatar.ts';
import { addPollSection, pollBox, pollForms, type FailedPollForm } from './poll-box.ts';
import { pollTexts } from '../polls/resource.ts';
import { moderatorCommentForms, moderatorCommentHtml, moderatorCommentLink, moderatorCommentSection, postToComment } from './moderator-comment.ts';
import { forumCrumbs } from './forum-list.ts';
import { EDITOR_SCRIPTS } from '../../web/emoji-picker.ts';
import { avatarUrl } from '../../users/avatars/avatars.ts';
import { rankOf, type Rank } from '../../users/ranks.ts';
import { POSTS_PER_PAGE, loadTopic, type LoadedTopic } from './loaded-topic.ts';
import { splitMergeLinks } from './split-merge-pages.ts';
import { reportLink } from './report-page.ts';

export { POSTS_PER_PAGE, type LoadedTopic };

type TextForm = 'reply' | 'rename' | 'edit';

/** A form of this page that failed, shown again with its values and messages. */
interface FailedForm {
  /** `watch` stands for both buttons, whose bodies have no fields; `delete` for a post's Delete; `moderation` for the moderators' panel. */
  form: TextForm | 'watch' | 'delete' | 'moderation' | 'poll' | 'mod-comment';
  values: Record<string, string>;
  errors: FieldErrors;
  /** Refused as a whole (expired form 403, posting too fast 429) rather than for its fields. */
  refusal?: FormRefusal;
  /** The reply as it will read: the Preview button, not a failure (200). */
  preview?: SafeHtml;
  /** A poll form's failure (`form` is `poll`), shown in the poll box or the add-a-poll form. */
  poll?: FailedPollForm;
}

/** The forms where members type text, as a draft names them when their login ended (sessionEndedPage). */
const DRAFT_FIELDS = {
  reply: [{ name: 'body', label: 'Your reply' }],
  edit: [{ name: 'body', label: 'Text' }],
  rename: [{ name: 'title', label: 'New title' }],
} as const;

/** The watch buttons send nothing but the CSRF token. */

const topicForm = <S extends TSchema>(form: EntityForm<LoadedTopic, S>): EntityForm<LoadedTopic, S> => entityForm(form);

export function topicPage({ forum, presenter, views, addons, pageCache, ranks }: ForumPageDeps): EntityPage<LoadedTopic> {
  async function pageToShow(topic: LoadedTopic, query: URLSearchParams, viewer: AuthUser | null): Promise<number | null> {
    const post = query.get('post');
    if (post !== null) {
      const postId = parseId(post);
      // A link to a post that is gone (or not this topic's) still opens the topic.
      return postId === null ? 1 : ((await forum.pageOfPost(topic.row, postId, viewer, POSTS_PER_PAGE)) ?? 1);
    }
    return requestedPage(query, POSTS_PER_PAGE);
  }

  async function show(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, failed?: FailedForm): Promise<FastifyReply> {
    const viewer = request.user;
    const page = await pageToShow(topic, visit.query, viewer);
    if (page === null) throw pageNotFound();
    // Moderators of the topic's forum: staff, or the forum's own moderators (docs/moderation.md).
    const moderator = moderates(viewer, topic.row.forum_id);
    // What the forum lets this reader do (the topic was loaded through the rule: they read it).
    const permissions = await forum.access.of(viewer);
    const rights = {
      pin: viewer !== null && permissions.may(topic.row.forum_id, 'pin'),
      announce: viewer !== null && permissions.may(topic.row.forum_id, 'announce'),
    };
    const [posts, parent, watching, addon, forums, poll] = await Promise.all([
      postList(topic, viewer, page, permissions),
      forum.getForum(topic.row.forum_id),
      viewer === null ? false : forum.isWatching(viewer, topic.row.id),
      page === 1 && addons?.topic !== undefined ? addons.topic(request, reply, topic.row) : '',
      // A topic moves only into a forum its mover moderates too.
      moderator ? forum.listForums({ page: 1, perPage: 100, offset: 0 }, viewer).then((listed) => listed.rows.filter((row) => moderates(viewer, row.id))) : [],
      // The poll stands above the first page's posts, as TorrentPier shows it.
      page === 1 ? forum.polls.of(topic.row, viewer) : null,
    ]);
    const last = lastPage(posts.total, POSTS_PER_PAGE);
    if (page > last) throw pageNotFound();
    if (request.method === 'GET') views.record(topic.row.id, request.user === null ? `g${request.ip}` : `u${request.user.id}`);
    // A member has read what the page showed them (docs/unread.md).
    const [lines] = await Promise.all([
      authorLines(posts.data.authors),
      // A member has read what the page showed them (docs/unread.md).
      request.method === 'GET' && viewer !== null && posts.data.lastId !== null ? forum.unread.viewed(viewer, topic.row.id, posts.data.lastId) : undefined,
      // What told them of these posts is read too; the count read with the session says whether anything is unread at all.
      request.method === 'GET' && viewer !== null && posts.data.lastId !== null && request.unreadNotifications > 0
        ? forum.notifications.seen(viewer.id, topic.row.id, posts.data.lastId).then((read) => {
            request.unreadNotifications = Math.max(0, request.unreadNotifications - read);
          })
        : undefined,
    ]);

    const href = (n: number) => withQuery(visit.canonicalPath, n === 1 ? {} : { page: n });
    const nav = pageNav(page, last, href, t('topic.pages'));
    const mayRename = viewer !== null && (moderator || viewer.id === topic.row.author_id);
    // A Quote link fills the form (reply-form.ts); a failed or previewed reply shows what was typed instead.
    const quoted =
      failed === undefined && viewer !== null && mayReply(viewer, topic.row, permissions)
        ? await quotedDraft(forum, topic.row, viewer, visit.query)
        : undefined;
    // `?edit=` (or a refused edit) puts the edit form in the reply form's place; `?history=` shows a post's earlier texts to moderators.
    const editing = await postToEdit(forum, topic.row, viewer, failed?.form === 'edit' ? failed.values['post_id'] : visit.query.get('edit'), permissions);
    // `?comment=` (or a refused comment) puts a moderator's comment form there instead.
    const commenting =
      editing === undefined
        ? await postToComment(forum, topic.row, viewer, failed?.form === 'mod-comment' ? failed.values['post_id'] : visit.query.get('comment'))
        : undefined;
    const historyOf = moderator && viewer !== null ? parseId(visit.query.get('history') ?? '') : null;
    const pollFailure = failed?.form === 'poll' ? failed.poll : undefined;
    // A topic without a poll: its author (with the forum's poll_create right) or a moderator may start one.
    const mayAddPoll =
      page === 1 &&
      poll === null &&
      viewer !== null &&
      (moderator || (viewer.id === topic.row.author_id && permissions.may(topic.row.forum_id, 'poll_create')));
    const pollSection =
      poll !== null
        ? pollBox(request, reply, poll, await pollTexts(poll, presenter), visit.canonicalPath, pollFailure)
        : mayAddPoll
          ? addPollSection(request, reply, visit.canonicalPath, pollFailure)
          : '';
    const history = historyOf === null || viewer === null ? undefined : await forum.posts.revisions(historyOf, viewer).catch(() => undefined);

    return sendPage(request, reply, {
      title: page === 1 ? topic.heading.title : t('page.numbered', { title: topic.heading.title, page }),
      canonical: href(page),
      // A topic waiting for moderation has no feed (feeds show what guests see).
      head: html`${
        topic.row.status === 'published'
          ? feedLinks(t('feed.topic', { title: topic.heading.title }), (format) => topicFeedPath({ id: topic.row.id, title: topic.heading.title }, format))
          : ''
      }${viewer === null ? '' : EDITOR_SCRIPTS}`,
      status: failed === undefined || failed.preview !== undefined ? 200 : failedStatus(reply, failed.refusal),
      body: html`${breadcrumb(await forumCrumbs(forum, parent, true))}
<h1>${topic.heading.html}</h1>
${topicBadges(topic.row)}
${topic.row.hidden_at === null ? '' : html`<p class="notice">${t('topic.hidden_notice')}</p>`}
${topic.row.status === 'pending' ? html`<p class="notice">${t('topic.pending_notice')}</p>` : ''}
<p class="muted">${tn('topics.post_count', topic.row.posts_count)} · ${tn('topic.views', topic.row.views_count + views.unwritten(topic.row.id))}</p>
${failed?.form === 'watch' || failed?.form === 'delete' ? failedNotice(failed.refusal, failed.errors, []) : ''}
${
  viewer === null
    ? ''
    : html`<div class="actions">${
        watching
          ? buttonForm(request, reply, `${visit.canonicalPath}unwatch/`, t('topic.unwatch'))
          : buttonForm(request, reply, `${visit.canonicalPath}watch/`, t('topic.watch'))
      }</div>`
}
${mayRename ? renameForm(request, reply, topic, visit, failed?.form === 'rename' ? failed : undefined) : ''}
${moderator ? moderationPanel(request, reply, topic, visit, forums, failed?.form === 'moderation' ? failed.errors : undefined, rights, splitMergeLinks({ id: topic.row.id, title: topic.heading.title }, page)) : ''}
${!moderator && (rights.pin || rights.announce) ? html`<div class="actions">${rightButtons(request, reply, topic, visit.canonicalPath, rights)}</div>` : ''}
${moderator ? postModerationForms(request, reply, visit.canonicalPath) : ''}
${viewer === null ? '' : deletePostForm(request, reply, visit.canonicalPath)}
${pollSection}
${addon}
${nav}
${filled(posts, (index) => lines.get(posts.data.authors[index] ?? 0)?.value ?? '')}
${nav}
${history === undefined || historyOf === null ? '' : historySection(historyOf, history)}
${
  editing !== undefined
    ? editSection(request, reply, visit, editing, failed?.form === 'edit' ? failed : undefined)
    : commenting !== undefined
      ? moderatorCommentSection(request, reply, visit, commenting, failed?.form === 'mod-comment' ? failed : undefined)
      : replySection(request, reply, topic.row, visit, failed?.form === 'reply' ? failed : quoted, permissions)
}`,
    });
  }

  /** What other capabilities add under each author's name (their ratio), for the authors on the page. */
  async function authorLines(authors: ReadonlyArray<number | null>): Promise<Map<number, SafeHtml>> {
    const ids = [...new Set(authors.filter((id) => id !== null))];
    return addons?.authorLines === undefined || ids.length === 0 ? new Map() : addons.authorLines(ids);
  }

  /**
   * The page's posts as HTML, from the page cache when it has them
   * (page-cache.ts), with the id of the last of them and each post's author:
   * hole `i` is the lines other capabilities add under post i's author.
   */
  function postList(topic: LoadedTopic, viewer: AuthUser | null, page: number, permissions: ReaderPermissions): Promise<Fragment<ListedPosts>> {
    const render = async () => {
      const listed = await forum.postsOf(topic.row, viewer, { page, perPage: POSTS_PER_PAGE, offset: (page - 1) * POSTS_PER_PAGE });
      const commented = listed.rows.filter((row) => row.mod_comment !== null);
      const [bodies, signatures, commentBodies, allRanks] = await Promise.all([
        presenter.bodies(listed.rows),
        signaturesOf(listed.rows),
        presenter.bodies(commented.map((row) => ({ body: row.mod_comment! }))),
        ranks?.all() ?? [],
      ]);
      const comments = new Map(commented.map((row, index) => [row.id, commentBodies[index]!]));
      const authors = new AuthorLinks();
      const quotable = mayReply(viewer, topic.row, permissions);
      const moderating = moderates(viewer, topic.row.forum_id);
      const list = html`${listed.rows.map((row, index) =>
        postHtml(row, {
          body: bodies[index]!,
          signature: signatures.get(row.author_signature ?? '')!,
          comment: comments.has(row.id) ? moderatorCommentHtml(row, comments.get(row.id)!, authors) : html``,
          author: authorPanel(
            row,
            authors.link(row.author_id, row.author_name, row.guest_name),
            PageCache.hole(index),
            rankOf(allRanks, { rankId: row.author_rank_id, postCount: row.author_post_count ?? 0 }),
          ),
          permalink: postPathOn(topic.heading.path, row.id),
          actions: [
            ...(quotable ? [quoteLink(topic.heading.path, row.id)] : []),
            ...(mayEdit(viewer, row, topic.row.forum_id, permissions) ? [editLink(topic.heading.path, row.id)] : []),
            ...(mayDelete(viewer, row, index + (page - 1) * POSTS_PER_PAGE === 0, topic.row.forum_id, permissions) ? [deleteButton(row.id)] : []),
            ...(moderating && row.edited_at !== null ? [historyLink(topic.heading.path, row.id)] : []),
            ...(moderating ? [moderatorCommentLink(topic.heading.path, row.id)] : []),
            ...(viewer !== null && row.author_id !== viewer.id && !moderating ? [reportLink(row.id)] : []),
            // The opening post is hidden with its topic, not on its own.
            ...(moderating && index + (page - 1) * POSTS_PER_PAGE > 0 ? [postModerationButton(row.id, row.hidden_at !== null)] : []),
          ],
        }),
      )}`;
      return { html: list, total: listed.total, data: { lastId: listed.rows.at(-1)?.id ?? null, authors: listed.rows.map((row) => row.author_id) } };
    };
    // The permalinks carry the topic's path, so the key does too.
    return pageCache === undefined
      ? render().then((fill) => uncached(fill))
      : pageCache.get(`t${topic.row.id}:${page}:${viewerKind(viewer, topic.row.forum_id)}:${topic.heading.path}`, render);
  }

  /** Each distinct signature on the page is rendered once. */
  async function signaturesOf(rows: readonly PostOnPage[]): Promise<Map<string, SafeHtml>> {
    const texts = [...new Set(rows.map((row) => row.author_signature ?? ''))];
    const rendered = await Promise.all(texts.map((text) => presenter.signature(text)));
    return new Map(texts.map((text, index) => [text, rendered[index]!]));
  }

  /** A text form shown again, with what was typed and why nothing was saved; a guest's is kept on the session-ended page. */
  async function refill(
    request: FastifyRequest,
    reply: FastifyReply,
    topic: LoadedTopic,
    visit: PageVisit,
    form: TextForm,
    refusal: FormRefusal,
  ): Promise<FastifyReply> {
    const values = submittedText(request.body);
    if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: DRAFT_FIELDS[form], values });
    return show(request, reply, topic, visit, { form, values, errors: {}, refusal });
  }

  /**
   * A POST to the topic's own address: a form of the page as it was before
   * each form had its address (a tab opened before an upgrade). Nothing is
   * done; a reply or title is shown again to be sent from the new form (400).
   */
  async function former(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit): Promise<FastifyReply> {
    const form = formerTextForm(request.body);
    if (form === undefined) throw outdatedForm();
    if (request.user === null) {
      await requirePageUser(request, reply);
      return reply;
    }
    return refill(request, reply, topic, visit, form, outdatedFormRefusal());
  }

  const watchButton = (name: 'watch' | 'unwatch', change: (user: AuthUser, topicId: number) => Promise<unknown>) =>
    topicForm({
      name,
      body: NoFields,
      async submit(request, reply, topic, visit) {
        await change(assertUser(request), topic.row.id);
        return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
      },
      invalid: (request, reply, topic, visit, errors) => show(request, reply, topic, visit, { form: 'watch', values: {}, errors }),
    });

  /** The reply or edit form again, with its text as it will read above it (Preview): nothing is posted. */
  async function showPreview(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, form: 'reply' | 'edit', text: string) {
    const [preview] = await presenter.bodies([{ body: text }]);
    return show(request, reply, topic, visit, { form, values: submittedText(request.body), errors: {}, ...(preview === undefined ? {} : { preview }) });
  }

  /** A post a form of this page names (edit, delete): another topic's post is not changed through this topic's address. */
  async function assertOnTopic(postId: number, topic: LoadedTopic, viewer: AuthUser | null): Promise<void> {
    if ((await forum.getPost(postId, viewer)).topic_id !== topic.row.id) throw pageNotFound();
  }

  const forms: Array<EntityForm<LoadedTopic>> = [
    topicForm({
      name: 'reply',
      body: ReplyForm,
      async submit(request, reply, topic, visit, body) {
        if (body.preview !== undefined) return showPreview(request, reply, topic, visit, 'reply', body.body);
        const posted = await attempt(() => forum.reply(topic.row.id, assertUser(request), body.body));
        if (!posted.ok)
          return show(request, reply, topic, visit, { form: 'reply', values: submittedText(request.body), errors: posted.errors, refusal: posted.refusal });
        return reply.redirect(postPathOn(topic.heading.path, posted.value.id), 303);
      },
      invalid: (request, reply, topic, visit, errors) => show(request, reply, topic, visit, { form: 'reply', values: submittedText(request.body), errors }),
      refused: (request, reply, topic, visit, refusal) => refill(request, reply, topic, visit, 'reply', refusal),
    }),
    topicForm({
      name: 'edit-post',
      body: EditPostForm,
      async submit(request, reply, topic, visit, body) {
        await assertOnTopic(body.post_id, topic, request.user);
        if (body.preview !== undefined) return showPreview(request, reply, topic, visit, 'edit', body.body);
        const edited = await attempt(() => forum.editPost(body.post_id, assertUser(request), body.body));
        if (!edited.ok)
          return show(request, reply, topic, visit, { form: 'edit', values: submittedText(request.body), errors: edited.errors, refusal: edited.refusal });
        return reply.redirect(postPathOn(topic.heading.path, body.post_id), 303);
      },
      invalid: (request, reply, topic, visit, errors) => show(request, reply, topic, visit, { form: 'edit', values: submittedText(request.body), errors }),
      refused: (request, reply, topic, visit, refusal) => refill(request, reply, topic, visit, 'edit', refusal),
    }),
    topicForm({
      name: 'delete-post',
      body: DeletePostForm,
      async submit(request, reply, topic, visit, body) {
        await assertOnTopic(body.post_id, topic, request.user);
        const deleted = await attempt(() => forum.deletePost(body.post_id, assertUser(request)));
        if (!deleted.ok) return show(request, reply, topic, visit, { form: 'delete', values: {}, errors: deleted.errors, refusal: deleted.refusal });
        return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
      },
      invalid: (request, reply, topic, visit, errors) => show(request, reply, topic, visit, { form: 'delete', values: {}, errors }),
    }),
    topicForm({
      name: 'rename',
      body: ForumBodies.rename,
      async submit(request, reply, topic, visit, body) {
        const renamed = await attempt(() => forum.renameTopic(topic.row.id, assertUser(request), body.title));
        if (!renamed.ok)
          return show(request, reply, topic, visit, { form: 'rename', values: submittedText(request.body), errors: renamed.errors, refusal: renamed.refusal });
        return reply.redirect((await presenter.heading(renamed.value)).path, 303);
      },
      invalid: (request, reply, topic, visit, errors) => show(request, reply, topic, visit, { form: 'rename', values: submittedText(request.body), errors }),
      refused: (request, reply, topic, visit, refusal) => refill(request, reply, topic, visit, 'rename', refusal),
    }),
    watchButton('watch', (user, topicId) => forum.watch(user, topicId)),
    watchButton('unwatch', (user, topicId) => forum.unwatch(user, topicId)),
    ...moderationForms<LoadedTopic>(forum, (request, reply, topic, visit, errors) =>
      show(request, reply, topic, visit, { form: 'moderation', values: {}, errors }),
    ),
    ...moderatorCommentForms<LoadedTopic>(forum, (request, reply, topic, visit, failedComment) =>
      show(request, reply, topic, visit, { form: 'mod-comment', ...failedComment }),
    ),
    ...pollForms<LoadedTopic>(forum, (request, reply, topic, visit, poll) =>
      show(request, reply, topic, visit, {
        form: 'poll',
        values: {},
        errors: poll.errors,
        ...(poll.refusal === undefined ? {} : { refusal: poll.refusal }),
        poll,
      }),
    ),
  ];

  return {
    load: (id, request) => loadTopic(forum, presenter, id, request),
    path: (topic) => topic.heading.path,
    serve: (request, reply, topic, visit) => (request.method === 'POST' ? former(request, reply, topic, visit) : show(request, reply, topic, visit)),
    async refused(request, reply, topic, visit, refusal) {
      // Watch buttons carry no text to keep: the 403 page is enough.
      const form = formerTextForm(request.body);
      if (form === undefined) throw csrfMismatch();
      return refill(request, reply, topic, visit, form, refusal);
    },
    forms,
  };
}

/** Which text form a post to the page's own address came from: its `action` field, a reply when it has none. */
function formerTextForm(body: unknown): TextForm | undefined {
  const action = formerAction(body) ?? 'reply';
  return action === 'reply' || action === 'rename' ? action : undefined;
}

interface PostParts {
  body: SafeHtml;
  signature: SafeHtml;
  /** A moderator's note under the body, or nothing. */
  comment: SafeHtml;
  author: SafeHtml;
  permalink: string;
  /** Under the post, for this viewer: Quote, Edit, History, a moderator's Hide or Restore. */
  actions: readonly SafeHtml[];
}

/** The page's posts kept beside their cached HTML. */
interface ListedPosts {
  lastId: number | null;
  /** Each post's author, by its index (its hole in the HTML). */
  authors: Array<number | null>;
}

const STAFF_RANKS: Partial<Record<Role, TextKey>> = { admin: 'profile.role.admin', moderator: 'profile.role.moderator' };

/**
 * Who wrote the post, as TorrentPier shows it beside every post: avatar,
 * name, rank, when they joined and how many posts they wrote, then `more`
 * (a hole: what other capabilities add, such as the ratio).
 */
function authorPanel(row: PostOnPage, name: SafeHtml, more: SafeHtml, rank: Rank | null): SafeHtml {
  if (row.author_id === null || row.author_joined_at === null) return html`<aside class="author-panel"><p class="name">${name}</p></aside>`;
  const staff = row.author_role === null ? undefined : STAFF_RANKS[row.author_role];
  return html`<aside class="author-panel">${avatarImg(avatarUrl({ avatar: row.author_avatar }), 64)}<div>
<p class="name">${name}${staff === undefined ? '' : html` <span class="badge rank">${t(staff)}</span>`}</p>
${rank === null ? '' : html`<p class="rank-title">${rank.imageUrl === null ? '' : html`<img src="${rank.imageUrl}" alt="" loading="lazy">`}${rank.title}</p>`}
<p class="facts"><span>${t('profile.joined')}: ${dateHtml(row.author_joined_at)}</span> <span>${t('profile.posts')}: ${number(row.author_post_count ?? 0)}</span>${more}</p>
</div></aside>`;
}

function postHtml(row: PostOnPage, parts: PostParts): SafeHtml {
  const pending = row.status === 'pending';
  const hidden = row.hidden_at !== null;
  return html`<article class="post${pending ? ' pending' : ''}${hidden ? ' hidden' : ''}" id="post-${row.id}">
${parts.author}
<header><a class="permalink" href="${parts.permalink}">${timeHtml(row.created_at)}</a>${row.edited_at === null ? '' : html` <span class="muted edited">${tHtml('topic.edited', { time: timeHtml(row.edited_at) })}</span>`}</header>
${pending ? html`<p class="badge">${t('topic.post_pending')}</p>` : ''}
${hidden ? html`<p class="badge">${row.hidden_by !== null && row.hidden_by === row.author_id ? t('topic.post_withdrawn') : t('topic.post_hidden')}</p>` : ''}
<div class="body">${parts.body}</div>
${parts.comment}
${parts.signature.value === '' ? '' : html`<footer class="signature">${parts.signature}</footer>`}
${parts.actions.length === 0 ? '' : html`<div class="actions">${parts.actions}</div>`}
</article>`;
}

function renameForm(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, failed: FailedForm | undefined): SafeHtml {
  return html`<details class="edit-title"${failed === undefined ? '' : html` open`}><summary>${t('topic.edit_title')}</summary>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['title'])}
<form method="post" action="${visit.canonicalPath}rename/" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState({ title: failed?.values['title'] ?? topic.row.title }, failed?.errors ?? {}), { name: 'title', id: 'rename-title', label: t('topic.new_title'), required: true, maxlength: TOPIC_TITLE_MAX })}
<div><button type="submit">${t('topic.save_title')}</button></div>
</form>
</details>`;
}

/**
 * `/topic/{slug}.{id}/unread/`: 303 to the member's first unread post of the
 * topic, or to its last post when all is read; guests go to the topic.
 */
export function topicUnreadPage({ forum, presenter }: ForumPageDeps): EntityPage<LoadedTopic> {
  return {
    load: (id, request) => loadTopic(forum, presenter, id, request),
    path: (topic) => topicUnreadPath({ id: topic.row.id, title: topic.heading.title }),
    async serve(request, reply, topic) {
      const postId = await forum.unread.firstUnreadPostId(request.user, topic.row.id);
      return reply.redirect(postId === undefined ? topic.heading.path : postPathOn(topic.heading.path, postId), 303);
    },
  };
}
