// /api/torrents/{id}/reseed (docs/tracker.md, "Reseed"): when a seeder was
// last seen and when the last call to reseed went out, for whoever may see
// the torrent; and a member's call, once a day per torrent.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { assertUser, requireUser } from '../auth/guard.ts';
import { DataOf, IdParams, Nullable, errorResponses } from '../http/schemas.ts';
import { isoSeconds } from '../http/timestamps.ts';
import type { Reseeds } from './reseed.ts';
import type { TorrentView } from './torrents/service.ts';
import type { AuthUser } from '../auth/service.ts';

const ReseedResource = Type.Object({
  last_seeder_at: Nullable(Type.String({ format: 'date-time', description: 'When a seeder last announced; null: never seen' })),
  last_call_at: Nullable(Type.String({ format: 'date-time', description: 'When a reseed was last asked for' })),
  next_call_at: Nullable(Type.String({ format: 'date-time', description: 'When the next call may be made; null: now (if the torrent has no seeder)' })),
});

const TAGS = ['torrents'];

export const reseedRoutes: FastifyPluginAsyncTypebox<{
  reseeds: Reseeds;
  torrents: { get(id: number, viewer: AuthUser | null): Promise<TorrentView> };
}> = async (app, { reseeds, torrents }) => {
  const stamp = (value: string | null) => (value === null ? null : isoSeconds(value));

  app.get(
    '/torrents/:id/reseed',
    {
      schema: {
        tags: TAGS,
        summary: 'When a seeder was last seen, and the last call to reseed',
        params: IdParams,
        response: { 200: DataOf(ReseedResource), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      await torrents.get(request.params.id, request.user);
      const state = await reseeds.state(request.params.id);
      return { data: { last_seeder_at: stamp(state.lastSeederAt), last_call_at: stamp(state.lastCallAt), next_call_at: stamp(state.nextCallAt) } };
    },
  );

  app.post(
    '/torrents/:id/reseed',
    {
      preValidation: requireUser(),
      schema: {
        tags: TAGS,
        summary: 'Ask everyone who completed the torrent to seed it again (no seeder now; you downloaded it; once a day per torrent)',
        security: [{ bearer: [] }],
        params: IdParams,
        response: {
          200: DataOf(Type.Object({ asked: Type.Integer({ description: 'Members who completed it' }) })),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
    },
    async (request) => ({ data: { asked: await reseeds.call(request.params.id, assertUser(request)) } }),
  );
};
