// buildApp(config): the whole service, used by main.ts and by the tests.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { adminPages } from './admin/index.ts';
import { accountPages } from './accounts/pages/index.ts';
import { installCsrfProtection } from './auth/csrf.ts';
import { installAuthentication } from './auth/guard.ts';
import { createLimiterFactory } from './auth/limiters.ts';
import { installRateLimits } from './auth/rate-limit.ts';
import { loginPages } from './auth/pages.ts';
import { authRoutes } from './auth/routes.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { emojiCatalogRoutes } from './emoji/routes.ts';
import { trackAllowedMethods } from './http/allowed-methods.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installMultipart } from './http/multipart.ts';
import { registerOpenApi } from './http/openapi.ts';
import { RequestLogController } from './http/request-log.ts';
import { validatorCompiler } from './http/validation.ts';
import { createServices, type Services } from './services.ts';
import { IMAGE_RULES } from './emoji/images/store.ts';
import { imageFileRoutes, imageUploadRoutes } from './emoji/images/routes.ts';
import { helloRoutes, probeRoutes } from './system/routes.ts';
import { forumPages } from './forum/pages/index.ts';
import { forumRoutes } from './forum/routes.ts';
import { PageRoutes } from './urls/semantic-routes.ts';
import { userRoutes } from './users/routes.ts';
import { renderErrorPage } from './web/error-page.ts';
import { wordFilterRoutes } from './word-filters/routes.ts';

/** The Fastify instance with TypeBox typing of route schemas. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface BuiltApp {
  app: App;
  database: DatabaseHandle;
  services: Services;
}

export interface BuildOptions {
  logger?: Logger;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const logger = options.logger ?? createLogger(config);
  const database = openDatabase(config.database, logger);
  try {
    await migrateToLatest(database, logger);
  } catch (error) {
    await database.close();
    throw error;
  }

  const limiters = createLimiterFactory(config.redisUrl, logger);
  await limiters.ready();
  const services = createServices(database, config, limiters, logger);
  try {
    await services.images.init();
  } catch (error) {
    await limiters.close();
    await database.close();
    throw error;
  }
  if (config.admin !== null) await services.users.ensureAdmin(config.admin, logger);
  if (config.emojiCatalog === 'unicode') await services.emoji.unicodeImport.importIfEmpty(logger);

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    genReqId: requestId,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // /api/v1/... is the same API as /api/...
    rewriteUrl: (request) => apiVersionless(request.url ?? '/'),
    routerOptions: { maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  const allowedMethods = trackAllowedMethods(app);
  installErrorHandling(app, allowedMethods, renderErrorPage);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const housekeeping = setInterval(() => {
    services.auth.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'removing expired credentials failed'));
  }, 60 * 60 * 1000);
  housekeeping.unref();
  services.topicViews.start(TOPIC_VIEWS_FLUSH_MS, (error) => logger.warn({ err: error }, 'writing topic view counts failed; retrying with the next flush'));
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    await services.topicViews.stop().catch((error: unknown) => logger.warn({ err: error }, 'topic view counts lost at shutdown'));
    await limiters.close();
    await database.close();
  });

  app.decorate('site', { baseUrl: config.baseUrl, name: 'Forum' });
  await app.register(cookie);
  await app.register(formbody);
  installAuthentication(app, services.auth);
  installRateLimits(app, limiters, config.rateLimit);
  // Before CSRF protection: an upload form's _csrf field must be read by then.
  await installMultipart(app, { maxFileBytes: IMAGE_RULES.sprites.maxBytes });
  installCsrfProtection(app);
  await app.register(fastifyStatic, {
    root: fileURLToPath(new URL('./web/assets/', import.meta.url)),
    prefix: '/assets/',
    maxAge: '1h',
  });

  await registerOpenApi(app);
  await app.register(probeRoutes, { database });
  await app.register(helloRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api', auth: services.auth });
  await app.register(loginPages, { auth: services.auth });
  await app.register(userRoutes, { prefix: '/api', users: services.users, baseUrl: config.baseUrl });
  await app.register(forumRoutes, { prefix: '/api', forum: services.forum, presenter: services.presenter, baseUrl: config.baseUrl });
  await app.register(wordFilterRoutes, { prefix: '/api/word-filters', wordFilters: services.wordFilters, baseUrl: config.baseUrl });
  await app.register(emojiCatalogRoutes, { prefix: '/api/emoji', emoji: services.emoji, baseUrl: config.baseUrl });
  await app.register(imageUploadRoutes, { prefix: '/api', images: services.images });
  await app.register(imageFileRoutes, { images: services.images });

  const pages = new PageRoutes();
  await app.register(forumPages, { pages, forum: services.forum, presenter: services.presenter, users: services.users, views: services.topicViews, profileMail: services.profileMail });
  await app.register(accountPages, { pages, accounts: services.accounts, auth: services.auth });
  await app.register(pages.legacyRoutes);
  await app.register(adminPages, { services });

  return { app, database, services };
}

/** How often buffered topic views are written (see forum/view-counter.ts). */
const TOPIC_VIEWS_FLUSH_MS = 10_000;

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  // Buffered: written in chunks of 4 KB and at least every second, because a
  // write per request line cost about as much as serving /api/hello. pino
  // writes out what is left when the process exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return pino(
    {
      level: config.logLevel,
      // No wildcards: a wildcard path is searched on every line, and the request
      // line carries no secrets (redactUrl). These catch an object logged whole.
      redact: { paths: ['password', 'token', 'authorization', 'cookie', 'req.headers.authorization', 'req.headers.cookie'], censor: '***' },
    },
    destination,
  );
}

/** Longest time a log line waits in the buffer. */
const LOG_FLUSH_MS = 1000;

/** `/api/v1/x` → `/api/x`; anything else is left alone. */
export function apiVersionless(url: string): string {
  if (url.startsWith('/api/v1/') || url.startsWith('/api/v1?')) return `/api${url.slice('/api/v1'.length)}`;
  if (url === '/api/v1') return '/api';
  return url;
}

/** Keep a caller's X-Request-Id when it is a sane token; otherwise make one. */
function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming)) return incoming;
  return randomUUID();
}
