// /api/groups: groups of members (docs/access.md, "Groups"). Reads are open
// to anyone who may see the group (a hidden one: its accepted members and
// admins; 404 to anyone else); admins create, edit and delete groups; admins
// and a group's leaders manage its members and requests; members join,
// leave and withdraw their requests.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ADMINS, assertUser, requireRole, requireUser } from '../auth/guard.ts';
import { ApiError } from '../http/errors.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, Id, IdParams, errorResponses } from '../http/schemas.ts';
import { t } from '../i18n/messages.ts';
import { parseId } from '../urls/paths.ts';
import { GroupBodies, MemberStatusField } from './fields.ts';
import { GroupMemberResource, GroupResource, groupMemberResource, groupResource } from './resource.ts';
import type { Groups } from './service.ts';

const TAGS = ['groups'];
const security = [{ bearer: [] }];

const MemberParams = Type.Object({ id: Id('Group id'), user_id: Id('User id') });
const MembersQuery = Type.Object({ status: Type.Optional(MemberStatusField), ...PageQueryProperties });

export const groupRoutes: FastifyPluginAsyncTypebox<{ groups: Groups; baseUrl: string | null }> = async (app, { groups, baseUrl }) => {
  /**
   * Before the body is judged: a signed-in caller who may manage the group's
   * members (its leaders and admins), so that a member who may not is told
   * 403 whatever they send, and nobody learns of a hidden group (404).
   * Malformed ids are left to the route's own 404.
   */
  const managers = async (request: FastifyRequest): Promise<void> => {
    const user = assertUser(request);
    const id = parseId(String((request.params as { id?: unknown }).id));
    if (id === null) return;
    const group = await groups.find(id, user);
    if (!(await groups.mayManage(group, user))) throw new ApiError('FORBIDDEN', t('group.leaders_only'));
  };

  app.get(
    '/groups',
    {
      schema: {
        tags: TAGS,
        summary: 'The groups the caller may see (hidden ones: to their members and admins), by name',
        querystring: Type.Object(PageQueryProperties),
        response: { 200: PaginatedOf(GroupResource), ...errorResponses(422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await groups.list(request.user, page);
      return paginated(request, baseUrl, page, rows.map(groupResource), total);
    },
  );

  app.post(
    '/groups',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Create a group (admins)',
        security,
        body: GroupBodies.create,
        response: { 201: DataOf(GroupResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: groupResource(await groups.create(request.body)) }),
  );

  app.get(
    '/groups/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One group',
        params: IdParams,
        response: { 200: DataOf(GroupResource), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: groupResource(await groups.get(request.params.id, request.user)) }),
  );

  app.patch(
    '/groups/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Rename, describe or retype a group (admins; every field optional)',
        security,
        params: IdParams,
        body: GroupBodies.update,
        response: { 200: DataOf(GroupResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: groupResource(await groups.update(request.params.id, request.body)) }),
  );

  app.delete(
    '/groups/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Delete a group with its memberships, requests and forum grants (admins)',
        security,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await groups.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/groups/:id/members',
    {
      schema: {
        tags: TAGS,
        summary: 'A group’s members (leaders first, then by joining), or its requests (status=pending: its leaders and admins only, oldest first)',
        params: IdParams,
        querystring: MembersQuery,
        response: { 200: PaginatedOf(GroupMemberResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await groups.members(request.params.id, request.user, request.query.status ?? 'accepted', page);
      return paginated(request, baseUrl, page, rows.map(groupMemberResource), total);
    },
  );

  app.put(
    '/groups/:id/members/:user_id',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Add a member, accept a request or change a role (admins; a group’s leaders for members who are not leaders; only admins appoint leaders)',
        security,
        params: MemberParams,
        body: GroupBodies.member,
        response: { 200: DataOf(GroupMemberResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const member = await groups.setMember(request.params.id, assertUser(request), request.params.user_id, request.body.role);
      return { data: groupMemberResource(member) };
    },
  );

  app.delete(
    '/groups/:id/members/:user_id',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Remove a member or refuse a request (admins; a group’s leaders for members who are not leaders), or leave (the member themselves)',
        security,
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await groups.removeMember(request.params.id, assertUser(request), request.params.user_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/groups/:id/join',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Join an open group (200) or ask to join a closed one (202); again: the same answer, nothing changes',
        security,
        params: IdParams,
        response: { 200: DataOf(GroupMemberResource), 202: DataOf(GroupMemberResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const joined = await groups.join(request.params.id, assertUser(request));
      return reply.code(joined.status === 'accepted' ? 200 : 202).send({ data: groupMemberResource(joined.member) });
    },
  );
};
