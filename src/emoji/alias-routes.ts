// /api/emoji/aliases: list, search, get, create, update (PUT and PATCH), delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireRole, ADMINS } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, QueryFlag, SearchQueryProperties, errorResponses, isOn } from '../http/schemas.ts';
import type { AliasService, LoadedAlias } from './alias-service.ts';
import { AliasText, Reference } from './fields.ts';
import { Alias, aliasResource, categoryResource, emojiResource } from './resource.ts';

const TAGS = ['emoji'];
const ADMIN = [{ bearer: [] }];

const WithEmoji = Type.Optional({ ...QueryFlag, description: "Include each alias's emoji, with the emoji's category" });

const AliasListQuery = Type.Object({
  ...PageQueryProperties,
  emoji_id: Type.Optional(Reference('Only aliases of this emoji (must exist)')),
  search: Type.Optional(Type.String({ description: 'Contained in the alias (case-insensitive)' })),
  with_emoji: WithEmoji,
});

const AliasSearchQuery = Type.Object({ ...SearchQueryProperties, with_emoji: WithEmoji });

const AliasFields = {
  emoji_id: Reference('The emoji this alias stands for (must exist); change it to move the alias'),
  alias: AliasText,
};

export const CreateAliasBody = Type.Object(AliasFields);
const UpdateAliasBody = Type.Object({ emoji_id: Type.Optional(AliasFields.emoji_id), alias: Type.Optional(AliasFields.alias) });

/** With its emoji (and the emoji's category) when loaded, else emoji null. */
function shownAlias(alias: LoadedAlias) {
  const emoji = alias.emoji ? emojiResource(alias.emoji.row, { category: alias.emoji.category ? categoryResource(alias.emoji.category) : null }) : null;
  return aliasResource(alias.row, emoji);
}

export const aliasRoutes: FastifyPluginAsyncTypebox<{ aliases: AliasService; baseUrl: string | null }> = async (app, { aliases, baseUrl }) => {
  app.get(
    '/aliases',
    {
      schema: {
        tags: TAGS,
        summary: 'List aliases alphabetically',
        querystring: AliasListQuery,
        response: { 200: PaginatedOf(Alias), ...errorResponses(422, 429) },
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageRequest(query);
      const { rows, total } = await aliases.list(
        { emojiId: query.emoji_id, search: query.search },
        { offset: page.offset, limit: page.perPage },
        isOn(query.with_emoji),
      );
      return paginated(request, baseUrl, page, rows.map(shownAlias), total);
    },
  );

  app.get(
    '/aliases/search',
    {
      config: { validationStatus: 400 },
      schema: {
        tags: TAGS,
        summary: 'Search aliases by relevance: exact, prefix, then anywhere',
        querystring: AliasSearchQuery,
        response: { 200: Type.Object({ data: Type.Array(Alias) }), ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const found = await aliases.search(request.query.q, request.query.limit ?? 20, isOn(request.query.with_emoji));
      return { data: found.map(shownAlias) };
    },
  );

  app.get(
    '/aliases/:id',
    {
      schema: {
        tags: TAGS,
        summary: "One alias with its emoji and the emoji's category",
        params: IdParams,
        response: { 200: DataOf(Alias), ...errorResponses(404, 429) },
      },
    },
    async (request) => ({ data: shownAlias(await aliases.get(request.params.id)) }),
  );

  app.post(
    '/aliases',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Create an alias',
        security: ADMIN,
        body: CreateAliasBody,
        response: { 201: DataOf(Alias), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const row = await aliases.create(request.body);
      return reply.code(201).send({ data: aliasResource(row) });
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/aliases/:id',
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Rename an alias or move it to another emoji',
        security: ADMIN,
        params: IdParams,
        body: UpdateAliasBody,
        response: { 200: DataOf(Alias), ...errorResponses(401, 403, 404, 422, 429) },
      },
      handler: async (request) => ({ data: aliasResource(await aliases.update(request.params.id, request.body)) }),
    });
  }

  app.delete(
    '/aliases/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Delete an alias (its emoji stays)',
        security: ADMIN,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await aliases.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
