// /api/forums/{id}/permissions (docs/access.md): a forum's level per action
// and its grants to groups and members, read and replaced whole by admins.
// The schema shapes the body; names (actions, levels, groups, members) are
// checked by the service, so that each unknown one is named in the 422.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ADMINS, assertUser, requireRole } from '../auth/guard.ts';
import { DataOf, IdParams, OneOf, errorResponses } from '../http/schemas.ts';
import { ACCESS_ACTIONS, ACCESS_LEVELS } from './permissions.ts';
import { GRANTS_MAX } from './forum-permissions.ts';
import type { ForumService } from './service.ts';

const Level = OneOf(ACCESS_LEVELS, 'all: everyone, guests too; members: signed-in members; private: those granted the action; moderators; admins');
const Action = OneOf(ACCESS_ACTIONS);
const Holder = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

const Levels = Type.Object(Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, Level])) as Record<(typeof ACCESS_ACTIONS)[number], typeof Level>, {
  description: 'Who may take each action in this forum',
});

const GrantShape = Type.Object({
  group_id: Type.Optional(Type.Union([Holder, Type.Null()], { description: 'The group granted (or user_id)' })),
  user_id: Type.Optional(Type.Union([Holder, Type.Null()], { description: 'The member granted (or group_id)' })),
  actions: Type.Array(Type.String({ maxLength: 40 }), { maxItems: ACCESS_ACTIONS.length * 2, description: `Actions granted: ${ACCESS_ACTIONS.join(', ')}` }),
  moderate: Type.Optional(Type.Boolean({ description: 'The holders moderate this forum (default false)' })),
});

const PermissionsBody = Type.Object({
  levels: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 40 }), {
    maxProperties: ACCESS_ACTIONS.length * 2,
    description: `One level per action (${ACCESS_ACTIONS.join(', ')}), each one of ${ACCESS_LEVELS.join(', ')}`,
  }),
  grants: Type.Array(GrantShape, { maxItems: GRANTS_MAX, description: `At most ${GRANTS_MAX}; one per group or member` }),
});

const PermissionsResource = Type.Object({
  levels: Levels,
  grants: Type.Array(
    Type.Object({
      group_id: Type.Optional(Type.Integer()),
      user_id: Type.Optional(Type.Integer()),
      actions: Type.Array(Action),
      moderate: Type.Boolean(),
    }),
  ),
});

const TAGS = ['forums'];
const security = [{ bearer: [] }];

export const permissionRoutes: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  app.get(
    '/forums/:id/permissions',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: "A forum's permissions: its level per action and its grants",
        security,
        params: IdParams,
        response: { 200: DataOf(PermissionsResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: await forum.permissions.get(request.params.id) }),
  );

  app.put(
    '/forums/:id/permissions',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: "Replace a forum's permissions whole, at once (logged)",
        security,
        params: IdParams,
        body: PermissionsBody,
        response: { 200: DataOf(PermissionsResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const target = await forum.getForum(request.params.id);
      const data = await forum.permissions.replace(target.id, request.body, assertUser(request), target.name);
      forum.access.changed();
      return { data };
    },
  );
};
