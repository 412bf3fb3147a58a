// POST /api/login, POST /api/logout, GET /api/user.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.ts';
import { assertUser, requireUser } from './guard.ts';
import { CurrentUser, LoginResult, currentUserResource } from './resource.ts';
import type { AuthService } from './service.ts';

const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a user name and password for an API token',
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const user = await auth.checkCredentials(request.body.username, request.body.password, request.ip);
      const issued = await auth.issueToken(user);
      return {
        success: true as const,
        data: {
          token: issued.token,
          token_type: 'Bearer' as const,
          expires_at: issued.expiresAt,
          user: currentUserResource({ id: user.id, name: user.username, email: user.email, role: user.role }),
        },
      };
    },
  );

  app.post(
    '/logout',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token (or end the session) used for this request',
        security: [{ bearer: [] }],
        response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const credentials = request.credentials;
      if (credentials?.kind === 'token') await auth.revokeToken(credentials.tokenId);
      if (credentials?.kind === 'session') {
        await auth.endSession(credentials.idHash);
        reply.clearCookie('forum_session', { path: '/' });
      }
      return { success: true as const, message: 'You have been logged out.' };
    },
  );

  app.get(
    '/user',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['auth'],
        summary: 'The authenticated user',
        security: [{ bearer: [] }],
        response: { 200: Type.Object({ success: Type.Literal(true), data: CurrentUser }), ...errorResponses(401) },
      },
    },
    async (request) => ({ success: true as const, data: currentUserResource(assertUser(request)) }),
  );
};
