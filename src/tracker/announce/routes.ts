// GET /bt/announce(.php) and /bt/scrape(.php): every answer is 200 text/plain
// with a bencoded dictionary, refusals included (tracker.md). The handlers
// read the raw URL (info_hash and peer_id are raw bytes); Fastify's parsed
// query is not used. Outside the API rate limits and the session lookup.
// Over a real socket these paths are answered before Fastify sees them
// (raw-listener.ts); these routes serve app.inject and the same answers.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AnnounceService } from './service.ts';
import { TRACKER_FAILURE_TEXT } from './raw-listener.ts';

export interface AnnounceRouteOptions {
  announce: AnnounceService;
}

export const TRACKER_PATH_PREFIX = '/bt/';

export async function announceRoutes(app: FastifyInstance, options: AnnounceRouteOptions): Promise<void> {
  const { announce } = options;
  const send = (reply: FastifyReply, body: Buffer) =>
    reply.code(200).header('content-type', 'text/plain').header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').send(body);
  const hide = { schema: { hide: true } };

  for (const path of ['/bt/announce.php', '/bt/announce']) {
    app.get(path, hide, async (request, reply) => {
      try {
        return send(reply, await announce.announce(request.raw.url ?? '', request.ip));
      } catch (error) {
        request.log.error({ err: error }, 'announce failed');
        return send(reply, announce.failure(TRACKER_FAILURE_TEXT));
      }
    });
  }
  for (const path of ['/bt/scrape.php', '/bt/scrape']) {
    app.get(path, hide, async (request, reply) => {
      try {
        return send(reply, await announce.scrape(request.raw.url ?? ''));
      } catch (error) {
        request.log.error({ err: error }, 'scrape failed');
        return send(reply, announce.failure(TRACKER_FAILURE_TEXT));
      }
    });
  }
}
