// /api/notifications (docs/notifications.md): the signed-in member's
// notifications, newest first; the unread count (what the header shows, and
// its script asks for); marking some or all read; and which kinds the member
// gets on the site and by mail.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { assertUser, requireUser } from '../auth/guard.ts';
import { isoSeconds, SecondsTimestamp } from '../http/timestamps.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, Nullable, OneOf, Reference, errorResponses } from '../http/schemas.ts';
import { NOTIFICATION_KINDS, type Delivery, type NotificationStore } from '../notifications/store.ts';
import type { NotificationKind } from '../db/schema.ts';
import type { Clock } from '../clock.ts';
import { isoNow } from '../clock.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ForumPresenter } from './presenter.ts';
import { shownNotifications, type ShownNotification } from './notification-view.ts';

/** Ids one request marks read at most: a page of the centre, several times over. */
export const MARK_READ_MAX = 200;

const NotificationResource = Type.Object({
  id: Type.Integer(),
  kind: OneOf(NOTIFICATION_KINDS, 'reply, quote, mention, message, moderation, thanks, reseed or report'),
  read: Type.Boolean(),
  created_at: SecondsTimestamp,
  actor: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'Who did it; null when their account is gone' })),
  topic: Nullable(Type.Object({ id: Type.Integer(), title: Type.String() }, { description: 'Null when gone, or in a forum the member may no longer read' })),
  post_id: Nullable(Type.Integer()),
  message: Nullable(Type.Object({ id: Type.Integer(), subject: Type.String() })),
  action: Nullable(Type.String({ description: 'For moderation: approve, reject, hide_post, restore_post or comment_post' })),
  url: Nullable(Type.String({ description: 'Where it leads on the site; null when what it was about is gone' })),
});

const DeliveryResource = Type.Object({ site: Type.Boolean({ description: 'In the notification centre' }), email: Type.Boolean({ description: 'By e-mail' }) });
const SettingsResource = Type.Object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, DeliveryResource])) as Record<NotificationKind, typeof DeliveryResource>,
  {
    description:
      'For each kind: reply (in a watched topic), quote, mention, message (private), moderation (of one’s posts), thanks (for one’s releases), reseed (calls to seed again), report (answers to one’s reports)',
  },
);
const Unread = Type.Object({ unread: Type.Integer({ description: 'Notifications not read yet' }) });

const ListQuery = Type.Object({ ...PageQueryProperties, unread: Type.Optional(Type.Boolean({ description: 'Only those not read yet' })) });
const ReadBody = Type.Object({
  ids: Type.Array(Reference('A notification of yours (others’ are ignored)'), { minItems: 1, maxItems: MARK_READ_MAX, uniqueItems: true }),
});

export function notificationResource(shown: ShownNotification): Static<typeof NotificationResource> {
  const { row } = shown;
  return {
    id: row.id,
    kind: row.kind,
    read: row.read_at !== null,
    created_at: isoSeconds(row.created_at),
    actor: row.actor_id === null || row.actor_name === null ? null : { id: row.actor_id, name: row.actor_name },
    topic: shown.topicTitle === null ? null : { id: row.topic_id!, title: shown.topicTitle },
    post_id: shown.topicTitle === null ? null : row.post_id,
    message: shown.messageSubject === null ? null : { id: row.message_id!, subject: shown.messageSubject },
    action: row.action,
    url: shown.path,
  };
}

const TAGS = ['notifications'];
const security = [{ bearer: [] }];

export const notificationRoutes: FastifyPluginAsyncTypebox<{
  notifications: NotificationStore;
  access: ForumAccess;
  presenter: ForumPresenter;
  clock: Clock;
  baseUrl: string | null;
}> = async (app, { notifications, access, presenter, clock, baseUrl }) => {
  app.get(
    '/notifications',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Your notifications, newest first',
        security,
        querystring: ListQuery,
        response: { 200: PaginatedOf(NotificationResource), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      const page = pageRequest(request.query);
      const { rows, total } = await notifications.list(user.id, { offset: page.offset, limit: page.perPage, unreadOnly: request.query.unread === true });
      const shown = await shownNotifications(rows, user, { access, presenter });
      return paginated(request, baseUrl, page, shown.map(notificationResource), total);
    },
  );

  app.get(
    '/notifications/unread-count',
    {
      preValidation: requireUser(),
      schema: { tags: TAGS, summary: 'How many of your notifications are unread', security, response: { 200: DataOf(Unread), ...errorResponses(401) } },
    },
    async (request) => ({ data: { unread: await notifications.unreadCount(assertUser(request).id) } }),
  );

  app.post(
    '/notifications/read',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Mark some of your notifications read',
        security,
        body: ReadBody,
        response: { 200: DataOf(Unread), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      await notifications.markRead(user.id, request.body.ids, isoNow(clock));
      return { data: { unread: await notifications.unreadCount(user.id) } };
    },
  );

  app.post(
    '/notifications/read-all',
    {
      preValidation: requireUser(),
      schema: { tags: TAGS, summary: 'Mark all your notifications read', security, response: { 200: DataOf(Unread), ...errorResponses(401) } },
    },
    async (request) => {
      await notifications.markAllRead(assertUser(request).id, isoNow(clock));
      return { data: { unread: 0 } };
    },
  );

  app.get(
    '/notifications/settings',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Which notifications you get on the site and by mail',
        security,
        response: { 200: DataOf(SettingsResource), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await notifications.settingsOf(assertUser(request).id) }),
  );

  app.put(
    '/notifications/settings',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Choose which notifications you get on the site and by mail (every kind)',
        security,
        body: SettingsResource,
        response: { 200: DataOf(SettingsResource), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      await notifications.setSettings(user.id, request.body as Record<NotificationKind, Delivery>);
      return { data: await notifications.settingsOf(user.id) };
    },
  );
};
