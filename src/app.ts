// buildApp(config): the whole service, used by main.ts and by the tests.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type RawServerDefault } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { adminPages } from './admin/index.ts';
import { accountPages } from './accounts/pages/index.ts';
import { installCsrfProtection } from './auth/csrf.ts';
import { installAuthentication } from './auth/guard.ts';
import { createLimiterFactory } from './auth/limiters.ts';
import { installRateLimits } from './auth/rate-limit.ts';
import { loginPages } from './accounts/pages/login-pages.ts';
import { authRoutes } from './auth/routes.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { emojiCatalogRoutes } from './emoji/routes.ts';
import { announceRoutes, TRACKER_PATH_PREFIX } from './tracker/announce/routes.ts';
import { trackerListener } from './tracker/announce/raw-listener.ts';
import { bonusPages } from './tracker/bonus-page.ts';
import { trackerStatsRoutes } from './tracker/stats-routes.ts';
import { torrentRoutes } from './tracker/torrents/routes.ts';
import { trackerAddons, trackerPages } from './tracker/torrents/pages.ts';
import { trackAllowedMethods } from './http/allowed-methods.ts';
import { answerFrameworkError, installErrorHandling, isApiRequest } from './http/error-handler.ts';
import { installFormBodyRule } from './http/form-bodies.ts';
import { installHostCheck } from './http/host-check.ts';
import { createHttpServer } from './http/http-server.ts';
import { installSecurityHeaders, securityHeaderSets } from './http/security-headers.ts';
import { compressOptions } from './http/compression.ts';
import { SITE_ASSETS, SITE_ASSETS_DIR } from './web/site-assets.ts';
import { installMultipart } from './http/multipart.ts';
import { registerOpenApi } from './http/openapi.ts';
import { RequestLogController } from './http/request-log.ts';
import { trustFunction } from './http/proxy-trust.ts';
import { lazySerializers } from './http/serialization.ts';
import { validatorCompiler } from './http/validation.ts';
import { siteRoutes } from './site/routes.ts';
import { readerChoiceRoutes } from './web/reader-choices.ts';
import { installSiteSettings } from './site/settings.ts';
import { createServices, type Services } from './services.ts';
import { imageFileRoutes, imageUploadRoutes } from './emoji/images/routes.ts';
import { MetricsRegistry } from './system/metrics.ts';
import { installMetrics } from './system/metrics-routes.ts';
import { registerTrackerFigures } from './tracker/metrics.ts';
import { helloRoutes, probeRoutes } from './system/routes.ts';
import { feedRoutes } from './forum/feeds/routes.ts';
import { sitemapRoutes } from './forum/sitemap-routes.ts';
import { robotsRoute } from './site/robots.ts';
import { sitePageRoutes } from './site/page-routes.ts';
import { sitePageView } from './site/page-view.ts';
import { forumPages } from './forum/pages/index.ts';
import { banRoutes } from './forum/ban-routes.ts';
import { messagePages } from './messages/pages/index.ts';
import { messageRoutes } from './messages/routes.ts';
import { forumRoutes } from './forum/routes.ts';
import { categoryRoutes } from './forum/category-routes.ts';
import { permissionRoutes } from './forum/permission-routes.ts';
import { groupRoutes } from './groups/routes.ts';
import { groupPages } from './groups/pages.ts';
import { searchRoutes } from './forum/search/routes.ts';
import { pollRoutes } from './forum/polls/routes.ts';
import { rankRoutes } from './users/rank-routes.ts';
import { notificationRoutes } from './forum/notification-routes.ts';
import { releaseRoutes } from './forum/release-routes.ts';
import { reportRoutes } from './forum/report-routes.ts';
import { thanksRoutes } from './tracker/thanks-routes.ts';
import { reseedRoutes } from './tracker/reseed-routes.ts';
import { notificationPages } from './forum/pages/notifications-page.ts';
import { massSendRoutes } from './mass-send/routes.ts';
import { unsubscribePages } from './mass-send/unsubscribe-pages.ts';
import { PageRoutes } from './urls/semantic-routes.ts';
import { userRoutes } from './users/routes.ts';
import { memberRoutes } from './users/member-routes.ts';
import { installLocale } from './i18n/context.ts';
import { avatarFileRoutes, avatarRoutes } from './users/avatars/avatar-routes.ts';
import { renderErrorPage } from './web/error-page.ts';
import { wordFilterRoutes } from './word-filters/routes.ts';

/** The Fastify instance with TypeBox typing of route schemas. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface BuiltApp {
  app: App;
  database: DatabaseHandle;
  services: Services;
  /** Figures served at /metrics; modules add their own gauges here. */
  metrics: MetricsRegistry;
}

export interface BuildOptions {
  logger?: Logger;
  /** Runs as start-up's last step, when everything is open (tests make it fail). */
  startupStep?: () => Promise<void>;
  /** Where the service reads the time (default: the system clock; tests pass a TestClock). */
  clock?: Clock;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const logger = options.logger ?? createLogger(config);
  // Everything opened is pushed here; a start-up that fails half-way closes it, newest first.
  const opened = new OpenedResources(logger);
  const built: { app?: App } = {};
  try {
    return await assemble(config, options, logger, opened, built);
  } catch (error) {
    // Closing the app runs its onClose hooks (metrics, and the list below).
    await built.app?.close().catch((closeError: unknown) => logger.error({ err: closeError }, 'closing the half-built app failed'));
    await opened.closeAll();
    throw error;
  }
}

async function assemble(config: Config, options: BuildOptions, logger: Logger, opened: OpenedResources, built: { app?: App }): Promise<BuiltApp> {
  const database = openDatabase(config.database, logger);
  opened.add('database', () => database.close());
  await migrateToLatest(database, logger);

  const limiters = createLimiterFactory(config.redisUrl, logger);
  opened.add('limiters', () => limiters.close());
  await limiters.ready();
  const clock = options.clock ?? systemClock;
  const services = createServices(database, config, limiters, logger, clock);
  // The tracker's swarm store (Redis or memory) exists from here, started or not.
  opened.add('tracker', () => services.tracker.stop());
  await services.images.init();
  await services.avatars.init();
  if (config.admin !== null) await services.users.ensureAdmin(config.admin, logger);
  if (config.emojiCatalog === 'unicode') await services.emoji.unicodeImport.importIfEmpty(logger);

  const securityHeaders = securityHeaderSets(config.baseUrl);
  // Announces and scrapes skip Fastify (tracker/announce/raw-listener.ts).
  // One rule for the client's address, Fastify's request.ip and the tracker's listener alike.
  const trustProxy = trustFunction(config.trustProxy);
  const tracker = trackerListener({ announce: services.tracker.announce, trustProxy, logger: logger as FastifyBaseLogger });
  const app = Fastify({
    // Every connection's time is bounded (REQUEST_/HEADERS_/KEEP_ALIVE_TIMEOUT_SECONDS).
    serverFactory: (handler) =>
      createHttpServer((request, response) => {
        if (!tracker(request, response)) handler(request, response);
      }, config.timeouts),
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    genReqId: requestId,
    trustProxy: config.trustProxy.kind === 'none' ? false : trustProxy,
    bodyLimit: 1024 * 1024,
    // /api/v1/... is the same API as /api/...
    rewriteUrl: (request) => apiVersionless(request.url ?? '/'),
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => answerFrameworkError(error, request, reply, securityHeaders),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  built.app = app;

  app.setValidatorCompiler(validatorCompiler);
  const allowedMethods = trackAllowedMethods(app);
  installErrorHandling(app, allowedMethods, renderErrorPage);
  // Who is online (site/presence.ts): whoever was answered a page, member or guest.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.method === 'GET' && reply.statusCode < 400 && String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
      services.presence.seenBy(request);
    done();
  });
  const housekeeping = setInterval(
    () => {
      services.auth.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'removing expired credentials failed'));
    },
    60 * 60 * 1000,
  );
  housekeeping.unref();
  opened.add('housekeeping', async () => clearInterval(housekeeping));
  services.tracker.start();
  services.topicViews.start(TOPIC_VIEWS_FLUSH_MS, (error) => logger.warn({ err: error }, 'writing topic view counts failed; retrying with the next flush'));
  opened.add('topic views', () => services.topicViews.stop());
  services.searchBackfill.start(
    (error) => logger.error({ err: error }, 'indexing older posts for search failed; the next start goes on from where it stopped'),
    (posts) => {
      if (posts > 0) logger.info({ posts }, 'older posts indexed for search');
    },
  );
  opened.add('search backfill', () => services.searchBackfill.stop());
  // A normal close runs the same list.
  app.addHook('onClose', () => opened.closeAll());

  await services.site.current();
  // After the site settings are read: a mass mail names the site. Stopping lets go of the send in hand for the next start.
  services.massSender.start();
  opened.add('mass sends', () => services.massSender.stop());
  app.decorate('site', { baseUrl: config.baseUrl, lastKnown: () => services.site.lastKnown() });
  installSecurityHeaders(app, securityHeaders);
  // Pages, JSON, feeds and assets of 1 KB or more go out as br or gzip when the client takes them (http/compression.ts).
  await app.register(compress, compressOptions);
  await app.register(cookie);
  await app.register(formbody);
  // After cookies (an error page reads them), before anything looks at the request.
  installHostCheck(app, { baseUrl: config.baseUrl, allowedHosts: config.allowedHosts, listenHost: config.host });
  installAuthentication(app, services.auth);
  // After authentication: a member's language and time zone settings come with their login. The API and the
  // tracker (BitTorrent clients read its failure reasons) answer in English, whatever a client asks for.
  const englishOnly = (request: FastifyRequest) => request.url.startsWith(TRACKER_PATH_PREFIX) || isApiRequest(request);
  installSiteSettings(app, services.site, (request) => request.url.startsWith('/api/') || englishOnly(request));
  installLocale(
    app,
    (request) => request.readingSettings,
    englishOnly,
    // Read by installSiteSettings's hook just before, for this request.
    () => services.site.lastKnown().defaultLocale,
  );
  installRateLimits(app, limiters, config.rateLimit);
  const metrics = new MetricsRegistry();
  installMetrics(app, { registry: metrics, database, token: config.metricsToken, trustProxy: config.trustProxy.kind !== 'none' });
  registerTrackerFigures(metrics, services.tracker, database);
  // Before multipart and the body parsers: a page route refuses anything but a form unread (415).
  installFormBodyRule(app);
  // Before CSRF protection: an upload form's _csrf field must be read by then.
  installMultipart(app);
  installCsrfProtection(app);
  // Browsers and crawlers ask for /favicon.ico whatever the page says; the icon is an SVG among the assets.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect(SITE_ASSETS.url('favicon.svg'), 301));
  await SITE_ASSETS.register(app);
  // The plain names, for links from outside; pages link to the fingerprinted ones.
  await app.register(fastifyStatic, { root: SITE_ASSETS_DIR, prefix: '/assets/', maxAge: '1h' });

  await registerOpenApi(app);
  await app.register(probeRoutes, { database });
  await app.register(helloRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api', auth: services.auth });
  await app.register(loginPages, { auth: services.auth });
  await app.register(readerChoiceRoutes);
  await app.register(userRoutes, { prefix: '/api', users: services.users, baseUrl: config.baseUrl });
  await app.register(memberRoutes, { prefix: '/api', users: services.users, baseUrl: config.baseUrl });
  await app.register(avatarRoutes, { prefix: '/api', avatars: services.avatars });
  await app.register(siteRoutes, { prefix: '/api', site: services.site });
  await app.register(avatarFileRoutes, { avatars: services.avatars });
  await app.register(forumRoutes, { prefix: '/api', forum: services.forum, presenter: services.presenter, baseUrl: config.baseUrl });
  await app.register(categoryRoutes, { prefix: '/api', forum: services.forum });
  await app.register(releaseRoutes, { prefix: '/api', forum: services.forum });
  await app.register(reportRoutes, { prefix: '/api', forum: services.forum, baseUrl: config.baseUrl });
  await app.register(permissionRoutes, { prefix: '/api', forum: services.forum });
  await app.register(groupRoutes, { prefix: '/api', groups: services.groups, baseUrl: config.baseUrl });
  await app.register(searchRoutes, { prefix: '/api', search: services.search });
  await app.register(notificationRoutes, {
    prefix: '/api',
    notifications: services.notifications,
    access: services.forum.access,
    presenter: services.presenter,
    clock,
    baseUrl: config.baseUrl,
  });
  await app.register(pollRoutes, { prefix: '/api', polls: services.forum.polls, presenter: services.presenter });
  await app.register(rankRoutes, { prefix: '/api', ranks: services.ranks });
  const renderPage = (body: string) => services.presenter.staffText(body);
  await app.register(sitePageRoutes, { prefix: '/api', pages: services.sitePages, render: renderPage });
  await app.register(messageRoutes, { prefix: '/api', messages: services.messages, presenter: services.presenter });
  await app.register(massSendRoutes, { prefix: '/api', massSends: services.massSends, subscriptions: services.massMail, baseUrl: config.baseUrl });
  await app.register(banRoutes, { prefix: '/api', bans: services.bans });
  await app.register(wordFilterRoutes, { prefix: '/api/word-filters', wordFilters: services.wordFilters, baseUrl: config.baseUrl });
  await app.register(emojiCatalogRoutes, { prefix: '/api/emoji', emoji: services.emoji, baseUrl: config.baseUrl });
  await app.register(imageUploadRoutes, { prefix: '/api', images: services.images });
  await app.register(imageFileRoutes, { images: services.images });
  await app.register(announceRoutes, { announce: services.tracker.announce });
  await app.register(trackerStatsRoutes, { prefix: '/api', figures: services.tracker.figures });
  await app.register(torrentRoutes, { prefix: '/api', torrents: services.tracker.torrents, baseUrl: config.baseUrl });
  await app.register(thanksRoutes, { prefix: '/api', thanks: services.tracker.thanks, baseUrl: config.baseUrl });
  await app.register(reseedRoutes, { prefix: '/api', reseeds: services.tracker.reseeds, torrents: services.tracker.torrents });

  const pages = new PageRoutes();
  const addons = trackerAddons({
    torrents: services.tracker.torrents,
    thanks: services.tracker.thanks,
    reseeds: services.tracker.reseeds,
    passkeys: services.tracker.passkeys,
    presenter: services.presenter,
    figures: services.tracker.figures,
    clock,
  });
  await app.register(forumPages, {
    pages,
    forum: services.forum,
    presenter: services.presenter,
    users: services.users,
    views: services.topicViews,
    pageCache: services.pageCache,
    ranks: services.ranks,
    profileMail: services.profileMail,
    bans: services.bans,
    search: services.search,
    addons,
    trackerFigures: services.tracker.figures,
    groups: services.groups,
    boardStats: services.boardStats,
    presence: services.presence,
  });
  await app.register(groupPages, { pages, groups: services.groups });
  await app.register(notificationPages, { pages, notifications: services.notifications, access: services.forum.access, presenter: services.presenter, clock });
  await app.register(sitePageView, { pages, sitePages: services.sitePages, render: renderPage });
  await app.register(feedRoutes, { pages, forum: services.forum, presenter: services.presenter, feeds: services.feeds });
  await app.register(sitemapRoutes, { sitemaps: services.sitemaps });
  await app.register(robotsRoute, { site: services.site });
  await app.register(trackerPages, {
    pages,
    torrents: services.tracker.torrents,
    thanks: services.tracker.thanks,
    reseeds: services.tracker.reseeds,
    passkeys: services.tracker.passkeys,
    forum: services.forum,
    presenter: services.presenter,
  });
  await app.register(bonusPages, { pages, bonus: services.tracker.bonus, settings: config.tracker });
  await app.register(accountPages, {
    pages,
    accounts: services.accounts,
    auth: services.auth,
    avatars: services.avatars,
    site: services.site,
    massMail: services.massMail,
  });
  await app.register(messagePages, { pages, messages: services.messages, presenter: services.presenter });
  await app.register(unsubscribePages, { subscriptions: services.massMail });
  await app.register(pages.legacyRoutes);
  await app.register(adminPages, { services });
  await options.startupStep?.();

  return { app, database, services, metrics };
}

/** What start-up has opened, closed newest first, once, each failure logged and the rest still closed. */
class OpenedResources {
  readonly #log: Logger;
  readonly #closers: Array<{ name: string; close: () => Promise<void> }> = [];

  constructor(log: Logger) {
    this.#log = log;
  }

  add(name: string, close: () => Promise<void>): void {
    this.#closers.push({ name, close });
  }

  async closeAll(): Promise<void> {
    for (let closer = this.#closers.pop(); closer !== undefined; closer = this.#closers.pop()) {
      try {
        await closer.close();
      } catch (error) {
        this.#log.error({ err: error }, `closing ${closer.name} failed`);
      }
    }
  }
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

/** Set once per process: ids stay unique across instances and restarts without a random UUID per request. */
const REQUEST_ID_PREFIX = randomBytes(6).toString('base64url');
let requestsSeen = 0;

/** Keep a caller's X-Request-Id when it is a sane token; otherwise the process's prefix and a counter. */
function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming)) return incoming;
  requestsSeen += 1;
  return `${REQUEST_ID_PREFIX}-${requestsSeen.toString(36)}`;
}
