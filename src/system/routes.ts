// Availability: the public hello endpoint, and liveness/readiness probes for operators.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import packageJson from '../../package.json' with { type: 'json' };
import type { DatabaseHandle } from '../db/database.ts';
import { errorEnvelope } from '../http/errors.ts';

const Hello = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    message: Type.String(),
    version: Type.String({ description: 'Service version' }),
    php_version: Type.String({ description: 'Runtime (Node.js) version; the name is kept for existing clients' }),
    timestamp: Type.Integer({ description: 'Current Unix time' }),
  }),
});

export const helloRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/hello',
    {
      schema: { tags: ['hello'], summary: 'Availability and basic system information', response: { 200: Hello } },
    },
    async () => ({
      success: true as const,
      data: {
        message: 'Hello! The forum API is up and running.',
        version: packageJson.version,
        php_version: process.versions.node,
        // eslint-disable-next-line no-restricted-syntax -- wall time: a probe tells the real time
        timestamp: Math.floor(Date.now() / 1000),
      },
    }),
  );
};

export const probeRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle }> = async (app, { database }) => {
  const Status = Type.Object({ status: Type.String() });

  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  // Probes answer JSON (never an HTML error page), so they are read by machines as written.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await database.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: database unreachable');
      return reply.code(503).send(errorEnvelope('SERVICE_UNAVAILABLE', 'The database is not reachable.'));
    }
    return { status: 'ready' };
  });
};
