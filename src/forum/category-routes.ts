// /api/categories: the forum categories (docs/access.md, "Categories"), each
// with the forums listed under it. Reads are public; admins create, rename,
// reorder and delete them (an empty one only: 409 while forums are in it).
// A forum's category is set on the forum (`category_id`, routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireRole, ADMINS } from '../auth/guard.ts';
import { DataOf, IdParams, Int32, VisibleText, errorResponses } from '../http/schemas.ts';
import type { CategoryWithForums } from './categories.ts';
import { CategoryResource, categoryResource, forumListItem } from './resource.ts';
import type { ForumService } from './service.ts';

export const CATEGORY_TITLE_MAX = 255;

const CategoryFields = {
  title: VisibleText(CATEGORY_TITLE_MAX, `The heading's text: up to ${CATEGORY_TITLE_MAX} characters, at least one of them visible`),
  display_order: Int32('Position on the index, ascending (0 or more)'),
};

export const CategoryBodies = {
  create: Type.Object(CategoryFields),
  update: Type.Object({ title: Type.Optional(CategoryFields.title), display_order: Type.Optional(CategoryFields.display_order) }),
};

const TAGS = ['forums'];
const security = [{ bearer: [] }];

export const categoryRoutes: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  /** The categories as this reader gets them: their forums with the reader's unread counts, as /api/forums lists them. */
  const shown = async (request: FastifyRequest, categories: readonly CategoryWithForums[]) => {
    const [unread, permissions] = await Promise.all([forum.unread.forumsWithUnread(request.user), forum.access.of(request.user)]);
    const signedIn = request.user !== null;
    return categories.map(({ row, forums }) =>
      categoryResource(
        row,
        forums.map((forumRow) => forumListItem(forumRow, permissions, signedIn, unread.get(forumRow.id))),
      ),
    );
  };

  app.get(
    '/categories',
    {
      schema: {
        tags: TAGS,
        summary: 'Every forum category by display order, each with its forums (not paginated)',
        response: { 200: Type.Object({ data: Type.Array(CategoryResource) }) },
      },
    },
    async (request) => ({ data: await shown(request, await forum.categories.list(await forum.access.of(request.user))) }),
  );

  app.get(
    '/categories/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One forum category with its forums',
        params: IdParams,
        response: { 200: DataOf(CategoryResource), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: (await shown(request, [await forum.categories.get(request.params.id, await forum.access.of(request.user))]))[0]! }),
  );

  app.post(
    '/categories',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Create a forum category (put forums in it with their category_id)',
        security,
        body: CategoryBodies.create,
        response: { 201: DataOf(CategoryResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const row = await forum.categories.create(request.body);
      return reply.code(201).send({ data: categoryResource(row, []) });
    },
  );

  app.patch(
    '/categories/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Rename or reorder a forum category (every field optional)',
        security,
        params: IdParams,
        body: CategoryBodies.update,
        response: { 200: DataOf(CategoryResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      await forum.categories.update(request.params.id, request.body);
      return { data: (await shown(request, [await forum.categories.get(request.params.id, await forum.access.of(request.user))]))[0]! };
    },
  );

  app.delete(
    '/categories/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Delete an empty forum category (409 while forums are in it)',
        security,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await forum.categories.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
