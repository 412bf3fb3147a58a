// Requests per minute for every /api response: per user when authenticated,
// per client address otherwise. Headers say where the caller stands; past
// the limit the answer is 429 with Retry-After.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { isApiRequest } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import type { LimiterFactory } from './limiters.ts';

const WINDOW_SECONDS = 60;
/** The API's browsable documentation (its page, scripts and styles) is not counted. */
const DOCS_PREFIX = '/api/docs';

export function installRateLimits(app: FastifyInstance, limiters: LimiterFactory, limits: { authenticated: number; guest: number }): void {
  const users = limiters.create('api_user', limits.authenticated, WINDOW_SECONDS);
  const guests = limiters.create('api_guest', limits.guest, WINDOW_SECONDS);

  // Registered after authentication, so request.user is known here. Which
  // requests count is decided on the route reached (or the normalized path),
  // never on the spelling of the URL: /%61pi/hello is /api/hello.
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiRequest(request) || request.routeOptions.url?.startsWith(DOCS_PREFIX) === true) return;
    const [limiter, key, limit]: [RateLimiterAbstract, string, number] =
      request.user !== null ? [users, `u${request.user.id}`, limits.authenticated] : [guests, request.ip, limits.guest];
    try {
      setHeaders(reply, limit, await limiter.consume(key));
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const res = rejection as RateLimiterRes;
      setHeaders(reply, limit, res);
      const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new ApiError('RATE_LIMITED', 'Too many requests. Please slow down.', {
        details: { limit, retry_after: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  });
}

function setHeaders(reply: FastifyReply, limit: number, res: RateLimiterRes): void {
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', Math.max(0, res.remainingPoints));
  // eslint-disable-next-line no-restricted-syntax -- the limiter library keeps its windows in real time (src/clock.ts)
  reply.header('x-ratelimit-reset', Math.ceil((Date.now() + res.msBeforeNext) / 1000));
}
