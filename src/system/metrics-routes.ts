// GET /metrics: Prometheus figures for operators, never for the public.
// With METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>`
// (401 otherwise). Without it, only clients on this machine are answered:
// the socket's address must be loopback and, unless TRUST_PROXY lets
// X-Forwarded-For name the real client, the request must not have come
// through a proxy (X-Forwarded-For or Forwarded present). Others get 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import packageJson from '../../package.json' with { type: 'json' };
import { sameSecret } from '../auth/secrets.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { errorEnvelope } from '../http/errors.ts';
import type { MetricsRegistry } from './metrics.ts';

/** Seconds; from a cache hit to a slow page. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  registry: MetricsRegistry;
  database: DatabaseHandle;
  token: string | null;
  trustProxy: boolean;
}

export function installMetrics(app: FastifyInstance, { registry, database, token, trustProxy }: MetricsOptions): void {
  const requests = registry.counter('http_requests_total', 'HTTP requests answered, by method, route pattern and status', ['method', 'route', 'status']);
  const latency = registry.histogram(
    'http_request_duration_seconds',
    'Time from request to response, by method and route pattern',
    ['method', 'route'],
    LATENCY_BUCKETS,
  );

  // Route patterns, not URLs, so the number of series stays bounded. The
  // series of each (route, method) are looked up once and kept: per request
  // this is two Map lookups by strings Fastify reuses, and a status lookup.
  interface RouteSeries {
    latency: { observe(seconds: number): void };
    statuses: Map<number, { value: number }>;
  }
  const routes = new Map<string, Map<string, RouteSeries>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    let methods = routes.get(route);
    if (methods === undefined) routes.set(route, (methods = new Map()));
    let series = methods.get(request.method);
    if (series === undefined) methods.set(request.method, (series = { latency: latency.series([request.method, route]), statuses: new Map() }));
    let counter = series.statuses.get(reply.statusCode);
    if (counter === undefined) series.statuses.set(reply.statusCode, (counter = requests.series([request.method, route, String(reply.statusCode)])));
    counter.value += 1;
    series.latency.observe(reply.elapsedTime / 1000);
    done();
  });

  registerDatabaseFigures(registry, database);
  registerProcessFigures(app, registry);

  // Answered in the JSON envelope (like the probes), never as an HTML page: scrapers read it.
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (token !== null) {
      const given = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameSecret(given, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        return reply.code(401).send(errorEnvelope('UNAUTHENTICATED', 'A valid metrics token is required.'));
      }
      return;
    }
    if (!fromThisMachine(request, trustProxy)) return reply.code(404).send(errorEnvelope('NOT_FOUND', 'Not found.'));
  };

  app.get('/metrics', { schema: { hide: true }, preValidation: guard }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return registry.render();
  });
}

function fromThisMachine(request: FastifyRequest, trustProxy: boolean): boolean {
  if (!trustProxy && (request.headers['x-forwarded-for'] !== undefined || request.headers['forwarded'] !== undefined)) return false;
  const address = request.ip;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function registerDatabaseFigures(registry: MetricsRegistry, database: DatabaseHandle): void {
  const { stats } = database;
  registry.gauge('db_queries_total', 'Database queries run by this instance', () => stats.queries, 'counter');
  registry.gauge('db_query_errors_total', 'Database queries that failed', () => stats.failedQueries, 'counter');
  registry.gauge('db_query_seconds_total', 'Time spent in database queries', () => stats.querySeconds, 'counter');
  if (database.dialect === 'postgres') {
    registry.gauge('db_pool_connections', 'PostgreSQL pool connections by state (waiting: requests queued for one)', () => {
      const pool = stats.pool();
      return pool === null
        ? []
        : [
            { labels: { state: 'total' }, value: pool.total },
            { labels: { state: 'idle' }, value: pool.idle },
            { labels: { state: 'waiting' }, value: pool.waiting },
          ];
    });
  }
  registry.gauge('db_up', 'Whether the database answered a trivial query during this scrape', async () => {
    try {
      await database.ping();
      return 1;
    } catch {
      return 0;
    }
  });
}

function registerProcessFigures(app: FastifyInstance, registry: MetricsRegistry): void {
  // eslint-disable-next-line no-restricted-syntax -- metrics: the process's real start
  const started = Date.now() / 1000 - process.uptime();
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  app.addHook('onClose', async () => {
    loopDelay.disable();
  });
  registry.gauge('forum_info', 'Service and runtime version', () => [{ labels: { version: packageJson.version, node: process.versions.node }, value: 1 }]);
  registry.gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch', () => started);
  registry.gauge(
    'process_cpu_seconds_total',
    'User and system CPU time spent',
    () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1e6;
    },
    'counter',
  );
  registry.gauge('process_resident_memory_bytes', 'Resident memory size', () => process.memoryUsage.rss());
  registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use', () => process.memoryUsage().heapUsed);
  registry.gauge('nodejs_eventloop_delay_seconds', 'Event-loop delay since the previous scrape, by quantile', () => {
    const figures = [
      { labels: { quantile: '0.5' }, value: loopDelay.percentile(50) / 1e9 },
      { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
      { labels: { quantile: '1' }, value: loopDelay.max / 1e9 },
    ];
    loopDelay.reset();
    return figures;
  });
}
