// /api/mass-sends (docs/mass-mail.md): administrators send a private message
// or an e-mail to all members, one group's or one role's; the request is
// answered at once (202) and the sending goes on in the background, its
// progress read from the send. /api/mass-mail/subscription: a member's own
// choice of getting mass mail.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ADMINS, assertUser, requireRole, requireUser } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, paginated, pageRequest } from '../http/pagination.ts';
import { DataOf, IdParams, OneOf, Reference, errorResponses } from '../http/schemas.ts';
import { Body, Subject } from '../messages/routes.ts';
import { MassSendResource, massSendResource } from './resource.ts';
import { AUDIENCE_KINDS, AUDIENCE_ROLES, MASS_SEND_KINDS, REQUEST_KEY_MAX, type MassSendInput, type MassSends } from './service.ts';
import type { MassMailSubscriptions } from './subscriptions.ts';

const Kind = OneOf(MASS_SEND_KINDS, 'message: a private message to each member; mail: an e-mail to each member who takes mass mail');

const AudienceBody = Type.Object({
  kind: OneOf(AUDIENCE_KINDS, "all: every member; group: one group's accepted members; role: the members of one role"),
  group_id: Type.Optional(Reference('The group (audience group only)')),
  role: Type.Optional(OneOf(AUDIENCE_ROLES, 'The role (audience role only)')),
});

export const MassSendBody = Type.Object({
  kind: Kind,
  audience: AudienceBody,
  subject: Subject,
  body: Body,
});

/** A client's own name for its request: a retry with the same key answers the send made the first time, and sends nothing more. */
const SendHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: REQUEST_KEY_MAX,
      pattern: '^[!-~]+$',
      description: 'Your own key for this request (printable ASCII): sent again, it answers the send made the first time',
    }),
  ),
});

const PreviewBody = Type.Object({ kind: Kind, audience: AudienceBody });

const Preview = Type.Object({ recipients: Type.Integer({ description: 'Members it would go to now' }) });

const Subscription = Type.Object({ subscribed: Type.Boolean({ description: 'Whether you get the mail administrators send to all members' }) });

const ListQuery = Type.Object(PageQueryProperties);

const TAGS = ['mass-sends'];
const security = [{ bearer: [] }];

export function massSendInput(body: Static<typeof MassSendBody>): MassSendInput {
  return { kind: body.kind, audience: body.audience, subject: body.subject, body: body.body };
}

export const massSendRoutes: FastifyPluginAsyncTypebox<{ massSends: MassSends; subscriptions: MassMailSubscriptions; baseUrl: string | null }> = async (
  app,
  { massSends, subscriptions, baseUrl },
) => {
  const admin = requireRole(ADMINS);

  app.post(
    '/mass-sends',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        summary: 'Send a private message or an e-mail to all members, a group or a role: answered at once, sent in the background',
        security,
        headers: SendHeaders,
        body: MassSendBody,
        response: { 202: DataOf(MassSendResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { send } = await massSends.createOnce(assertUser(request), massSendInput(request.body), request.headers['idempotency-key']);
      return reply
        .code(202)
        .header('location', `/api/mass-sends/${send.id}`)
        .send({ data: massSendResource(send) });
    },
  );

  app.post(
    '/mass-sends/preview',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        summary: 'How many members a send would go to now (nothing is sent)',
        security,
        body: PreviewBody,
        response: { 200: DataOf(Preview), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => ({ data: { recipients: await massSends.preview(assertUser(request), request.body.kind, request.body.audience) } }),
  );

  app.get(
    '/mass-sends',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        summary: 'Every mass send, newest first, with its progress',
        security,
        querystring: ListQuery,
        response: { 200: PaginatedOf(MassSendResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await massSends.list(page);
      return paginated(request, baseUrl, page, rows.map(massSendResource), total);
    },
  );

  app.get(
    '/mass-sends/:id',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        summary: 'One mass send and how far it got',
        security,
        params: IdParams,
        response: { 200: DataOf(MassSendResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: massSendResource(await massSends.get(request.params.id)) }),
  );

  app.get(
    '/mass-mail/subscription',
    {
      preValidation: requireUser(),
      schema: { tags: TAGS, summary: 'Whether you get mass mail', security, response: { 200: DataOf(Subscription), ...errorResponses(401) } },
    },
    async (request) => ({ data: { subscribed: await subscriptions.subscribed(assertUser(request)) } }),
  );

  app.put(
    '/mass-mail/subscription',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Get mass mail, or stop it (private messages from administrators still arrive)',
        security,
        body: Subscription,
        response: { 200: DataOf(Subscription), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const user = assertUser(request);
      await subscriptions.set(user, request.body.subscribed);
      return { data: { subscribed: await subscriptions.subscribed(user) } };
    },
  );
};
