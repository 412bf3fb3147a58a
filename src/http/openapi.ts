// OpenAPI document generated from the route schemas: JSON at
// /api/openapi.json, browsable at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP } from './security-headers.ts';
import packageJson from '../../package.json' with { type: 'json' };

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Forum API',
        version: packageJson.version,
        description:
          'Emoji catalog, word filters, users and forum content. Every path is also served under /api/v1. ' +
          'Authenticate with `Authorization: Bearer <token>` from POST /api/login.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true }, staticCSP: DOCS_CSP });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
