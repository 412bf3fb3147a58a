// JSON API for topics' polls (docs/polls.md). The poll is read and changed
// through its topic, under the forum's rule (404 where the topic does not
// exist for the caller); the service checks the `vote` and `poll_create`
// rights, the topic's lock and who manages the poll.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireUser } from '../../auth/guard.ts';
import { DataOf, IdParams, errorResponses } from '../../http/schemas.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { Polls, PollView } from './polls.ts';
import { PollBody, PollResource, PollStateBody, VoteBody, pollResource, pollTexts } from './resource.ts';

const security = [{ bearer: [] }];

export const pollRoutes: FastifyPluginAsyncTypebox<{ polls: Polls; presenter: ForumPresenter }> = async (app, { polls, presenter }) => {
  const resource = async (view: PollView) => pollResource(view, await pollTexts(view, presenter));

  app.get(
    '/topics/:id/poll',
    {
      schema: {
        tags: ['polls'],
        summary: "A topic's poll, with the caller's vote and what they may do (404 when the topic has none)",
        params: IdParams,
        response: { 200: DataOf(PollResource), ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ data: await resource(await polls.get(request.params.id, request.user)) }),
  );

  app.post(
    '/topics/:id/poll',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['polls'],
        summary: "Start a poll in a topic: its author with the forum's poll_create right, or a moderator (409 when it has one)",
        security,
        params: IdParams,
        body: PollBody,
        response: { 201: DataOf(PollResource), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await resource(await polls.add(request.params.id, assertUser(request), request.body)) }),
  );

  app.patch(
    '/topics/:id/poll',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['polls'],
        summary: "Close a poll or reopen it (the topic's author or a moderator)",
        security,
        params: IdParams,
        body: PollStateBody,
        response: { 200: DataOf(PollResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await resource(await polls.setClosed(request.params.id, assertUser(request), request.body.closed)) }),
  );

  app.delete(
    '/topics/:id/poll',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['polls'],
        summary: "Delete a poll with its votes (the topic's author or a moderator)",
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await polls.delete(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/topics/:id/poll/vote',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['polls'],
        summary: "Vote (the forum's vote right, an open poll, an unlocked topic); again to change it where the poll allows (409 otherwise)",
        security,
        params: IdParams,
        body: VoteBody,
        response: { 200: DataOf(PollResource), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => ({ data: await resource(await polls.vote(request.params.id, assertUser(request), request.body.option_ids)) }),
  );

  app.delete(
    '/topics/:id/poll/vote',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['polls'],
        summary: 'Take your vote back, where the poll lets voters change it (409 when you have not voted)',
        security,
        params: IdParams,
        response: { 200: DataOf(PollResource), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => ({ data: await resource(await polls.retract(request.params.id, assertUser(request))) }),
  );
};
