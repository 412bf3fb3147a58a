// Counters for rate limits and login throttling. In memory by default; in
// Redis when REDIS_URL is set, so every instance shares one budget. When Redis
// is unreachable each limiter falls back to an in-memory twin (and the outage
// is logged), and goes back to Redis by itself once it answers again.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimiterFactory {
  /** `points` per `durationSeconds` window, counters under the name `name`. */
  create(name: string, points: number, durationSeconds: number): RateLimiterAbstract;
  /** Resolves once the shared store answers, or after a short wait without it. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const CONNECT_WAIT_MS = 2000;

export function createLimiterFactory(redisUrl: string | null, log: Logger): LimiterFactory {
  if (redisUrl === null) {
    return {
      create: (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration }),
      ready: async () => {},
      close: async () => {},
    };
  }

  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false, // fail fast while disconnected; the insurance limiter answers
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
  let healthy = true;
  redis.on('ready', () => {
    if (!healthy) log.info('Redis is back; rate limits are shared again');
    healthy = true;
  });
  redis.on('error', (error: Error) => {
    if (healthy) log.warn({ err: error }, 'Redis unreachable; rate limits fall back to this process’s memory');
    healthy = false;
  });

  return {
    create: (name, points, duration) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `forum:${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration }),
      }),
    // Start with shared counters when Redis is there, without holding start-up hostage when it is not.
    ready: () =>
      redis.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CONNECT_WAIT_MS);
            redis.once('ready', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
    close: async () => {
      redis.disconnect();
    },
  };
}
