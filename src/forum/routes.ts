// JSON API for forums, topics and posts. Reads and writes follow each
// forum's rule (docs/access.md: a forum one may not view answers 404 as an
// unknown one, a missing right 403; the services ask it of the topic's or
// post's own forum); pending content only for its author and moderators;
// forums and their moderators are managed by admins; moderators approve held posts.
// The moderators' routes let staff and forum moderators through
// (MODERATORS); the services check the forum of the topic or post itself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireRole, requireUser, ADMINS, MODERATORS } from '../auth/guard.ts';
import { CollectionOf, PageQueryProperties, PaginatedOf, collection, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, Int32, Nullable, OneOf, Reference, VisibleText, errorResponses } from '../http/schemas.ts';
import { MODERATOR_COMMENT_KINDS, MODERATOR_COMMENT_MAX } from './resource.ts';
import type { ForumPresenter } from './presenter.ts';
import { USERNAME_MAX } from '../users/fields.ts';
import type { AuthUser } from '../auth/service.ts';
import { MODERATION_ACTIONS } from './moderation-log.ts';
import { MODERATORS_MAX } from './moderators.ts';
import type { TopicWithAuthor } from './repository.ts';
import { PollBody } from './polls/resource.ts';
import { SPLIT_POSTS_MAX, type SplitDestination } from './split-merge.ts';
import { FIELDS_MAX as RELEASE_FIELDS_MAX, VALUE_MAX as RELEASE_VALUE_MAX } from './release-templates.ts';
import { FieldErrorBag, ValidationError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import {
  ForumListItem,
  ForumResource,
  LogEntryResource,
  ModeratorResource,
  PostResource,
  RevisionResource,
  TopicListItem,
  TopicResource,
  forumListItem,
  forumResource,
  logEntryResource,
  moderatorResource,
  revisionResource,
  topicListItem,
} from './resource.ts';
import { moderatedScope } from './access.ts';
import type { ForumService } from './service.ts';

export const FORUM_NAME_MAX = 255;
export const FORUM_DESCRIPTION_MAX = 2000;
export const TOPIC_TITLE_MAX = 255;
export const POST_BODY_MAX = 60_000;

const ForumName = VisibleText(FORUM_NAME_MAX, 'Forum name');
const ForumDescription = Type.String({ maxLength: FORUM_DESCRIPTION_MAX, description: 'Shown under the name' });
const DisplayOrder = Int32('Position in the forum list, ascending');
const TopicTitle = VisibleText(TOPIC_TITLE_MAX, 'Topic title');

/** A split's destination from its fields: an existing topic, or a new one's title and forum, never both (422 naming the field). */
export function splitDestination(topicId: number | undefined, title: string | undefined, forumId: number | undefined): SplitDestination {
  if (topicId !== undefined) {
    if (title !== undefined || forumId !== undefined) throw ValidationError.field('topic_id', t('split.one_destination'));
    return { topic_id: topicId };
  }
  const errors = new FieldErrorBag();
  if (title === undefined) errors.add('title', t('split.destination'));
  if (forumId === undefined) errors.add('forum_id', t('split.destination'));
  errors.throwIfAny();
  return { title: title!, forum_id: forumId! };
}
const PostBody = VisibleText(POST_BODY_MAX, 'Message text');

const ParentForum = Nullable(Reference('The top-level forum this one is a subforum of; null for a top-level forum'));
const ForumCategory = Nullable(
  Reference("The category it is listed under (must exist); null for none. Only top-level forums have one: a subforum is listed in its parent's"),
);

export const ForumBodies = {
  create: Type.Object({
    name: ForumName,
    description: Type.Optional(ForumDescription),
    display_order: Type.Optional(DisplayOrder),
    parent_id: Type.Optional(ParentForum),
    category_id: Type.Optional(ForumCategory),
  }),
  update: Type.Object({
    name: Type.Optional(ForumName),
    description: Type.Optional(ForumDescription),
    display_order: Type.Optional(DisplayOrder),
    parent_id: Type.Optional(ParentForum),
    category_id: Type.Optional(ForumCategory),
  }),
  topic: Type.Object({
    forum_id: Reference('Forum to post in (must exist)'),
    title: TopicTitle,
    body: PostBody,
    poll: Type.Optional({ ...PollBody, description: "A poll opened with the topic (the forum's poll_create right; docs/polls.md)" }),
    release: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }), Type.String({ maxLength: RELEASE_VALUE_MAX }), {
        maxProperties: RELEASE_FIELDS_MAX,
        description: "The forum's release template's fields by key (docs/release-templates.md): the title and opening post are laid out from them",
      }),
    ),
  }),
  rename: Type.Object({ title: TopicTitle }),
  post: Type.Object({ body: PostBody }),
  move: Type.Object({ forum_id: Reference('The forum to move the topic to (must exist)') }),
  split: Type.Object({
    post_ids: Type.Array(Reference('A reply of this topic (not its opening post)'), {
      minItems: 1,
      maxItems: SPLIT_POSTS_MAX,
      uniqueItems: true,
      description: `The replies to move (1 to ${SPLIT_POSTS_MAX}), none older than an existing target's opening post`,
    }),
    topic_id: Type.Optional(Reference('An existing topic to move them into; or give title and forum_id for a new one')),
    title: Type.Optional({ ...TopicTitle, description: 'The new topic’s title (with forum_id)' }),
    forum_id: Type.Optional(Reference('The new topic’s forum (with title)')),
  }),
  merge: Type.Object({ topic_id: Reference('The topic to move every post into (must exist; the older of the two)') }),
  moderatorComment: Type.Object({
    kind: OneOf(MODERATOR_COMMENT_KINDS, 'comment, information, warning or violation (TorrentPier’s four kinds)'),
    text: VisibleText(MODERATOR_COMMENT_MAX, 'The note, in BBCode'),
  }),
  moderators: Type.Object({
    user_ids: Type.Array(Reference('A member who moderates this forum (must exist)'), {
      maxItems: MODERATORS_MAX,
      uniqueItems: true,
      description: `The forum's moderators, replacing the ones it had (an empty list: none); at most ${MODERATORS_MAX}, each once`,
    }),
  }),
};

const PageQuery = Type.Object(PageQueryProperties);
export const ModerationLogQuery = Type.Object({
  action: Type.Optional(
    Type.Union(
      MODERATION_ACTIONS.map((action) => Type.Literal(action)),
      { description: 'Only this kind of action' },
    ),
  ),
  moderator: Type.Optional(Type.String({ maxLength: USERNAME_MAX, visible: true, description: 'Only actions of this member (user name)' })),
  topic_id: Type.Optional(Reference('Only actions on this topic')),
  ...PageQueryProperties,
});
const MarkReadQuery = Type.Object({ post_id: Type.Optional(Reference('Read up to this post of the topic (must be one you can see)')) });
const security = [{ bearer: [] }];

export const forumRoutes: FastifyPluginAsyncTypebox<{ forum: ForumService; presenter: ForumPresenter; baseUrl: string | null }> = async (
  app,
  { forum, presenter, baseUrl },
) => {
  // Forums

  app.get(
    '/forums',
    {
      schema: {
        tags: ['forums'],
        summary: 'Forums, by display order (for members with how many topics have unread posts)',
        querystring: PageQuery,
        response: { 200: PaginatedOf(ForumListItem), ...errorResponses(422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const permissions = await forum.access.of(request.user);
      const [{ rows, total }, unread] = await Promise.all([forum.forums.list(page, permissions), forum.unread.forumsWithUnread(request.user)]);
      const signedIn = request.user !== null;
      return paginated(
        request,
        baseUrl,
        page,
        rows.map((row) => forumListItem(row, permissions, signedIn, unread.get(row.id))),
        total,
      );
    },
  );

  app.get(
    '/forums/:id',
    {
      schema: { tags: ['forums'], summary: 'One forum', params: IdParams, response: { 200: DataOf(ForumResource), ...errorResponses(404) } },
    },
    async (request) => {
      const permissions = await forum.access.of(request.user);
      return { data: forumResource(await forum.forums.visibleTo(request.params.id, permissions), permissions) };
    },
  );

  app.post(
    '/forums',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['forums'],
        summary: 'Create a forum',
        security,
        body: ForumBodies.create,
        response: { 201: DataOf(ForumResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const created = await forum.createForum(request.body);
      return reply.code(201).send({ data: forumResource(created, await forum.access.of(request.user)) });
    },
  );

  app.patch(
    '/forums/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['forums'],
        summary: 'Rename, describe or reorder a forum',
        security,
        params: IdParams,
        body: ForumBodies.update,
        response: { 200: DataOf(ForumResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const updated = await forum.updateForum(request.params.id, request.body);
      return { data: forumResource(updated, await forum.access.of(request.user)) };
    },
  );

  app.delete(
    '/forums/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['forums'],
        summary: 'Delete an empty forum (409 while it has topics)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await forum.deleteForum(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/forums/:id/moderators',
    {
      schema: {
        tags: ['forums'],
        summary: "A forum's moderators, by name (staff moderate every forum and are not listed)",
        params: IdParams,
        response: { 200: DataOf(Type.Array(ModeratorResource)), ...errorResponses(404) },
      },
    },
    async (request) => {
      // A forum the caller may not view has no moderators to show: it does not exist for them.
      await forum.forums.visibleTo(request.params.id, await forum.access.of(request.user));
      return { data: (await forum.moderators.of(request.params.id)).map(moderatorResource) };
    },
  );

  app.put(
    '/forums/:id/moderators',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['forums'],
        summary: "Set a forum's moderators: the list replaces the one it had, at once",
        security,
        params: IdParams,
        body: ForumBodies.moderators,
        response: { 200: DataOf(Type.Array(ModeratorResource)), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: (await forum.moderators.replace(request.params.id, request.body.user_ids)).map(moderatorResource) }),
  );

  app.get(
    '/forums/:id/topics',
    {
      schema: {
        tags: ['topics'],
        summary: 'Topics of a forum, latest activity first (for members with their unread state); 403 where reading the forum needs a right you lack',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: PaginatedOf(TopicListItem), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await forum.listTopics(request.params.id, request.user, page);
      const [topics, unread] = await Promise.all([
        presenter.topics(rows),
        forum.unread.ofTopics(
          request.user,
          rows.map((row) => row.id),
        ),
      ]);
      const signedIn = request.user !== null;
      return paginated(
        request,
        baseUrl,
        page,
        topics.map((topic) => topicListItem(topic, signedIn, unread.get(topic.id))),
        total,
      );
    },
  );

  // Read marks (docs/unread.md)

  app.post(
    '/forums/read',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['unread'],
        summary: 'Mark every forum read',
        security,
        response: { 204: Type.Null(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await forum.unread.markAllRead(assertUser(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/forums/:id/read',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['unread'],
        summary: 'Mark every topic of a forum read',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await forum.unread.markForumRead(assertUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/topics/:id/read',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['unread'],
        summary: 'Mark a topic read up to post_id (default: its last post); a read mark is never lowered',
        security,
        params: IdParams,
        querystring: MarkReadQuery,
        response: { 204: Type.Null(), ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      await forum.unread.markTopicRead(assertUser(request), request.params.id, request.query.post_id);
      return reply.code(204).send(null);
    },
  );

  // Topics

  app.post(
    '/topics',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['topics'],
        summary: 'Start a topic; the body is its first post (429 within FLOOD_INTERVAL_SECONDS of your last post)',
        security,
        body: ForumBodies.topic,
        response: { 201: DataOf(TopicResource), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const topic = await forum.createTopic(assertUser(request), request.body);
      return reply.code(201).send({ data: await presenter.topic(topic) });
    },
  );

  app.get(
    '/topics/:id',
    {
      schema: { tags: ['topics'], summary: 'One topic', params: IdParams, response: { 200: DataOf(TopicResource), ...errorResponses(403, 404) } },
    },
    async (request) => ({ data: await presenter.topic(await forum.getTopic(request.params.id, request.user)) }),
  );

  app.patch(
    '/topics/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['topics'],
        summary: 'Rename a topic (author or moderator)',
        security,
        params: IdParams,
        body: ForumBodies.rename,
        response: { 200: DataOf(TopicResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await presenter.topic(await forum.renameTopic(request.params.id, assertUser(request), request.body.title)) }),
  );

  app.delete(
    '/topics/:id',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['topics'],
        summary: 'Delete a topic with its posts',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await forum.deleteTopic(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );

  // Moderators' tools (docs/moderation.md)

  // `guard`: who is let through before the topic is looked up; the service checks the topic's forum.
  const topicSwitch = (
    path: string,
    summary: string,
    change: (id: number, moderator: AuthUser) => Promise<TopicWithAuthor>,
    guard: ReturnType<typeof requireUser> = requireRole(MODERATORS),
  ) =>
    app.post(
      `/topics/:id/${path}`,
      {
        preValidation: guard,
        schema: { tags: ['moderation'], summary, security, params: IdParams, response: { 200: DataOf(TopicResource), ...errorResponses(401, 403, 404) } },
      },
      async (request) => ({ data: await presenter.topic(await change(request.params.id, assertUser(request))) }),
    );
  topicSwitch('lock', 'Lock a topic: only moderators reply', (id, moderator) => forum.topicModeration.lock(id, moderator, true));
  topicSwitch('unlock', 'Unlock a topic', (id, moderator) => forum.topicModeration.lock(id, moderator, false));
  // Pinning is the forum's `pin` right: its moderators by the default level, and members it is granted to.
  topicSwitch('pin', "Pin a topic: listed first in its forum (the forum's pin right)", (id, user) => forum.topicModeration.pin(id, user, true), requireUser());
  topicSwitch('unpin', "Unpin a topic (the forum's pin right)", (id, user) => forum.topicModeration.pin(id, user, false), requireUser());
  // Announcing likewise is the forum's `announce` right.
  topicSwitch(
    'announce',
    "Announce a topic: listed above the pinned ones (the forum's announce right)",
    (id, user) => forum.topicModeration.announce(id, user, true),
    requireUser(),
  );
  topicSwitch('unannounce', "Unannounce a topic (the forum's announce right)", (id, user) => forum.topicModeration.announce(id, user, false), requireUser());

  topicSwitch('hide', 'Hide a topic: only moderators see it, counted nowhere', (id, moderator) => forum.hiding.topic(id, moderator, true));
  topicSwitch('restore', 'Show a hidden topic again', (id, moderator) => forum.hiding.topic(id, moderator, false));

  const postSwitch = (path: string, summary: string, hide: boolean) =>
    app.post(
      `/posts/:id/${path}`,
      {
        preValidation: requireRole(MODERATORS),
        schema: { tags: ['moderation'], summary, security, params: IdParams, response: { 200: DataOf(PostResource), ...errorResponses(401, 403, 404, 422) } },
      },
      async (request) => {
        const moderator = assertUser(request);
        const post = await forum.hiding.post(request.params.id, moderator, hide);
        return { data: await presenter.post(post, await forum.getTopic(post.topic_id, moderator)) };
      },
    );
  postSwitch('hide', 'Hide a post: only moderators see it, counted nowhere', true);
  postSwitch('restore', 'Show a hidden post again', false);

  app.post(
    '/topics/:id/move',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['moderation'],
        summary: 'Move a topic to another forum (its address stays the same)',
        security,
        params: IdParams,
        body: ForumBodies.move,
        response: { 200: DataOf(TopicResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await presenter.topic(await forum.topicModeration.move(request.params.id, assertUser(request), request.body.forum_id)) }),
  );

  app.post(
    '/topics/:id/split',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['moderation'],
        summary: 'Move chosen replies into a new topic (title and forum_id) or an existing one (topic_id); logged',
        security,
        params: IdParams,
        body: ForumBodies.split,
        response: { 200: DataOf(TopicResource), 201: DataOf(TopicResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { post_ids: postIds, topic_id: topicId, title, forum_id: forumId } = request.body;
      const to = splitDestination(topicId, title, forumId);
      const { topic, created } = await forum.splitMerge.split(request.params.id, assertUser(request), postIds, to);
      return reply.code(created ? 201 : 200).send({ data: await presenter.topic(topic) });
    },
  );

  app.post(
    '/topics/:id/merge',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['moderation'],
        summary: 'Move every post into another topic; this topic goes and its address leads there (logged)',
        security,
        params: IdParams,
        body: ForumBodies.merge,
        response: { 200: DataOf(TopicResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await presenter.topic(await forum.splitMerge.merge(request.params.id, assertUser(request), request.body.topic_id)) }),
  );

  app.get(
    '/moderation-log',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['moderation'],
        summary: "Moderators' actions, newest first (a forum moderator: those about the forums they moderate)",
        security,
        querystring: ModerationLogQuery,
        response: { 200: CollectionOf(LogEntryResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { action, moderator, topic_id } = request.query;
      const user = assertUser(request);
      const permissions = await forum.access.of(user);
      const { rows, total } = await forum.moderationLog.list(
        { action: action ?? null, actorName: moderator ?? null, topicId: topic_id ?? null },
        page,
        moderatedScope(user, permissions),
        permissions.viewScope(),
      );
      return collection(page, rows.map(logEntryResource), total);
    },
  );

  // Posts

  app.get(
    '/topics/:id/posts',
    {
      schema: {
        tags: ['posts'],
        summary: 'Posts of a topic, oldest first',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: PaginatedOf(PostResource), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const topic = await forum.getTopic(request.params.id, request.user);
      const { rows, total } = await forum.listPosts(topic.id, request.user, page);
      return paginated(request, baseUrl, page, await presenter.posts(rows, topic), total);
    },
  );

  app.post(
    '/topics/:id/posts',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['posts'],
        summary: 'Reply to a topic (429 within FLOOD_INTERVAL_SECONDS of your last post)',
        security,
        params: IdParams,
        body: ForumBodies.post,
        response: { 201: DataOf(PostResource), ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const user = assertUser(request);
      const post = await forum.reply(request.params.id, user, request.body.body);
      const topic = await forum.getTopic(post.topic_id, user);
      return reply.code(201).send({ data: await presenter.post(post, topic) });
    },
  );

  app.get(
    '/posts/:id',
    {
      schema: { tags: ['posts'], summary: 'One post', params: IdParams, response: { 200: DataOf(PostResource), ...errorResponses(403, 404) } },
    },
    async (request) => {
      const post = await forum.getPost(request.params.id, request.user);
      return { data: await presenter.post(post, await forum.getTopic(post.topic_id, request.user)) };
    },
  );

  app.get(
    '/posts/:id/revisions',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['moderation'],
        summary: "The texts a post's edits replaced, newest first",
        security,
        params: IdParams,
        response: { 200: DataOf(Type.Array(RevisionResource)), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: (await forum.posts.revisions(request.params.id, assertUser(request))).map(revisionResource) }),
  );

  app.patch(
    '/posts/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['posts'],
        summary: 'Edit a post (author or moderator)',
        security,
        params: IdParams,
        body: ForumBodies.post,
        response: { 200: DataOf(PostResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      const post = await forum.editPost(request.params.id, user, request.body.body);
      return { data: await presenter.post(post, await forum.getTopic(post.topic_id, user)) };
    },
  );

  app.delete(
    '/posts/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['posts'],
        summary: 'Delete a reply (author or moderator)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await forum.deletePost(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/posts/:id/moderator-comment',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['posts'],
        summary: "Write (or replace) a moderator's comment under a post of a forum you moderate (logged)",
        security,
        params: IdParams,
        body: ForumBodies.moderatorComment,
        response: { 200: DataOf(PostResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      const post = await forum.moderatorComments.set(request.params.id, user, request.body.kind, request.body.text);
      return { data: await presenter.post(post, await forum.getTopic(post.topic_id, user)) };
    },
  );

  app.delete(
    '/posts/:id/moderator-comment',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['posts'],
        summary: "Remove a post's moderator comment (logged)",
        security,
        params: IdParams,
        response: { 200: DataOf(PostResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      const post = await forum.moderatorComments.remove(request.params.id, user);
      return { data: await presenter.post(post, await forum.getTopic(post.topic_id, user)) };
    },
  );

  app.post(
    '/posts/:id/approve',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['posts'],
        summary: 'Publish a post held for moderation',
        security,
        params: IdParams,
        response: { 200: DataOf(PostResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      const post = await forum.approvePost(request.params.id, user);
      return { data: await presenter.post(post, await forum.getTopic(post.topic_id, user)) };
    },
  );

  app.post(
    '/posts/:id/reject',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: ['posts'],
        summary: 'Reject a held post: it is deleted and its author told by mail',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await forum.rejectPost(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );
};
