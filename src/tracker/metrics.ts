// The tracker's figures on /metrics (docs/operations.md): announces and
// scrapes answered by outcome, the swarms' peers, registered torrents and the
// accounting queue. Announces bypass Fastify, so the HTTP request counters
// never see them: these are the tracker's own. Counts are read from plain
// fields the hot path increments; peers and torrents are read when scraped.
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { MetricsRegistry } from '../system/metrics.ts';
import type { TrackerServices } from './services.ts';

export function registerTrackerFigures(registry: MetricsRegistry, tracker: TrackerServices, database: DatabaseHandle): void {
  const { counts } = tracker.announce;
  const byOutcome = (figures: { ok: number; refused: number; error: number }) =>
    (['ok', 'refused', 'error'] as const).map((result) => ({ labels: { result }, value: figures[result] }));
  registry.gauge(
    'tracker_announces_total',
    'Announces answered: ok, refused with a failure reason, or failed inside (also answered)',
    () => byOutcome(counts.announces),
    'counter',
  );
  registry.gauge('tracker_scrapes_total', 'Scrapes answered, by the same outcomes as announces', () => byOutcome(counts.scrapes), 'counter');
  registry.gauge('tracker_peers', 'Peers in the swarms now (this store: shared when in Redis)', async () => {
    const totals = await tracker.swarm.totals();
    return [
      { labels: { role: 'seeder' }, value: totals.seeders },
      { labels: { role: 'leecher' }, value: totals.leechers },
    ];
  });
  registry.gauge('tracker_torrents', 'Registered torrents', async () => {
    const row = await sql<{ count: number | string }>`select count(*) as count from torrents`.execute(database.db);
    return Number(row.rows[0]?.count ?? 0);
  });
  registry.gauge('tracker_accounting_pending', 'User and torrent pairs counted by this instance and not yet written', () => tracker.accounting.pending);
  registry.gauge(
    'tracker_accounting_flushes_total',
    'Accounting queues written, and those that failed (their rows wait for the next flush)',
    () => [
      { labels: { result: 'written' }, value: tracker.accounting.flushes.written },
      { labels: { result: 'failed' }, value: tracker.accounting.flushes.failed },
    ],
    'counter',
  );
}
