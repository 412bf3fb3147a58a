// The tracker's services, built once over the shared database (see src/services.ts).
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { peerLifetimeMs } from './config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { TrackerAccounting } from './accounting.ts';
import { batchWriterFor } from './accounting-writers.ts';
import { TrackerDirectory } from './announce/directory.ts';
import { AnnounceService } from './announce/service.ts';
import { SeedBonus } from './bonus.ts';
import { TrackerFigures } from './figures.ts';
import { PasskeyService } from './passkeys.ts';
import { createSwarmStore } from './swarm/index.ts';
import type { SwarmStore } from './swarm/store.ts';
import { TorrentsRepository } from './torrents/repository.ts';
import { TorrentsService, type TopicFinder } from './torrents/service.ts';
import { Thanks } from './thanks.ts';
import { Reseeds } from './reseed.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { TopicNaming } from '../forum/mails.ts';
import type { NotificationStore } from '../notifications/store.ts';

export interface TrackerServices {
  passkeys: PasskeyService;
  /** The registry: torrents on topics, statuses, downloads. */
  torrents: TorrentsService;
  /** Members' thanks for releases (thanks.ts). */
  thanks: Thanks;
  /** Calls to reseed and the last seeder seen (reseed.ts). */
  reseeds: Reseeds;
  /** Cached passkey, user and torrent look-ups of the announce path. */
  directory: TrackerDirectory;
  /** Who is in which swarm now (memory, or Redis when REDIS_URL is set). */
  swarm: SwarmStore;
  accounting: TrackerAccounting;
  announce: AnnounceService;
  bonus: SeedBonus;
  /** Per-user and site-wide figures (profiles, bonus page, stats API). */
  figures: TrackerFigures;
  /** Starts the background work (accounting flushes, expiry sweeps). */
  start(): void;
  /** Writes what is queued and stops the background work (app close, SIGTERM). */
  stop(): Promise<void>;
}

/** How often expired peers are swept out of the store. */
const SWEEP_MS = 60_000;

export function createTrackerServices(
  database: DatabaseHandle,
  config: Config,
  log: Logger,
  topics: TopicFinder,
  tell: { notifications: NotificationStore; mailer: Mailer; naming: TopicNaming },
  clock: Clock,
): TrackerServices {
  const settings = config.tracker;
  const passkeys = new PasskeyService(database.db, database.changes, clock);
  // One clock for every time rule of the tracker (tests move it): the announce path, the swarm's expiry,
  // the accounting windows, the seed bonus. Clock.nowMs() makes no Date, so the hot path stays cheap.
  const now = () => clock.nowMs();
  const directory = new TrackerDirectory(database.db, database, topics.access, passkeys, settings.ratio, clock, (error) =>
    log.warn({ err: error }, 'telling other instances that tracker members changed failed'),
  );
  const peerLifetime = peerLifetimeMs(settings);
  const swarm = createSwarmStore(config.redisUrl, {
    expiryMs: peerLifetime,
    redisPrefix: settings.redisPrefix,
    onError: throttledWarning(log, 'Redis peer store unreachable; announces are refused until it is back'),
  });
  const accounting = new TrackerAccounting(batchWriterFor(config.database, database), log, {
    maxSpeedBytesPerSecond: settings.maxSpeedBytesPerSecond,
    peerLifetimeMs: peerLifetime,
    // Uploads wait for the swarm's downloads for two announce intervals: every peer of the swarm has announced by then.
    claimWindowMs: settings.announceInterval * 2000,
    now,
    onCompleted: (torrentId, count) => directory.completed(torrentId, count),
  });
  const announce = new AnnounceService(
    directory,
    swarm,
    accounting,
    {
      interval: settings.announceInterval,
      minInterval: settings.minInterval,
      numwantDefault: settings.numwant.default,
      numwantMax: settings.numwant.max,
    },
    now,
  );
  const bonus = new SeedBonus(database.db, database.dialect, swarm, settings, log, clock);
  const figures = new TrackerFigures(database.db, swarm, settings.ratio, peerLifetime, clock);
  const torrents = new TorrentsService(new TorrentsRepository(database.db, database.dialect), topics, passkeys, swarm, database.changes, settings, clock, log);
  let sweeper: NodeJS.Timeout | undefined;
  return {
    passkeys,
    torrents,
    thanks: new Thanks(database.db, torrents, tell.notifications, clock),
    reseeds: new Reseeds(database.db, torrents, tell, clock),
    directory,
    swarm,
    accounting,
    announce,
    bonus,
    figures,
    start() {
      accounting.start();
      bonus.start();
      sweeper = setInterval(() => {
        swarm.sweep(now()).catch((error: unknown) => log.warn({ err: error }, 'sweeping expired peers failed'));
      }, SWEEP_MS);
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      bonus.stop();
      try {
        await accounting.stop();
      } finally {
        await swarm.close();
      }
    },
  };
}

/** Logs a recurring error at most once a minute (wall time: logging). */
function throttledWarning(log: Logger, message: string): (error: Error) => void {
  let last = 0;
  return (error) => {
    // eslint-disable-next-line no-restricted-syntax -- logging: how often a warning is written is wall time
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    log.warn({ err: error }, message);
  };
}
