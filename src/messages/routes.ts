// JSON API for private messages (docs/messages.md): members only, each sees
// the messages of their own Inbox and Sent folder and nobody else's (another
// member's message is a 404, as one that does not exist).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireUser } from '../auth/guard.ts';
import type { ForumPresenter } from '../forum/presenter.ts';
import { CollectionOf, PageQueryProperties, collection, pageRequest } from '../http/pagination.ts';
import { DataOf, IdParams, VisibleText, errorResponses } from '../http/schemas.ts';
import { USERNAME_MAX } from '../users/fields.ts';
import { MessageResource, messageResource } from './resource.ts';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX, type PrivateMessages } from './service.ts';

/** A private message's subject and text; a mass send's too (mass-send/routes.ts). */
export const Subject = VisibleText(MESSAGE_SUBJECT_MAX, 'Subject');
export const Body = VisibleText(MESSAGE_BODY_MAX, 'Message text (BBCode)');

export const MessageBodies = {
  send: Type.Object({ to: VisibleText(USERNAME_MAX, 'User name of the recipient (any letter case)'), subject: Subject, body: Body }),
  reply: Type.Object({ subject: Subject, body: Body }),
  settings: Type.Object({ email_notifications: Type.Boolean({ description: 'An e-mail for each new private message' }) }),
};

const FolderQuery = Type.Object({
  folder: Type.Optional(Type.Union([Type.Literal('inbox'), Type.Literal('sent')], { default: 'inbox', description: 'Inbox (received) or Sent' })),
  ...PageQueryProperties,
});

const Settings = Type.Object({
  unread: Type.Integer({ description: 'Messages in the Inbox not opened yet' }),
  email_notifications: Type.Boolean(),
});

const security = [{ bearer: [] }];

export const messageRoutes: FastifyPluginAsyncTypebox<{ messages: PrivateMessages; presenter: ForumPresenter }> = async (app, { messages, presenter }) => {
  app.get(
    '/messages',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'Your Inbox or Sent folder, newest first',
        security,
        querystring: FolderQuery,
        response: { 200: CollectionOf(MessageResource), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await messages.folder(assertUser(request), request.query.folder ?? 'inbox', page);
      return collection(page, await Promise.all(rows.map((row) => messageResource(row, presenter))), total);
    },
  );

  app.post(
    '/messages',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'Send a private message to a member',
        security,
        body: MessageBodies.send,
        response: { 201: DataOf(MessageResource), ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const { to, subject, body } = request.body;
      const sent = await messages.send(assertUser(request), to, { subject, body });
      return reply.code(201).send({ data: await messageResource(sent, presenter) });
    },
  );

  app.get(
    '/messages/settings',
    {
      preValidation: requireUser(),
      schema: { tags: ['messages'], summary: 'Your unread count and mail setting', security, response: { 200: DataOf(Settings), ...errorResponses(401) } },
    },
    async (request) => settingsOf(await messages.preferences(assertUser(request))),
  );

  app.put(
    '/messages/settings',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'Ask for (or stop) an e-mail about each new message',
        security,
        body: MessageBodies.settings,
        response: { 200: DataOf(Settings), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      await messages.setMessageMails(user, request.body.email_notifications);
      return settingsOf(await messages.preferences(user));
    },
  );

  app.post(
    '/messages/read',
    {
      preValidation: requireUser(),
      schema: { tags: ['messages'], summary: 'Mark every message in your Inbox read', security, response: { 204: Type.Null(), ...errorResponses(401) } },
    },
    async (request, reply) => {
      await messages.markAllRead(assertUser(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/messages/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'One of your messages (opening a received one marks it read)',
        security,
        params: IdParams,
        response: { 200: DataOf(MessageResource), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { message } = await messages.open(assertUser(request), request.params.id);
      return { data: await messageResource(message, presenter) };
    },
  );

  app.post(
    '/messages/:id/reply',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'Answer a message: sent to its other side',
        security,
        params: IdParams,
        body: MessageBodies.reply,
        response: { 201: DataOf(MessageResource), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const sent = await messages.reply(assertUser(request), request.params.id, request.body);
      return reply.code(201).send({ data: await messageResource(sent, presenter) });
    },
  );

  app.delete(
    '/messages/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['messages'],
        summary: 'Delete a message from your folder (the other side keeps theirs)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await messages.delete(assertUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

function settingsOf(preferences: { unread_messages: number; message_mails: boolean }) {
  return { data: { unread: preferences.unread_messages, email_notifications: preferences.message_mails } };
}
