// `/topic/{slug}.{id}/`: a topic's posts, oldest first, fifty to a page.
// `?post=<id>` opens the page holding that post; `?start=<offset>` (the
// legacy viewtopic parameter) the page holding that offset. Members reply,
// watch or stop watching, and the author or a moderator edits the title, all
// by POST to the same address (the form's `action` field says which).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser, requirePageUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { forumPath, loginPath, parseId, withQuery } from '../../urls/paths.ts';
import { pageNotFound, type EntityPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { csrfMismatch } from '../../auth/csrf.ts';
import {
  attempt,
  failedNotice,
  failedStatus,
  formAction,
  inputField,
  sessionEndedPage,
  submitted,
  textareaField,
  unknownAction,
  type FormRefusal,
} from '../../web/form.ts';
import { counted, timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { PostOnPage, TopicWithAuthor } from '../repository.ts';
import type { TopicHeading } from '../presenter.ts';
import { postPathOn } from '../resource.ts';
import { ForumBodies, POST_BODY_MAX, TOPIC_TITLE_MAX } from '../routes.ts';
import { isStaff } from '../service.ts';
import { filled, uncached, viewerKind, type Fragment } from '../page-cache.ts';
import type { ForumPageDeps } from './deps.ts';
import { AuthorLinks, breadcrumb, buttonForm } from './parts.ts';

export const POSTS_PER_PAGE = PER_PAGE_DEFAULT;

export interface LoadedTopic {
  row: TopicWithAuthor;
  /** The displayed title (replacement rules applied) and the canonical path made from it. */
  heading: TopicHeading;
}

/** A form of this page that failed, shown again with its values and messages. */
interface FailedForm {
  form: 'reply' | 'rename';
  values: Record<string, string>;
  errors: FieldErrors;
  /** Refused as a whole (expired form 403, posting too fast 429) rather than for its fields. */
  refusal?: FormRefusal;
}

/** The forms where members type text, as a draft names them when their login ended (sessionEndedPage). */
const DRAFT_FIELDS = {
  reply: [{ name: 'body', label: 'Your reply' }],
  rename: [{ name: 'title', label: 'New title' }],
} as const;

export function topicPage({ forum, presenter, views, addons, pageCache }: ForumPageDeps): EntityPage<LoadedTopic> {
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
    const [posts, parent, watching, addon] = await Promise.all([
      postList(topic, viewer, page),
      forum.getForum(topic.row.forum_id),
      viewer === null ? false : forum.isWatching(viewer, topic.row.id),
      page === 1 && addons?.topic !== undefined ? addons.topic(request, reply, topic.row) : '',
    ]);
    const last = lastPage(posts.total, POSTS_PER_PAGE);
    if (page > last) throw pageNotFound();
    if (request.method === 'GET') views.record(topic.row.id);

    const href = (n: number) => withQuery(visit.canonicalPath, n === 1 ? {} : { page: n });
    const nav = pageNav(page, last, href, 'Pages of this topic');
    const mayRename = viewer !== null && (isStaff(viewer) || viewer.id === topic.row.author_id);

    return sendPage(request, reply, {
      title: page === 1 ? topic.heading.title : `${topic.heading.title} (page ${page})`,
      canonical: href(page),
      status: failed === undefined ? 200 : failedStatus(reply, failed.refusal),
      body: html`${breadcrumb([{ label: parent.name, href: forumPath(parent) }])}
<h1>${topic.heading.html}</h1>
${topic.row.status === 'pending' ? html`<p class="notice">This topic is waiting for moderation. Until a moderator approves it, only its author and the moderators can see it.</p>` : ''}
<p class="muted">${counted(topic.row.posts_count, 'post', 'posts')} · ${counted(topic.row.views_count + views.unwritten(topic.row.id), 'view', 'views')}</p>
${
  viewer === null
    ? ''
    : html`<div class="actions">${
        watching
          ? buttonForm(request, reply, visit.canonicalPath, 'unwatch', 'Stop watching this topic')
          : buttonForm(request, reply, visit.canonicalPath, 'watch', 'Watch this topic')
      }</div>`
}
${mayRename ? renameForm(request, reply, topic, visit, failed?.form === 'rename' ? failed : undefined) : ''}
${addon}
${nav}
${filled(posts, () => '')}
${nav}
${replySection(request, reply, visit, failed?.form === 'reply' ? failed : undefined)}`,
    });
  }

  /** The page's posts as HTML, from the page cache when it has them (page-cache.ts). */
  function postList(topic: LoadedTopic, viewer: AuthUser | null, page: number): Promise<Fragment<null>> {
    const render = async () => {
      const listed = await forum.postsOf(topic.row, viewer, { page, perPage: POSTS_PER_PAGE, offset: (page - 1) * POSTS_PER_PAGE });
      const [bodies, signatures] = await Promise.all([presenter.bodies(listed.rows), signaturesOf(listed.rows)]);
      const authors = new AuthorLinks();
      const list = html`${listed.rows.map((row, index) =>
        postHtml(row, {
          body: bodies[index]!,
          signature: signatures.get(row.author_signature ?? '')!,
          author: authors.link(row.author_id, row.author_name, row.guest_name),
          permalink: postPathOn(topic.heading.path, row.id),
        }),
      )}`;
      return { html: list, total: listed.total, data: null };
    };
    // The permalinks carry the topic's path, so the key does too.
    return pageCache === undefined
      ? render().then((fill) => uncached(fill))
      : pageCache.get(`t${topic.row.id}:${page}:${viewerKind(viewer)}:${topic.heading.path}`, render);
  }

  /** Each distinct signature on the page is rendered once. */
  async function signaturesOf(rows: readonly PostOnPage[]): Promise<Map<string, SafeHtml>> {
    const texts = [...new Set(rows.map((row) => row.author_signature ?? ''))];
    const rendered = await Promise.all(texts.map((text) => presenter.signature(text)));
    return new Map(texts.map((text, index) => [text, rendered[index]!]));
  }

  async function act(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit): Promise<FastifyReply> {
    if (request.user === null) {
      await requirePageUser(request, reply);
      return reply;
    }
    const user = assertUser(request);
    const values = submitted(request.body);
    switch (formAction(request.body, 'reply')) {
      case 'reply': {
        const form = checkForm(ForumBodies.post, request.body);
        if (!form.ok) return show(request, reply, topic, visit, { form: 'reply', values, errors: form.errors });
        const posted = await attempt(() => forum.reply(topic.row.id, user, form.value.body));
        if (!posted.ok) return show(request, reply, topic, visit, { form: 'reply', values, errors: posted.errors, refusal: posted.refusal });
        return reply.redirect(postPathOn(topic.heading.path, posted.value.id), 303);
      }
      case 'rename': {
        const form = checkForm(ForumBodies.rename, request.body);
        if (!form.ok) return show(request, reply, topic, visit, { form: 'rename', values, errors: form.errors });
        const renamed = await attempt(() => forum.renameTopic(topic.row.id, user, form.value.title));
        if (!renamed.ok) return show(request, reply, topic, visit, { form: 'rename', values, errors: renamed.errors, refusal: renamed.refusal });
        return reply.redirect((await presenter.heading(renamed.value)).path, 303);
      }
      case 'watch':
        await forum.watch(user, topic.row.id);
        return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
      case 'unwatch':
        await forum.unwatch(user, topic.row.id);
        return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
      default:
        throw unknownAction();
    }
  }

  return {
    async load(id, request) {
      const row = await forum.getTopic(id, request.user);
      return { row, heading: await presenter.heading(row) };
    },
    path: (topic) => topic.heading.path,
    serve: (request, reply, topic, visit) => (request.method === 'POST' ? act(request, reply, topic, visit) : show(request, reply, topic, visit)),
    async refused(request, reply, topic, visit, refusal) {
      const form = formAction(request.body, 'reply');
      // Watch buttons carry no text to keep: the 403 page is enough.
      if (form !== 'reply' && form !== 'rename') throw csrfMismatch();
      const values = submitted(request.body);
      if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: DRAFT_FIELDS[form], values });
      return show(request, reply, topic, visit, { form, values, errors: {}, refusal });
    },
  };
}

interface PostParts {
  body: SafeHtml;
  signature: SafeHtml;
  author: SafeHtml;
  permalink: string;
}

function postHtml(row: PostOnPage, parts: PostParts): SafeHtml {
  const pending = row.status === 'pending';
  return html`<article class="post${pending ? ' pending' : ''}" id="post-${row.id}">
<header><span class="author">${parts.author}</span> <a class="permalink" href="${parts.permalink}">${timeHtml(row.created_at)}</a></header>
${pending ? html`<p class="badge">Waiting for moderation: only its author and the moderators see this post.</p>` : ''}
<div class="body">${parts.body}</div>
${parts.signature.value === '' ? '' : html`<footer class="signature">${parts.signature}</footer>`}
</article>`;
}

function renameForm(request: FastifyRequest, reply: FastifyReply, topic: LoadedTopic, visit: PageVisit, failed: FailedForm | undefined): SafeHtml {
  return html`<details class="edit-title"${failed === undefined ? '' : html` open`}><summary>Edit the title</summary>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['title'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}<input type="hidden" name="action" value="rename">
${inputField('text', { name: 'title', id: 'rename-title', label: 'New title', value: failed?.values['title'] ?? topic.row.title, errors: failed?.errors, required: true, maxLength: TOPIC_TITLE_MAX })}
<div><button type="submit">Save title</button></div>
</form>
</details>`;
}

function replySection(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, failed: FailedForm | undefined): SafeHtml {
  if (request.user === null) {
    return html`<p><a href="${loginPath({ next: visit.canonicalPath })}">Log in</a> to reply.</p>`;
  }
  return html`<section aria-labelledby="reply-heading">
<h2 id="reply-heading">Reply</h2>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['body'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}<input type="hidden" name="action" value="reply">
${textareaField({ name: 'body', label: 'Your reply', value: failed?.values['body'], errors: failed?.errors, required: true, maxLength: POST_BODY_MAX, rows: 8 })}
<div><button type="submit">Post reply</button></div>
</form>
</section>`;
}
