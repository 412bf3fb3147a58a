// Announce and scrape: parse the query → the rules (tracker.md) → the swarm
// store → accounting → a bencoded answer. Every outcome is a body to send
// with status 200; refusals are `failure reason` dictionaries.
//
// The hot path: no template, no session, no ORM object. The passkey and the
// torrent come from caches (directory.ts) that the change feed empties.
import type { ReaderPermissions } from '../../forum/permissions.ts';
import type { PeerEvent, SwarmStore } from '../swarm/store.ts';
import { addressBytes, isPeerAddress } from './address.ts';
import { TrackerRequestError, binary20, count, flag, parseRawQuery, text } from './query.ts';
import { compactReply, dictionaryReply, failureReply, scrapeReply, type ScrapeEntry } from './reply.ts';

/** A user as the tracker needs them. */
export interface TrackerUser {
  id: number;
  status: 'pending' | 'active' | 'banned';
}

export type Freeleech = 'none' | 'silver' | 'gold';

/** A registered torrent as the tracker needs it. */
export interface TrackerTorrent {
  id: number;
  /** The forum of its topic: whose `download` right announcing it needs (docs/access.md). */
  forumId: number;
  /** The frozen status's name when announces are refused (closed, duplicate, …); null otherwise. */
  frozen: string | null;
  freeleech: Freeleech;
  /** Times completed (`downloaded` in replies). */
  completed: number;
}

/** Cached look-ups (directory.ts). */
export interface AnnounceDirectory {
  userByPasskey(passkey: string): Promise<TrackerUser | null>;
  /** By the v1 hash or the first 20 bytes of the v2 hash. */
  torrentByHash(hash: Buffer): Promise<TrackerTorrent | null>;
  /** What this (known) user may do in each forum, by the forum's rule (docs/access.md). */
  permissions(userId: number): Promise<Pick<ReaderPermissions, 'may'>>;
  /** Why this user may not start leeching (ratio rule), or null when they may. */
  leechRefusal(userId: number): Promise<string | null>;
}

/** What accounting.ts is told about each accounted announce. */
export interface AnnounceRecord {
  userId: number;
  torrent: TrackerTorrent;
  event: PeerEvent;
  uploaded: number;
  downloaded: number;
  left: number;
  previous: { uploaded: number; downloaded: number; seeder: boolean; lastSeen: number } | null;
  now: number;
}

export interface AnnounceAccounting {
  record(record: AnnounceRecord): void;
}

export interface AnnounceSettings {
  /** Seconds between announces (`interval`). */
  interval: number;
  /** Seconds a client must wait before announcing again (`min interval`). */
  minInterval: number;
  /** Peers per answer when the client does not say, and at most. */
  numwantDefault: number;
  numwantMax: number;
}

/** Hashes one scrape may ask about (BEP 48 gives no limit; trackers cap it). */
export const SCRAPE_MAX_HASHES = 150;

const EVENTS: ReadonlySet<string> = new Set(['started', 'completed', 'stopped', 'paused', '']);

/** Requests answered since start, by outcome (read by /metrics). */
export interface TrackerCounts {
  announces: { ok: number; refused: number; error: number };
  scrapes: { ok: number; refused: number; error: number };
}

export class AnnounceService {
  /** Plain increments on the hot path; /metrics reads them when scraped. */
  readonly counts: TrackerCounts = { announces: { ok: 0, refused: 0, error: 0 }, scrapes: { ok: 0, refused: 0, error: 0 } };
  readonly #directory: AnnounceDirectory;
  readonly #store: SwarmStore;
  readonly #accounting: AnnounceAccounting;
  readonly #settings: AnnounceSettings;
  readonly #now: () => number;

  constructor(directory: AnnounceDirectory, store: SwarmStore, accounting: AnnounceAccounting, settings: AnnounceSettings, now: () => number) {
    this.#directory = directory;
    this.#store = store;
    this.#accounting = accounting;
    this.#settings = settings;
    this.#now = now;
  }

  /** `url`: the raw request URL; `remoteAddress`: the connection's (or the trusted proxy's forwarded) address. */
  async announce(url: string, remoteAddress: string): Promise<Buffer> {
    try {
      const body = await this.#announce(url, remoteAddress);
      this.counts.announces.ok += 1;
      return body;
    } catch (error) {
      if (!(error instanceof TrackerRequestError)) {
        this.counts.announces.error += 1;
        throw error;
      }
      this.counts.announces.refused += 1;
      return this.failure(error.message);
    }
  }

  async scrape(url: string): Promise<Buffer> {
    try {
      const body = await this.#scrape(url);
      this.counts.scrapes.ok += 1;
      return body;
    } catch (error) {
      if (!(error instanceof TrackerRequestError)) {
        this.counts.scrapes.error += 1;
        throw error;
      }
      this.counts.scrapes.refused += 1;
      return this.failure(error.message);
    }
  }

  failure(reason: string): Buffer {
    return failureReply(reason, this.#settings.interval);
  }

  async #announce(url: string, remoteAddress: string): Promise<Buffer> {
    const query = parseRawQuery(url);
    const user = await this.#user(text(query, 'uk'));
    const infoHash = binary20(query, 'info_hash');
    const peerId = binary20(query, 'peer_id');
    const port = count(query, 'port');
    if (port < 1024 || port > 65535) throw new TrackerRequestError('Port must be between 1024 and 65535.');
    const uploaded = count(query, 'uploaded');
    const downloaded = count(query, 'downloaded');
    const left = count(query, 'left');
    const event = text(query, 'event') ?? '';
    if (!EVENTS.has(event)) throw new TrackerRequestError('Malformed event: use started, completed, stopped or paused.');
    const numwant = Math.min(count(query, 'numwant', this.#settings.numwantDefault), this.#settings.numwantMax);
    const compact = flag(query, 'compact', true);
    const withPeerIds = !flag(query, 'no_peer_id', false);
    // ip / ipv4 / ipv6 are BEP 7 hints only: the address is the connection's.
    const ip = addressBytes(remoteAddress);
    if (ip === null) throw new TrackerRequestError('Your address could not be read.');
    if (!isPeerAddress(ip)) throw new TrackerRequestError('Your address cannot be given to other peers.');

    const torrent = await this.#directory.torrentByHash(infoHash);
    if (torrent === null) throw new TrackerRequestError(UNREGISTERED);
    const refusal = forumRefusal(await this.#directory.permissions(user.id), torrent);
    if (refusal !== null) throw new TrackerRequestError(refusal);
    if (torrent.frozen !== null) throw new TrackerRequestError(`Torrent is not available (status: ${torrent.frozen}).`);
    const now = this.#now();
    // The ratio rule, on every announce of a leecher: only a download already in progress (a peer the
    // swarm knows as leeching, continuing its session) goes on; a new session or another client does not.
    if (left > 0) {
      const refusal = await this.#directory.leechRefusal(user.id);
      if (refusal !== null && (event === 'started' || !(await this.#store.isLeeching(torrent.id, user.id, peerId, now)))) {
        throw new TrackerRequestError(refusal);
      }
    }

    const result = await this.#store.announce({
      swarm: torrent.id,
      userId: user.id,
      peerId,
      ip,
      port,
      uploaded,
      downloaded,
      left,
      event: event as PeerEvent,
      numwant,
      now,
      minIntervalMs: this.#settings.minInterval * 1000,
    });
    if (!result.throttled) {
      this.#accounting.record({ userId: user.id, torrent, event: event as PeerEvent, uploaded, downloaded, left, previous: result.previous, now });
    }
    const figures = {
      complete: result.complete,
      incomplete: result.incomplete,
      downloaded: torrent.completed,
      interval: this.#settings.interval,
      minInterval: this.#settings.minInterval,
    };
    return compact ? compactReply(figures, result.peers) : dictionaryReply(figures, result.peers, withPeerIds);
  }

  async #scrape(url: string): Promise<Buffer> {
    const query = parseRawQuery(url);
    const user = await this.#user(text(query, 'uk'));
    const hashes = query.get('info_hash') ?? [];
    if (hashes.length > SCRAPE_MAX_HASHES) throw new TrackerRequestError(`At most ${SCRAPE_MAX_HASHES} info_hash parameters per scrape.`);
    const found: Array<{ hash: Buffer; torrent: TrackerTorrent }> = [];
    let permissions: Pick<ReaderPermissions, 'may'> | undefined;
    for (const hash of hashes) {
      if (hash.length !== 20) throw new TrackerRequestError('Malformed info_hash: it must be 20 bytes, percent-encoded.');
      const torrent = await this.#directory.torrentByHash(hash);
      if (torrent === null || torrent.frozen !== null) continue;
      // Left out like an unknown hash where the owner may not download (docs/access.md).
      permissions ??= await this.#directory.permissions(user.id);
      if (forumRefusal(permissions, torrent) === null) found.push({ hash, torrent });
    }
    const counts = await this.#store.counts(
      found.map((entry) => entry.torrent.id),
      this.#now(),
    );
    const entries: ScrapeEntry[] = found.map((entry, i) => ({
      hash: entry.hash,
      complete: counts[i]!.complete,
      incomplete: counts[i]!.incomplete,
      downloaded: entry.torrent.completed,
    }));
    return scrapeReply(entries);
  }

  async #user(passkey: string | undefined): Promise<TrackerUser> {
    if (passkey === undefined || passkey === '') throw new TrackerRequestError('Missing passkey: download the .torrent again from the site.');
    const user = /^[A-Za-z0-9]{20}$/.test(passkey) ? await this.#directory.userByPasskey(passkey) : null;
    if (user === null) throw new TrackerRequestError('Unknown passkey: download the .torrent again from the site.');
    if (user.status === 'banned') throw new TrackerRequestError('Your account is banned.');
    if (user.status !== 'active') throw new TrackerRequestError('Your account is not active.');
    return user;
  }
}

const UNREGISTERED = 'Torrent not registered with this tracker.';

/**
 * Why the passkey's owner may not announce this torrent by its forum's rule
 * (docs/access.md, `download`), or null: a forum that does not exist for them
 * is answered as an unknown torrent, one they see without the right says so.
 */
function forumRefusal(permissions: Pick<ReaderPermissions, 'may'>, torrent: TrackerTorrent): string | null {
  if (!permissions.may(torrent.forumId, 'view')) return UNREGISTERED;
  if (!permissions.may(torrent.forumId, 'download')) return 'Downloading torrents in this forum needs a right you do not have.';
  return null;
}
