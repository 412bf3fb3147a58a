// GET /api/tracker/stats: the tracker's figures for everyone (same envelope,
// rate limits and OpenAPI entry as the rest of the API).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TrackerFigures } from './figures.ts';

const Bytes = (description: string) => Type.Integer({ minimum: 0, description });

export const TrackerStats = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    torrents: Type.Integer({ minimum: 0, description: 'Registered torrents' }),
    peers: Type.Integer({ minimum: 0, description: 'Peers in all swarms now' }),
    seeders: Type.Integer({ minimum: 0, description: 'Peers with the whole torrent' }),
    leechers: Type.Integer({ minimum: 0, description: 'Peers still downloading' }),
    total_size: Bytes('Bytes of all registered torrents'),
    transfer: Type.Object({
      uploaded: Bytes('Bytes uploaded, as counted by the tracker (with upload credit bought with bonus points)'),
      downloaded: Bytes('Bytes downloaded, as counted (after freeleech)'),
    }),
  }),
});

export const trackerStatsRoutes: FastifyPluginAsyncTypebox<{ figures: TrackerFigures }> = async (app, { figures }) => {
  app.get(
    '/tracker/stats',
    {
      schema: { tags: ['tracker'], summary: 'Tracker statistics: torrents, peers, size and transfer', response: { 200: TrackerStats } },
    },
    async () => ({ success: true as const, data: await figures.site() }),
  );
};
