// /api/emoji/categories: list, get, create, update (PUT and PATCH), delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireRole, ADMINS } from '../auth/guard.ts';
import { DataOf, IdParams, QueryFlag, errorResponses, isOn } from '../http/schemas.ts';
import type { CategoryService } from './category-service.ts';
import type { ResponseCache } from './response-cache.ts';
import { DisplayOrder, Title } from './fields.ts';
import { Category, aliasResource, categoryResource, emojiResource } from './resource.ts';

const TAGS = ['emoji'];
const ADMIN = [{ bearer: [] }];

const CategoryListQuery = Type.Object({
  with_emojis: Type.Optional({ ...QueryFlag, description: 'Add emojis_count to each category' }),
  include_emojis: Type.Optional({ ...QueryFlag, description: "Add each category's emojis (by display order)" }),
});

const CategoryGetQuery = Type.Object({
  with_aliases: Type.Optional({ ...QueryFlag, description: 'Include the aliases of each emoji' }),
});

const CategoryFields = { title: Title, display_order: DisplayOrder };
export const CreateCategoryBody = Type.Object(CategoryFields);
export const UpdateCategoryBody = Type.Object({ title: Type.Optional(CategoryFields.title), display_order: Type.Optional(CategoryFields.display_order) });

export const categoryRoutes: FastifyPluginAsyncTypebox<{ categories: CategoryService; cache: ResponseCache }> = async (app, { categories, cache }) => {
  app.get(
    '/categories',
    {
      schema: {
        tags: TAGS,
        summary: 'Every category by display order (not paginated)',
        querystring: CategoryListQuery,
        response: { 200: Type.Object({ data: Type.Array(Category) }), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) =>
      // With include_emojis this is the whole catalog (half a megabyte).
      cache.send(request, reply, async () => {
        const listed = await categories.list({ withCount: isOn(request.query.with_emojis), withEmojis: isOn(request.query.include_emojis) });
        const data = listed.map((category) =>
          categoryResource(category.row, {
            emojisCount: category.emojisCount ?? null,
            emojis: category.emojis ? category.emojis.map((emoji) => emojiResource(emoji)) : null,
          }),
        );
        return { data };
      }),
  );

  app.get(
    '/categories/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One category with its emojis (by display order)',
        params: IdParams,
        querystring: CategoryGetQuery,
        response: { 200: DataOf(Category), ...errorResponses(404, 422, 429) },
      },
    },
    async (request) => {
      const { row, emojis, aliases } = await categories.get(request.params.id, { withAliases: isOn(request.query.with_aliases) });
      const shown = emojis.map((emoji) =>
        emojiResource(emoji, { aliases: aliases ? (aliases.get(emoji.id) ?? []).map((alias) => aliasResource(alias)) : null }),
      );
      return { data: categoryResource(row, { emojis: shown }) };
    },
  );

  app.post(
    '/categories',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Create a category',
        security: ADMIN,
        body: CreateCategoryBody,
        response: { 201: DataOf(Category), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const row = await categories.create(request.body);
      return reply.code(201).send({ data: categoryResource(row) });
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/categories/:id',
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Update a category (every field optional)',
        security: ADMIN,
        params: IdParams,
        body: UpdateCategoryBody,
        response: { 200: DataOf(Category), ...errorResponses(401, 403, 404, 422, 429) },
      },
      handler: async (request) => ({ data: categoryResource(await categories.update(request.params.id, request.body)) }),
    });
  }

  app.delete(
    '/categories/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Delete a category (its emojis stay, without a category)',
        security: ADMIN,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await categories.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
