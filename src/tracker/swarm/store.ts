// The peer store: who is in which swarm right now. One interface, two
// implementations (memory.ts for one process, redis.ts when REDIS_URL is set
// so that every instance answers an announce the same way); both pass the
// same tests (test/tracker/swarm.test.ts).
//
// A swarm is named by the torrent's id (a hybrid torrent's v1 and v2 hashes
// name one swarm because both resolve to one torrent). A peer is
// (user, swarm, peer_id); the passkey resolves to the user before the store
// is asked, so a rotated passkey keeps the peer's counters.

export type PeerEvent = 'started' | 'completed' | 'stopped' | 'paused' | '';

export interface AnnounceInput {
  swarm: number;
  userId: number;
  /** 20 raw bytes. */
  peerId: Buffer;
  /** 4 bytes (IPv4) or 16 bytes (IPv6). */
  ip: Buffer;
  port: number;
  uploaded: number;
  downloaded: number;
  left: number;
  event: PeerEvent;
  /** Peers wanted in the answer (0 allowed). */
  numwant: number;
  /** Milliseconds since the epoch. */
  now: number;
  /**
   * A peer heard from sooner than this (ms) that announces without an event
   * is answered from the store as it is: nothing about it is updated, so the
   * next accounted announce still measures from the last accounted counters.
   */
  minIntervalMs: number;
}

/** The peer as the store knew it before this announce. */
export interface PreviousPeer {
  uploaded: number;
  downloaded: number;
  seeder: boolean;
  /** When it last announced (ms). */
  lastSeen: number;
}

/** Peers for the reply: compact entries, with each entry's peer_id in the same order. */
export interface PeerSelection {
  /** 6-byte entries: IPv4 address, port (big-endian). */
  v4: Buffer;
  /** 20-byte peer ids of the v4 entries, in order. */
  v4Ids: Buffer;
  /** 18-byte entries: IPv6 address, port. */
  v6: Buffer;
  v6Ids: Buffer;
}

export interface AnnounceResult {
  previous: PreviousPeer | null;
  /** True when the announce came sooner than min interval and changed nothing. */
  throttled: boolean;
  /** Seeders and leechers in the swarm after this announce. */
  complete: number;
  incomplete: number;
  peers: PeerSelection;
}

export interface SwarmCounts {
  complete: number;
  incomplete: number;
}

export interface SwarmTotals {
  peers: number;
  seeders: number;
  leechers: number;
}

/** A seeding peer as the seed-bonus job sees it. */
export interface SeedingPeer {
  userId: number;
  swarm: number;
  /** When this peer last became a seeder (ms). */
  seedSince: number;
  lastSeen: number;
}

export interface SwarmStore {
  readonly kind: 'memory' | 'redis';
  /** Records the announce (or removes the peer on `stopped`) and picks peers for the reply. */
  announce(input: AnnounceInput): Promise<AnnounceResult>;
  /** Seeders and leechers of each swarm, in the order asked (zeros for an empty swarm). */
  counts(swarms: readonly number[], now: number): Promise<SwarmCounts[]>;
  /** Peers in all swarms. Expired peers may be included until the next sweep. */
  totals(): Promise<SwarmTotals>;
  /** Every live seeder, for the seed bonus. */
  seeders(now: number): Promise<SeedingPeer[]>;
  /** Is this peer in the swarm, alive and still downloading (a download in progress)? */
  isLeeching(swarm: number, userId: number, peerId: Buffer, now: number): Promise<boolean>;
  /** Drops the whole swarm (torrent deleted or frozen). */
  dropSwarm(swarm: number): Promise<void>;
  /** Removes peers not heard from for the expiry time. */
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
}

export interface SwarmStoreOptions {
  /** A peer not heard from for this long (ms) is gone: 1.5 × the announce interval. */
  expiryMs: number;
}

export const EMPTY_SELECTION: PeerSelection = Object.freeze({ v4: Buffer.alloc(0), v4Ids: Buffer.alloc(0), v6: Buffer.alloc(0), v6Ids: Buffer.alloc(0) });
