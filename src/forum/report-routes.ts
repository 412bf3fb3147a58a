// Reports of posts (docs/moderation.md, "Reports"): POST /api/posts/{id}/reports
// for members; GET /api/reports and POST /api/reports/{id}/resolve for the
// moderators of the posts' forums.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MODERATORS, assertUser, requireRole, requireUser } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, Nullable, OneOf, VisibleText, errorResponses } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { REPORT_REASON_MAX, type ReportRow } from './reports.ts';
import type { ForumService } from './service.ts';

const ReportResource = Type.Object({
  id: Type.Integer(),
  post_id: Type.Integer(),
  topic: Type.Object({ id: Type.Integer(), title: Type.String() }),
  reporter: Type.Object({ id: Type.Integer(), name: Type.String() }),
  reason: Type.String(),
  created_at: SecondsTimestamp,
  resolved_at: Nullable(SecondsTimestamp),
  resolved_by: Nullable(Type.String({ description: 'The moderator’s name' })),
  resolution: Nullable(Type.String({ description: 'acted or dismissed' })),
});

function reportResource(row: ReportRow) {
  return {
    id: row.id,
    post_id: row.post_id,
    topic: { id: row.topic_id, title: row.topic_title },
    reporter: { id: row.reporter_id, name: row.reporter_name },
    reason: row.reason,
    created_at: isoSeconds(row.created_at),
    resolved_at: row.resolved_at === null ? null : isoSeconds(row.resolved_at),
    resolved_by: row.resolved_by_name,
    resolution: row.resolution,
  };
}

const TAGS = ['moderation'];
const security = [{ bearer: [] }];

export const reportRoutes: FastifyPluginAsyncTypebox<{ forum: ForumService; baseUrl: string | null }> = async (app, { forum, baseUrl }) => {
  app.post(
    '/posts/:id/reports',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Report a post to its moderators (one open report per post)',
        security,
        params: IdParams,
        body: Type.Object({ reason: VisibleText(REPORT_REASON_MAX, 'What is wrong with the post') }),
        response: { 201: DataOf(Type.Object({ id: Type.Integer() })), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: { id: await forum.reports.report(request.params.id, assertUser(request), request.body.reason) } }),
  );

  app.get(
    '/reports',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: TAGS,
        summary: 'Reports of the posts you moderate, newest first: the open ones, or the resolved',
        security,
        querystring: Type.Object({ ...PageQueryProperties, status: Type.Optional(OneOf(['open', 'resolved'], 'open (default) or resolved')) }),
        response: { 200: PaginatedOf(ReportResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await forum.reports.list(assertUser(request), request.query.status !== 'resolved', page);
      return paginated(request, baseUrl, page, rows.map(reportResource), total);
    },
  );

  app.post(
    '/reports/:id/resolve',
    {
      preValidation: requireRole(MODERATORS),
      schema: {
        tags: TAGS,
        summary: 'Resolve a report: acted (something was done about the post) or dismissed; the reporter is told',
        security,
        params: IdParams,
        body: Type.Object({ resolution: OneOf(['acted', 'dismissed'], 'acted or dismissed') }),
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await forum.reports.resolve(request.params.id, assertUser(request), request.body.resolution as 'acted' | 'dismissed');
      return reply.code(204).send(null);
    },
  );
};
