// The tracker's settings, read from the environment by src/config.ts (the
// `tracker` member of Config). Defaults are tracker.md's.

export const GIB = 1024 ** 3;

export interface BonusTier {
  /** The tier applies from this many seeded torrents on (the first tier starts at 1). */
  fromTorrents: number;
  /** Points earned per hour of seeding, in hundredths (1 point = 100). */
  hundredthsPerHour: number;
}

export interface TrackerConfig {
  /** Seconds a client should wait between announces. */
  announceInterval: number;
  /** Seconds under which a re-announce without an event is answered without new accounting. */
  minInterval: number;
  /** Largest .torrent accepted on upload, in bytes. */
  maxTorrentBytes: number;
  /** .torrent downloads per user per day (the last 24 hours). */
  dailyDownloads: number;
  ratio: RatioRule;
  numwant: { default: number; max: number };
  /** Bytes per second above which a transfer delta is implausible and not counted. */
  maxSpeedBytesPerSecond: number;
  /** Key prefix of the swarm store in Redis (instances of one site share it). */
  redisPrefix: string;
  bonus: {
    /** Seconds between two runs of the seed-bonus job. */
    intervalSeconds: number;
    /** Ordered by fromTorrents, the first from 1. */
    tiers: BonusTier[];
    /** Upload credit offered in exchange, in GiB. */
    offersGib: number[];
    /** Price of one GiB of upload credit, in hundredths of a point. */
    hundredthsPerGib: number;
  };
}

/** Below `minimum` ratio after `afterBytes` downloaded: no new downloads, no leeching. */
export interface RatioRule {
  /** 0 turns the rule off. */
  minimum: number;
  /** The rule (and the ratio on profiles) applies from this many bytes downloaded. */
  afterBytes: number;
}

/** How long a peer counts as present after its last announce: 1.5 announce intervals (the swarm store, accounting and figures alike). */
export function peerLifetimeMs(config: Pick<TrackerConfig, 'announceInterval'>): number {
  return config.announceInterval * 1500;
}

export const TRACKER_DEFAULTS: TrackerConfig = {
  announceInterval: 1800,
  minInterval: 300,
  maxTorrentBytes: 1024 * 1024,
  dailyDownloads: 50,
  ratio: { minimum: 0.3, afterBytes: 10 * GIB },
  numwant: { default: 50, max: 200 },
  maxSpeedBytesPerSecond: 1_250_000_000, // 10 Gbit/s
  redisPrefix: 'tracker:',
  bonus: {
    intervalSeconds: 600,
    tiers: [
      { fromTorrents: 1, hundredthsPerHour: 100 },
      { fromTorrents: 11, hundredthsPerHour: 200 },
      { fromTorrents: 21, hundredthsPerHour: 300 },
      { fromTorrents: 51, hundredthsPerHour: 400 },
    ],
    offersGib: [1, 5, 10, 20, 50],
    hundredthsPerGib: 1000,
  },
};

/** The environment variables, as documented in docs/tracker.md. */
export const TRACKER_VARIABLES = {
  announceInterval: 'TRACKER_ANNOUNCE_INTERVAL',
  minInterval: 'TRACKER_MIN_INTERVAL',
  maxTorrentBytes: 'TRACKER_MAX_TORRENT_BYTES',
  dailyDownloads: 'TRACKER_DAILY_DOWNLOADS',
  ratioMinimum: 'TRACKER_RATIO_MINIMUM',
  ratioAfterGib: 'TRACKER_RATIO_AFTER_GIB',
  numwantDefault: 'TRACKER_NUMWANT_DEFAULT',
  numwantMax: 'TRACKER_NUMWANT_MAX',
  maxSpeed: 'TRACKER_MAX_SPEED',
  bonusInterval: 'TRACKER_BONUS_INTERVAL',
  bonusTiers: 'TRACKER_BONUS_TIERS',
  bonusOffers: 'TRACKER_BONUS_OFFERS_GIB',
  bonusPointsPerGib: 'TRACKER_BONUS_POINTS_PER_GIB',
  redisPrefix: 'TRACKER_REDIS_PREFIX',
} as const;

/**
 * The shortest announce interval accepted, in seconds. Clients built on
 * libtorrent (qBittorrent, Deluge, libtorrent's own tools) announce at most
 * every 300 s whatever the tracker asks; a peer is dropped 1.5 intervals after
 * its last announce, so a shorter interval drops them between announces, and
 * their next announce finds no previous counters and credits nothing.
 */
export const MIN_ANNOUNCE_INTERVAL = 300;

type Read = (name: string) => string | undefined;
type Fail = (name: string, problem: string) => never;

export function loadTrackerConfig(read: Read, fail: Fail): TrackerConfig {
  const v = TRACKER_VARIABLES;
  const d = TRACKER_DEFAULTS;
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) fail(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
    return Number(raw);
  };
  const decimal = (name: string, fallback: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > max) fail(name, `must be a number from 0 to ${max} (got "${raw}")`);
    return Number(raw);
  };
  const hundredths = (name: string, raw: string, min: number): number => {
    if (!/^\d+(\.\d{1,2})?$/.test(raw) || Number(raw) < min) fail(name, `needs point values with at most two decimals, at least ${min} (got "${raw}")`);
    return Math.round(Number(raw) * 100);
  };

  const announceInterval = integer(v.announceInterval, d.announceInterval, MIN_ANNOUNCE_INTERVAL, 86_400);
  const minInterval = integer(v.minInterval, Math.min(d.minInterval, announceInterval), 0, announceInterval);
  const numwantMax = integer(v.numwantMax, d.numwant.max, 1, 1000);
  const numwantDefault = integer(v.numwantDefault, Math.min(d.numwant.default, numwantMax), 0, numwantMax);

  let tiers = d.bonus.tiers;
  const rawTiers = read(v.bonusTiers);
  if (rawTiers !== undefined) {
    tiers = rawTiers.split(',').map((part) => {
      const match = /^\s*(\d+)\s*:\s*([\d.]+)\s*$/.exec(part);
      if (match === null) fail(v.bonusTiers, `must list "fromTorrents:pointsPerHour" pairs such as "1:1,11:2,21:3,51:4" (got "${rawTiers}")`);
      return { fromTorrents: Number(match[1]), hundredthsPerHour: hundredths(v.bonusTiers, match[2]!, 0) };
    });
    const ascending = tiers.every((tier, index) => index === 0 || tier.fromTorrents > tiers[index - 1]!.fromTorrents);
    if (tiers[0]?.fromTorrents !== 1 || !ascending) fail(v.bonusTiers, `must start at 1 torrent and go up (got "${rawTiers}")`);
  }

  let offersGib = d.bonus.offersGib;
  const rawOffers = read(v.bonusOffers);
  if (rawOffers !== undefined) {
    offersGib = rawOffers.split(',').map((part) => {
      const trimmed = part.trim();
      if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 100_000)
        fail(v.bonusOffers, `must list whole GiB amounts from 1 to 100000 such as "1,5,10" (got "${rawOffers}")`);
      return Number(trimmed);
    });
  }
  const rawPrice = read(v.bonusPointsPerGib);

  return {
    announceInterval,
    minInterval,
    maxTorrentBytes: integer(v.maxTorrentBytes, d.maxTorrentBytes, 1024, 64 * 1024 * 1024),
    dailyDownloads: integer(v.dailyDownloads, d.dailyDownloads, 1, 1_000_000),
    ratio: {
      minimum: decimal(v.ratioMinimum, d.ratio.minimum, 100),
      afterBytes: Math.round(decimal(v.ratioAfterGib, d.ratio.afterBytes / GIB, 1_000_000) * GIB),
    },
    numwant: { default: numwantDefault, max: numwantMax },
    maxSpeedBytesPerSecond: integer(v.maxSpeed, d.maxSpeedBytesPerSecond, 1024, Number.MAX_SAFE_INTEGER),
    redisPrefix: read(v.redisPrefix) ?? d.redisPrefix,
    bonus: {
      intervalSeconds: integer(v.bonusInterval, d.bonus.intervalSeconds, 10, 86_400),
      tiers,
      offersGib,
      hundredthsPerGib: rawPrice === undefined ? d.bonus.hundredthsPerGib : hundredths(v.bonusPointsPerGib, rawPrice, 0.01),
    },
  };
}
