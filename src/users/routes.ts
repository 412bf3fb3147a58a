// Admin user management (GET/POST /api/users, PATCH/DELETE /api/users/{id})
// and the public profile read (GET /api/users/{id}).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireRole, ADMINS } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, errorResponses } from '../http/schemas.ts';
import { Email, Password, Username } from './fields.ts';
import { RoleSchema, StatusSchema, UserResource, userResource } from './resource.ts';
import type { UsersService } from './service.ts';

const security = [{ bearer: [] }];

export const ListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the user name or e-mail address' })),
  role: Type.Optional(RoleSchema),
  status: Type.Optional(StatusSchema),
});

const CreateBody = Type.Object({
  username: Username,
  email: Email,
  password: Password,
  role: Type.Optional(RoleSchema),
  status: Type.Optional(StatusSchema),
});

export const UpdateBody = Type.Object({
  username: Type.Optional(Username),
  email: Type.Optional(Email),
  password: Type.Optional(Password),
  role: Type.Optional(RoleSchema),
  status: Type.Optional(StatusSchema),
});

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UsersService; baseUrl: string | null }> = async (app, { users, baseUrl }) => {
  app.get(
    '/users',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['users'],
        summary: 'Users, by name',
        security,
        querystring: ListQuery,
        response: { 200: PaginatedOf(UserResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await users.list(request.query, page.offset, page.perPage);
      return paginated(
        request,
        baseUrl,
        page,
        rows.map((row) => userResource(row, request.user)),
        total,
      );
    },
  );

  app.post(
    '/users',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['users'],
        summary: 'Create a user (active unless a status is given)',
        security,
        body: CreateBody,
        response: { 201: DataOf(UserResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: userResource(await users.create(request.body), request.user) }),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'A user; e-mail, role and status only for admins and the user',
        params: IdParams,
        response: { 200: DataOf(UserResource), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: userResource(await users.get(request.params.id), request.user) }),
  );

  app.patch(
    '/users/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['users'],
        summary: 'Change name, e-mail, password, role or status (a ban ends every login at once)',
        security,
        params: IdParams,
        body: UpdateBody,
        response: { 200: DataOf(UserResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: userResource(await users.update(request.params.id, request.body, assertUser(request)), request.user) }),
  );

  app.delete(
    '/users/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: ['users'],
        summary: 'Delete a user (their posts stay, without author)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await users.delete(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );
};
