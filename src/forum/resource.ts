// The JSON shapes of forums, topics and posts, each built in one function.
// `url` is the semantic path of the page; `title_html`/`body_html` are the
// text as displayed (replacement rules applied, emoji rendered, escaped).
import { Type, type Static } from 'typebox';
import type { ModeratorCommentKind } from '../db/schema.ts';
import { Nullable, OneOf } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { forumPath, profilePath, topicPath } from '../urls/paths.ts';
import type { CategoryRow } from './category-repository.ts';
import { ACCESS_ACTIONS, type ReaderPermissions } from './permissions.ts';
import { MODERATION_ACTIONS, type LogEntry } from './moderation-log.ts';
import type { ForumModerator, ForumRow, PostRevision, PostWithAuthor, TopicUnread, TopicWithAuthor } from './repository.ts';

const Status = Type.Union([Type.Literal('published'), Type.Literal('pending')]);

/** The kinds of a moderator's comment on a post (TorrentPier's mc_type 1-4; moderator-comments.ts). */
export const MODERATOR_COMMENT_KINDS = ['comment', 'information', 'warning', 'violation'] as const satisfies readonly ModeratorCommentKind[];
export const MODERATOR_COMMENT_MAX = 5000;

export const AuthorResource = Type.Object({ id: Type.Integer(), name: Type.String(), url: Type.String() });

export const ForumResource = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  display_order: Type.Integer(),
  parent_id: Nullable(Type.Integer({ description: 'The forum this one is a subforum of' })),
  category_id: Nullable(Type.Integer({ description: "The category it is listed under; null for none, and for a subforum (listed in its parent's category)" })),
  topics_count: Type.Integer({ description: 'Published topics' }),
  posts_count: Type.Integer({ description: 'Published posts' }),
  url: Type.String({ description: 'Semantic page path, e.g. /forum/general.1/' }),
  permissions: Type.Object(
    Object.fromEntries([...ACCESS_ACTIONS, 'moderate'].map((permission) => [permission, Type.Boolean()])) as Record<
      (typeof ACCESS_ACTIONS)[number] | 'moderate',
      ReturnType<typeof Type.Boolean>
    >,
    { description: 'What the caller may do in this forum (docs/access.md); `moderate`: the caller moderates it' },
  ),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

export const TopicResource = Type.Object({
  id: Type.Integer(),
  forum_id: Type.Integer(),
  title: Type.String({ description: 'As written' }),
  title_html: Type.String({ description: 'As displayed' }),
  author: Nullable(AuthorResource),
  status: Status,
  locked: Type.Boolean({ description: 'Only moderators reply' }),
  pinned: Type.Boolean({ description: 'Listed first in its forum, after the announcements' }),
  announced: Type.Boolean({ description: 'An announcement: listed first in its forum, above the pinned topics' }),
  hidden: Type.Boolean({ description: 'Hidden by a moderator: only moderators see it' }),
  posts_count: Type.Integer(),
  views_count: Type.Integer(),
  url: Type.String({ description: 'Semantic page path, e.g. /topic/hello-world.12/' }),
  last_post_at: SecondsTimestamp,
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

export const LogEntryResource = Type.Object({
  id: Type.Integer(),
  action: Type.String({ description: MODERATION_ACTIONS.join(', ') }),
  moderator: Nullable(AuthorResource),
  member: Nullable(AuthorResource),
  forum: Nullable(Type.Object({ id: Type.Integer(), name: Nullable(Type.String({ description: 'Null once the forum is deleted' })) })),
  to_forum: Nullable(Type.Object({ id: Type.Integer(), name: Nullable(Type.String()) })),
  topic_id: Nullable(Type.Integer()),
  post_id: Nullable(Type.Integer()),
  subject: Type.String({ description: "The topic's title or the start of the post, as it read then" }),
  created_at: SecondsTimestamp,
});

export function logEntryResource(entry: LogEntry): Static<typeof LogEntryResource> {
  return {
    id: entry.id,
    action: entry.action,
    moderator: authorResource(entry.actor_id, entry.actor_name),
    member: authorResource(entry.user_id, entry.user_name),
    forum: entry.forum_id === null ? null : { id: entry.forum_id, name: entry.forum_name },
    to_forum: entry.to_forum_id === null ? null : { id: entry.to_forum_id, name: entry.to_forum_name },
    topic_id: entry.topic_id,
    post_id: entry.post_id,
    subject: entry.subject,
    created_at: isoSeconds(entry.created_at),
  };
}

export const ModeratorResource = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
});

export function moderatorResource(moderator: ForumModerator): Static<typeof ModeratorResource> {
  return { id: moderator.id, username: moderator.username };
}

export const RevisionResource = Type.Object({
  id: Type.Integer(),
  body: Type.String({ description: 'The text this edit replaced, as written' }),
  editor: Nullable(AuthorResource),
  replaced_at: SecondsTimestamp,
});

export function revisionResource(revision: PostRevision): Static<typeof RevisionResource> {
  return {
    id: revision.id,
    body: revision.body,
    editor: authorResource(revision.editor_id, revision.editor_name),
    replaced_at: isoSeconds(revision.replaced_at),
  };
}

export const PostResource = Type.Object({
  id: Type.Integer(),
  topic_id: Type.Integer(),
  author: Nullable(AuthorResource),
  body: Type.String({ description: 'As written' }),
  body_html: Type.String({ description: 'As displayed' }),
  status: Status,
  hidden: Type.Boolean({ description: 'Hidden by a moderator: only moderators see it' }),
  edited_at: Nullable(SecondsTimestamp),
  moderator_comment: Nullable(
    Type.Object(
      {
        kind: OneOf(MODERATOR_COMMENT_KINDS, 'What the note is'),
        text: Type.String({ description: 'As written (BBCode)' }),
        text_html: Type.String({ description: 'As displayed' }),
        moderator: Nullable(AuthorResource),
        created_at: SecondsTimestamp,
      },
      { description: "A moderator's note shown under the post (docs/moderation.md); null when it has none" },
    ),
  ),
  url: Type.String({ description: 'The post on its topic page' }),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

/** A topic in a list: for a signed-in member also its unread state (docs/unread.md); null for guests. */
export const TopicListItem = Type.Object({
  ...TopicResource.properties,
  unread: Nullable(Type.Boolean({ description: 'Whether it has posts you have not read; null for guests' })),
  unread_posts: Nullable(Type.Integer({ description: 'How many posts you have not read; null for guests' })),
  first_unread_url: Nullable(Type.String({ description: 'Your first unread post on its topic page; null when none or for guests' })),
});

/** A forum in the list: for a signed-in member also how many of its topics have unread posts; null for guests. */
export const ForumListItem = Type.Object({
  ...ForumResource.properties,
  unread_topics: Nullable(Type.Integer({ description: 'Topics with posts you have not read; null for guests' })),
});

export function topicListItem(topic: Static<typeof TopicResource>, signedIn: boolean, unread: TopicUnread | undefined): Static<typeof TopicListItem> {
  return {
    ...topic,
    unread: signedIn ? unread !== undefined : null,
    unread_posts: signedIn ? (unread?.unread_posts ?? 0) : null,
    first_unread_url: unread === undefined ? null : postPathOn(topic.url, unread.first_unread_id),
  };
}

/** A forum category: the index's heading, with the forums listed under it. */
export const CategoryResource = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  display_order: Type.Integer({ description: 'Position on the index, ascending' }),
  forums: Type.Array(ForumListItem, {
    description:
      'Its top-level forums in display order, each followed by its subforums (nest them by parent_id); forums in no category are only in /api/forums',
  }),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

export function categoryResource(row: CategoryRow, forums: Static<typeof ForumListItem>[]): Static<typeof CategoryResource> {
  return {
    id: row.id,
    title: row.title,
    display_order: row.display_order,
    forums,
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}

export function forumListItem(
  row: ForumRow,
  permissions: ReaderPermissions,
  signedIn: boolean,
  unreadTopics: number | undefined,
): Static<typeof ForumListItem> {
  return { ...forumResource(row, permissions), unread_topics: signedIn ? (unreadTopics ?? 0) : null };
}

/** `permissions`: the caller's, whose answers in this forum the resource carries. */
export function forumResource(row: ForumRow, permissions: ReaderPermissions): Static<typeof ForumResource> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    display_order: row.display_order,
    parent_id: row.parent_id,
    category_id: row.category_id,
    topics_count: row.topics_count,
    posts_count: row.posts_count,
    url: forumPath(row),
    permissions: permissions.flags(row.id),
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}

/** `displayTitle`: the title with replacement rules applied (also the slug's source). */
export function topicResource(row: TopicWithAuthor, displayTitle: string, titleHtml: string): Static<typeof TopicResource> {
  return {
    id: row.id,
    forum_id: row.forum_id,
    title: row.title,
    title_html: titleHtml,
    author: authorResource(row.author_id, row.author_name),
    status: row.status,
    locked: Boolean(row.locked),
    pinned: Boolean(row.pinned),
    announced: Boolean(row.announced),
    hidden: row.hidden_at !== null,
    posts_count: row.posts_count,
    views_count: row.views_count,
    url: topicPath({ id: row.id, title: displayTitle }),
    last_post_at: isoSeconds(row.last_post_at),
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}

export function postResource(
  row: PostWithAuthor,
  bodyHtml: string,
  topic: { id: number; title: string },
  commentHtml: string | null = null,
): Static<typeof PostResource> {
  return {
    id: row.id,
    topic_id: row.topic_id,
    author: authorResource(row.author_id, row.author_name),
    body: row.body,
    body_html: bodyHtml,
    status: row.status,
    hidden: row.hidden_at !== null,
    edited_at: row.edited_at === null ? null : isoSeconds(row.edited_at),
    moderator_comment:
      row.mod_comment === null || row.mod_comment_kind === null || row.mod_comment_at === null
        ? null
        : {
            kind: row.mod_comment_kind,
            text: row.mod_comment,
            text_html: commentHtml ?? '',
            moderator: authorResource(row.mod_comment_by, row.mod_comment_by_name),
            created_at: isoSeconds(row.mod_comment_at),
          },
    url: postPath(topic, row.id),
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}

/** A post's place: its topic page, which shows the page holding `post`. */
export function postPath(topic: { id: number; title: string }, postId: number): string {
  return postPathOn(topicPath(topic), postId);
}

/** postPath() from the topic's path (no query), when a page links many posts of one topic. */
export function postPathOn(topicPagePath: string, postId: number): string {
  return `${topicPagePath}?post=${postId}#post-${postId}`;
}

export function authorResource(id: number | null, name: string | null): Static<typeof AuthorResource> | null {
  return id === null || name === null ? null : { id, name, url: profilePath({ id, name }) };
}
