// /api/ranks and a member's special rank (docs/members.md, "Ranks"): anyone
// reads the ranks; admins make, change and delete them and give members the
// special ones.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ADMINS, requireRole } from '../auth/guard.ts';
import { DataOf, IdParams, Nullable, Reference, VisibleText, errorResponses } from '../http/schemas.ts';
import { RANK_IMAGE_URL_MAX, RANK_TITLE_MAX, type Rank, type Ranks } from './ranks.ts';

export const RankResource = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  min_posts: Nullable(Type.Integer({ description: 'Earned at this many posts; null: a special rank, given by admins' })),
  image_url: Nullable(Type.String({ description: 'Shown beside the title; null: none' })),
});

export const RankBody = Type.Object({
  title: VisibleText(RANK_TITLE_MAX, 'The title shown beside posts'),
  min_posts: Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Earned at this many posts (each threshold once); null: special' })),
  image_url: Type.Optional(
    Nullable(Type.String({ maxLength: RANK_IMAGE_URL_MAX, description: 'An http(s) address or a path on this site; empty or null: none' })),
  ),
});

const MemberRankBody = Type.Object({ rank_id: Nullable(Reference('A special rank (must exist); null: the rank earned by post count')) });

export function rankResource(rank: Rank): Static<typeof RankResource> {
  return { id: rank.id, title: rank.title, min_posts: rank.minPosts, image_url: rank.imageUrl };
}

const security = [{ bearer: [] }];

export const rankRoutes: FastifyPluginAsyncTypebox<{ ranks: Ranks }> = async (app, { ranks }) => {
  app.get(
    '/ranks',
    {
      schema: {
        tags: ['ranks'],
        summary: 'Every rank: those earned by post count by threshold, then the special ones',
        response: { 200: DataOf(Type.Array(RankResource)) },
      },
    },
    async () => ({ data: (await ranks.all()).map(rankResource) }),
  );

  app.post(
    '/ranks',
    {
      preValidation: requireRole(ADMINS),
      schema: { tags: ['ranks'], summary: 'Make a rank', security, body: RankBody, response: { 201: DataOf(RankResource), ...errorResponses(401, 403, 422) } },
    },
    async (request, reply) => reply.code(201).send({ data: rankResource(await ranks.create({ ...request.body, image_url: request.body.image_url ?? null })) }),
  );

  app.put(
    '/ranks/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['ranks'],
        summary: 'Change a rank',
        security,
        params: IdParams,
        body: RankBody,
        response: { 200: DataOf(RankResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: rankResource(await ranks.update(request.params.id, { ...request.body, image_url: request.body.image_url ?? null })) }),
  );

  app.delete(
    '/ranks/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['ranks'],
        summary: 'Delete a rank (its holders show their earned rank again)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await ranks.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/users/:id/rank',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['ranks'],
        summary: 'Give a member a special rank, or take it back (null)',
        security,
        params: IdParams,
        body: MemberRankBody,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await ranks.give(request.params.id, request.body.rank_id);
      return reply.code(204).send(null);
    },
  );
};
