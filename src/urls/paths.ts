// Paths of the web pages (service-spec "Semantic URL pages"). Every link the
// app prints is built here, so a page's address is defined once.
import { ID_RANGE, integerFromText, isStorableId } from '../http/integers.ts';
import { slugify } from './slug.ts';

/** Ids are 32-bit (decisions.md, http/integers.ts); an id outside 1..MAX_ID selects nothing. */
export const MAX_ID = ID_RANGE.maximum;

/** The reserved query key whose value becomes the `#fragment`. */
export const FRAGMENT_KEY = '_fragment';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * Query parameters in the order given. undefined and null values are left out;
 * an array repeats its key (`tag=a&tag=b`). Keys that look like array indexes
 * ("1", "2") come first in a plain object, as JavaScript orders them: pass a
 * URLSearchParams when such keys must keep another order.
 */
export type Query = URLSearchParams | Readonly<Record<string, QueryValue>>;

export interface Topic {
  id: number;
  title: string;
}

export interface Forum {
  id: number;
  name: string;
}

export interface User {
  id: number;
  name: string;
}

function pairs(query: Query): [string, string][] {
  if (query instanceof URLSearchParams) return [...query];
  const result: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) result.push([key, String(item)]);
  }
  return result;
}

/** `path?k=v#fragment`: keys and values percent-encoded, `_fragment` moved behind the query. */
export function withQuery(path: string, query?: Query): string {
  if (query === undefined) return path;
  let search = '';
  let fragment = '';
  for (const [key, value] of pairs(query)) {
    if (key === FRAGMENT_KEY) {
      fragment = value;
      continue;
    }
    search += `${search === '' ? '?' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return path + search + (fragment === '' ? '' : `#${encodeURIComponent(fragment)}`);
}

/** Whether a number can be a row id; links to anything else are a bug, so builders throw. */
export function isValidId(id: number): boolean {
  return isStorableId(id);
}

function semanticSegment(name: string, id: number): string {
  if (!isValidId(id)) throw new RangeError(`Not a valid id for a URL: ${id}`);
  return `${slugify(name)}.${id}`;
}

/** `/topic/{slug}.{id}/` */
export function topicPath(topic: Topic, query?: Query): string {
  return withQuery(`/topic/${semanticSegment(topic.title, topic.id)}/`, query);
}

/** `/forum/{slug}.{id}/` */
export function forumPath(forum: Forum, query?: Query): string {
  return withQuery(`/forum/${semanticSegment(forum.name, forum.id)}/`, query);
}

/** `/profile/{slug}.{id}/` */
export function profilePath(user: User, query?: Query): string {
  return withQuery(`/profile/${semanticSegment(user.name, user.id)}/`, query);
}

export interface Group {
  id: number;
  name: string;
}

/** `/group/{slug}.{id}/`: a group of members (docs/access.md, "Groups"). */
export function groupPath(group: Group, query?: Query): string {
  return withQuery(`/group/${semanticSegment(group.name, group.id)}/`, query);
}

/** `/groups/`: the groups a reader may see, to join and leave. */
export function groupsPath(query?: Query): string {
  return withQuery('/groups/', query);
}

/** `/profile/{slug}.{id}/email/`: send an e-mail to the user. */
export function profileEmailPath(user: User, query?: Query): string {
  return withQuery(`/profile/${semanticSegment(user.name, user.id)}/email/`, query);
}

/** The formats every feed comes in (docs/feeds.md). */
export type FeedFormat = 'atom' | 'rss';

/** `/feed.atom`, `/feed.rss`: the newest topics of every forum. */
export function siteFeedPath(format: FeedFormat): string {
  return `/feed.${format}`;
}

/** `/forum/{slug}.{id}/feed.atom`: the newest topics of a forum. */
export function forumFeedPath(forum: Forum, format: FeedFormat): string {
  return `/forum/${semanticSegment(forum.name, forum.id)}/feed.${format}`;
}

/** `/topic/{slug}.{id}/feed.atom`: the newest posts of a topic. */
export function topicFeedPath(topic: Topic, format: FeedFormat): string {
  return `/topic/${semanticSegment(topic.title, topic.id)}/feed.${format}`;
}

/** `/topic/{slug}.{id}/unread/`: sends a member to the first post they have not read. */
export function topicUnreadPath(topic: Topic): string {
  return `/topic/${semanticSegment(topic.title, topic.id)}/unread/`;
}

/** `/topic/{slug}.{id}/split/`: a moderator's choice of replies to move (docs/moderation.md). */
export function topicSplitPath(topic: Topic, query?: Query): string {
  return withQuery(`/topic/${semanticSegment(topic.title, topic.id)}/split/`, query);
}

/** `/topic/{slug}.{id}/merge/`: a moderator's choice of topic to merge this one into. */
export function topicMergePath(topic: Topic): string {
  return `/topic/${semanticSegment(topic.title, topic.id)}/merge/`;
}

/**
 * The topic a moderator names by its id or by any of its addresses as they
 * copy it (`123`, `/topic/a-title.123/`, `https://site/topic/a-title.123/#post-5`,
 * `viewtopic.php?t=123`); null when the text names none.
 */
export function topicIdIn(text: string): number | null {
  const typed = text.trim();
  if (typed.length > 2000) return null;
  if (/^\d+$/.test(typed)) return parseId(typed);
  let url: URL;
  try {
    url = new URL(typed, 'http://topic.invalid/');
  } catch {
    return null;
  }
  const semantic = /^\/topic\/([^/]+)(?:\/|$)/.exec(url.pathname);
  if (semantic !== null) return parseSemanticSegment(semantic[1]!)?.id ?? null;
  if (/^\/viewtopic(?:\.php)?$/.test(url.pathname)) return parseId(url.searchParams.getAll('t').at(-1) ?? '');
  return null;
}

/** `/notifications/`: a member's notification centre (docs/notifications.md). */
export function notificationsPath(query?: Query): string {
  return withQuery('/notifications/', query);
}

/** `/notifications/settings/`: which notifications a member gets, and how. */
export function notificationSettingsPath(): string {
  return '/notifications/settings/';
}

export function bonusPath(query?: Query): string {
  return withQuery('/profile/bonus/', query);
}

export function watchlistPath(query?: Query): string {
  return withQuery('/profile/watchlist/', query);
}

/** `/members/`: the member list. */
export function membersPath(query?: Query): string {
  return withQuery('/members/', query);
}

/** `/messages/`: the member's private messages, Inbox. */
export function inboxPath(query?: Query): string {
  return withQuery('/messages/', query);
}

/** `/messages/sent/`: the messages the member sent. */
export function sentMessagesPath(query?: Query): string {
  return withQuery('/messages/sent/', query);
}

/** `/messages/new/`: write a message (`?to=` names the recipient). */
export function newMessagePath(query?: Query): string {
  return withQuery('/messages/new/', query);
}

/** `/messages/{id}/`: one message, with the reply form. Private: no slug, the subject stays out of addresses and logs. */
export function messagePath(id: number, query?: Query): string {
  if (!isValidId(id)) throw new RangeError(`Not a valid id for a URL: ${id}`);
  return withQuery(`/messages/${id}/`, query);
}

export function registerPath(query?: Query): string {
  return withQuery('/register/', query);
}

export function settingsPath(query?: Query): string {
  return withQuery('/settings/', query);
}

export function passwordRecoveryPath(query?: Query): string {
  return withQuery('/password-recovery/', query);
}

/** `/activate/{user_id}/{key}/`, the key percent-encoded as one path segment. */
export function activationPath(userId: number, key: string, query?: Query): string {
  if (!isValidId(userId)) throw new RangeError(`Not a valid id for a URL: ${userId}`);
  if (key === '') throw new RangeError('An activation link needs a key');
  return withQuery(`/activate/${userId}/${encodeURIComponent(key)}/`, query);
}

/** `/password-recovery/{key}/`: the link of a password-reset mail. */
export function passwordResetPath(key: string, query?: Query): string {
  if (key === '') throw new RangeError('A password-reset link needs a key');
  return withQuery(`/password-recovery/${encodeURIComponent(key)}/`, query);
}

/** `/settings/email/{key}/`: the link that confirms a new e-mail address. */
export function emailConfirmationPath(key: string, query?: Query): string {
  if (key === '') throw new RangeError('An e-mail confirmation link needs a key');
  return withQuery(`/settings/email/${encodeURIComponent(key)}/`, query);
}

/** `/unsubscribe/{key}/`: the link in a mass mail that stops mass mail to its member, without logging in (docs/mass-mail.md). */
export function massMailUnsubscribePath(key: string): string {
  if (key === '') throw new RangeError('An unsubscribe link needs a key');
  return `/unsubscribe/${encodeURIComponent(key)}/`;
}

/** `/admin/mass-send/`, and one send's page there (docs/mass-mail.md). */
export function massSendAdminPath(id?: number): string {
  if (id === undefined) return '/admin/mass-send/';
  if (!isValidId(id)) throw new RangeError(`Not a valid id for a URL: ${id}`);
  return `/admin/mass-send/${id}/`;
}

/** A static page's slug: lowercase letters and digits in words joined by single hyphens (docs/static-pages.md). */
export const PAGE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const PAGE_SLUG_MAX = 64;

export function isPageSlug(value: string): boolean {
  return value.length <= PAGE_SLUG_MAX && PAGE_SLUG.test(value);
}

/** `/pages/{slug}/`: a static page (rules, FAQ, about). */
export function sitePagePath(slug: string, query?: Query): string {
  if (!isPageSlug(slug)) throw new RangeError(`Not a page slug: ${slug}`);
  return withQuery(`/pages/${slug}/`, query);
}

export function loginPath(query?: Query): string {
  return withQuery('/login/', query);
}

export function logoutPath(query?: Query): string {
  return withQuery('/logout/', query);
}

/** An absolute URL from an origin (BASE_URL, possibly with a path prefix) and a path. */
export function absoluteUrl(origin: string, path: string): string {
  const base = origin.replace(/\/+$/, '');
  return base + (path.startsWith('/') ? path : `/${path}`);
}

/** A canonical decimal id (no sign, no leading zero, no spaces) in 1..MAX_ID, else null. */
export function parseId(text: string): number | null {
  return integerFromText(text, ID_RANGE);
}

/**
 * The `{slug}.{id}` path segment. The id is what follows the last dot (a slug
 * never holds a dot, but a hand-typed URL may: `v1.2.15` is slug `v1.2`, id 15).
 */
export function parseSemanticSegment(segment: string): { slug: string; id: number } | null {
  const dot = segment.lastIndexOf('.');
  if (dot < 0) return null;
  const id = parseId(segment.slice(dot + 1));
  return id === null ? null : { slug: segment.slice(0, dot), id };
}
