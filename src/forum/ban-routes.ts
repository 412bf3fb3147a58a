// POST /api/users/{id}/ban and /unban (docs/moderation.md): moderators ban
// members, admins also moderators; the answer is the member's ban as it
// stands.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { assertUser, requireRole, STAFF } from '../auth/guard.ts';
import { DataOf, IdParams, Nullable, VisibleText, errorResponses } from '../http/schemas.ts';
import { isoSeconds, SecondsTimestamp } from '../http/timestamps.ts';
import type { UserRow } from '../users/repository.ts';
import { BAN_REASON_MAX, type MemberBans } from './member-bans.ts';

export const BanBody = Type.Object({
  reason: VisibleText(BAN_REASON_MAX, 'Why: shown to the member when they try to log in'),
  until: Type.Optional(
    Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The day the ban ends (YYYY-MM-DD, at 00:00 UTC); absent: until lifted' }),
  ),
});

const BanResource = Type.Object({
  user_id: Type.Integer(),
  status: Type.String({ description: 'banned, or active once lifted' }),
  reason: Nullable(Type.String()),
  until: Nullable(SecondsTimestamp),
});

function banResource(user: UserRow): Static<typeof BanResource> {
  return { user_id: user.id, status: user.status, reason: user.ban_reason, until: user.banned_until === null ? null : isoSeconds(user.banned_until) };
}

const security = [{ bearer: [] }];

export const banRoutes: FastifyPluginAsyncTypebox<{ bans: MemberBans }> = async (app, { bans }) => {
  app.post(
    '/users/:id/ban',
    {
      preValidation: requireRole(STAFF),
      schema: {
        tags: ['moderation'],
        summary: 'Ban a member: every login ends, new ones and the passkey are refused until the end',
        security,
        params: IdParams,
        body: BanBody,
        response: { 200: DataOf(BanResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({
      data: banResource(await bans.ban(assertUser(request), request.params.id, { reason: request.body.reason, until: request.body.until ?? null })),
    }),
  );

  app.post(
    '/users/:id/unban',
    {
      preValidation: requireRole(STAFF),
      schema: {
        tags: ['moderation'],
        summary: "Lift a member's ban",
        security,
        params: IdParams,
        response: { 200: DataOf(BanResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: banResource(await bans.lift(assertUser(request), request.params.id)) }),
  );
};
