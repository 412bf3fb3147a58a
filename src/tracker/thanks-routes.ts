// /api/torrents/{id}/thanks (docs/tracker.md, "Thanks"): who thanked for a
// release (anyone who may see it), and a member's thanks given or taken back.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireUser } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, errorResponses } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import type { Thanks } from './thanks.ts';

const ThankerResource = Type.Object({ user: Type.Object({ id: Type.Integer(), name: Type.String() }), thanked_at: SecondsTimestamp });
const ThanksState = Type.Object({
  count: Type.Integer({ description: 'Thanks the release has' }),
  thanked: Type.Boolean({ description: 'Whether you thanked' }),
});

const TAGS = ['torrents'];
const security = [{ bearer: [] }];

export const thanksRoutes: FastifyPluginAsyncTypebox<{ thanks: Thanks; baseUrl: string | null }> = async (app, { thanks, baseUrl }) => {
  app.get(
    '/torrents/:id/thanks',
    {
      schema: {
        tags: TAGS,
        summary: 'Who thanked for the release, newest first',
        params: IdParams,
        querystring: Type.Object(PageQueryProperties),
        response: { 200: PaginatedOf(ThankerResource), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await thanks.list(request.params.id, request.user, page);
      return paginated(
        request,
        baseUrl,
        page,
        rows.map((row) => ({ user: { id: row.user_id, name: row.username }, thanked_at: isoSeconds(row.created_at) })),
        total,
      );
    },
  );

  app.post(
    '/torrents/:id/thanks',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Thank the uploader (once; again changes nothing)',
        security,
        params: IdParams,
        response: { 200: DataOf(ThanksState), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: { count: await thanks.thank(request.params.id, assertUser(request)), thanked: true } }),
  );

  app.delete(
    '/torrents/:id/thanks',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Take your thanks back',
        security,
        params: IdParams,
        response: { 200: DataOf(ThanksState), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: { count: await thanks.unthank(request.params.id, assertUser(request)), thanked: false } }),
  );
};
