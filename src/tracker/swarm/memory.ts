// The peer store in this process's memory, packed so that a million peers fit
// in a few hundred megabytes (bench/tracker.ts measures bytes per peer).
//
// Every peer is a slot in a set of typed arrays (a column per field), not an
// object: no per-peer header, no pointers for the collector to trace. A swarm
// keeps a Map from the peer's key (user id + peer_id as a 24-character
// one-byte string) to its slot, and two arrays of slots, seeders and
// leechers, from which replies are sampled. Free slots are reused.
import type { AnnounceInput, AnnounceResult, PeerSelection, SeedingPeer, SwarmCounts, SwarmStore, SwarmStoreOptions, SwarmTotals } from './store.ts';
import { EMPTY_SELECTION } from './store.ts';

const SEEDER = 1;
const IPV6 = 2;

interface Swarm {
  id: number;
  slots: Map<string, number>;
  seeders: number[];
  leechers: number[];
  /** Last time this swarm was searched for expired peers (ms). */
  prunedAt: number;
}

const INITIAL_CAPACITY = 1024;

export class MemorySwarmStore implements SwarmStore {
  readonly kind = 'memory' as const;
  readonly #expiryMs: number;
  /** Expired peers of a swarm are searched for at most this often on announce. */
  readonly #pruneEveryMs: number;
  readonly #swarms = new Map<number, Swarm>();
  #capacity = 0;
  #used = 0; // slots ever handed out (high-water mark)
  #free: number[] = [];
  #live = 0;
  #seeders = 0;
  // Columns.
  #swarmOf = new Int32Array(0); // swarm id, -1 when free
  #user = new Uint32Array(0);
  #position = new Uint32Array(0); // index in the swarm's seeders or leechers array
  #flags = new Uint8Array(0);
  #port = new Uint16Array(0);
  #ip = new Uint8Array(0); // 16 bytes a slot (IPv4 in the first 4)
  #peerId = new Uint8Array(0); // 20 bytes a slot
  #uploaded = new Float64Array(0);
  #downloaded = new Float64Array(0);
  #lastSeen = new Float64Array(0);
  #seedSince = new Float64Array(0);

  constructor(options: SwarmStoreOptions) {
    this.#expiryMs = options.expiryMs;
    this.#pruneEveryMs = Math.max(1000, Math.floor(options.expiryMs / 60));
    this.#grow(INITIAL_CAPACITY);
  }

  async announce(input: AnnounceInput): Promise<AnnounceResult> {
    return this.announceNow(input);
  }

  /** The synchronous announce (the memory store never waits). */
  announceNow(input: AnnounceInput): AnnounceResult {
    const { now } = input;
    let swarm = this.#swarms.get(input.swarm);
    if (swarm !== undefined && now - swarm.prunedAt >= this.#pruneEveryMs) {
      this.#prune(swarm, now);
      swarm = this.#swarms.get(input.swarm); // gone when it emptied
    }
    const key = peerKey(input.userId, input.peerId);
    const slot = swarm?.slots.get(key);
    const previous =
      slot === undefined
        ? null
        : {
            uploaded: this.#uploaded[slot]!,
            downloaded: this.#downloaded[slot]!,
            seeder: (this.#flags[slot]! & SEEDER) !== 0,
            lastSeen: this.#lastSeen[slot]!,
          };
    const seeder = input.left === 0;
    const throttled = previous !== null && input.event === '' && now - previous.lastSeen < input.minIntervalMs;

    if (input.event === 'stopped' && !throttled) {
      if (slot !== undefined) this.#remove(swarm!, slot, key);
      const counts = swarm === undefined ? { complete: 0, incomplete: 0 } : this.#countsOf(swarm);
      return { previous, throttled: false, ...counts, peers: EMPTY_SELECTION };
    }

    let self = slot ?? -1;
    if (!throttled) {
      if (swarm === undefined) {
        swarm = { id: input.swarm, slots: new Map(), seeders: [], leechers: [], prunedAt: now };
        this.#swarms.set(input.swarm, swarm);
      }
      if (self === -1) {
        self = this.#allocate();
        swarm.slots.set(key, self);
        this.#swarmOf[self] = input.swarm;
        this.#user[self] = input.userId;
        this.#peerId.set(input.peerId, self * 20);
        this.#flags[self] = 0;
        this.#seedSince[self] = 0;
        this.#live++;
        this.#listAdd(swarm, self, seeder);
      } else if (previous!.seeder !== seeder) {
        this.#listRemove(swarm, self, previous!.seeder);
        this.#listAdd(swarm, self, seeder);
      }
      if (seeder && !(previous?.seeder ?? false)) this.#seedSince[self] = now;
      this.#flags[self] = (seeder ? SEEDER : 0) | (input.ip.length === 16 ? IPV6 : 0);
      this.#ip.fill(0, self * 16, self * 16 + 16);
      this.#ip.set(input.ip, self * 16);
      this.#port[self] = input.port;
      this.#uploaded[self] = input.uploaded;
      this.#downloaded[self] = input.downloaded;
      this.#lastSeen[self] = now;
    }
    const counts = this.#countsOf(swarm!);
    const peers = input.numwant > 0 ? this.#select(swarm!, self, seeder, input.numwant, now) : EMPTY_SELECTION;
    return { previous, throttled, ...counts, peers };
  }

  async counts(swarms: readonly number[], now: number): Promise<SwarmCounts[]> {
    return swarms.map((id) => {
      const swarm = this.#swarms.get(id);
      if (swarm === undefined) return { complete: 0, incomplete: 0 };
      if (now - swarm.prunedAt >= this.#pruneEveryMs) this.#prune(swarm, now);
      return this.#countsOf(swarm);
    });
  }

  async totals(): Promise<SwarmTotals> {
    return { peers: this.#live, seeders: this.#seeders, leechers: this.#live - this.#seeders };
  }

  async seeders(now: number): Promise<SeedingPeer[]> {
    const cutoff = now - this.#expiryMs;
    const result: SeedingPeer[] = [];
    for (const swarm of this.#swarms.values()) {
      for (const slot of swarm.seeders) {
        if (this.#lastSeen[slot]! <= cutoff) continue;
        result.push({ userId: this.#user[slot]!, swarm: swarm.id, seedSince: this.#seedSince[slot]!, lastSeen: this.#lastSeen[slot]! });
      }
    }
    return result;
  }

  async isLeeching(swarm: number, userId: number, peerId: Buffer, now: number): Promise<boolean> {
    const slot = this.#swarms.get(swarm)?.slots.get(peerKey(userId, peerId));
    return slot !== undefined && (this.#flags[slot]! & SEEDER) === 0 && this.#lastSeen[slot]! > now - this.#expiryMs;
  }

  async dropSwarm(id: number): Promise<void> {
    const swarm = this.#swarms.get(id);
    if (swarm === undefined) return;
    for (const [key, slot] of swarm.slots) this.#remove(swarm, slot, key);
    this.#swarms.delete(id);
  }

  async sweep(now: number): Promise<number> {
    let removed = 0;
    for (const swarm of this.#swarms.values()) removed += this.#prune(swarm, now);
    return removed;
  }

  async close(): Promise<void> {
    this.#swarms.clear();
  }

  /** Bytes held by the columns (for the memory benchmark). */
  columnBytes(): number {
    return this.#capacity * (4 + 4 + 4 + 1 + 2 + 16 + 20 + 8 * 4);
  }

  #countsOf(swarm: Swarm): SwarmCounts {
    return { complete: swarm.seeders.length, incomplete: swarm.leechers.length };
  }

  #prune(swarm: Swarm, now: number): number {
    swarm.prunedAt = now;
    const cutoff = now - this.#expiryMs;
    let removed = 0;
    for (const list of [swarm.seeders, swarm.leechers]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const slot = list[i]!;
        if (this.#lastSeen[slot]! > cutoff) continue;
        this.#remove(swarm, slot, peerKey(this.#user[slot]!, this.#peerIdOf(slot)));
        removed++;
        if (i > list.length) i = list.length;
      }
    }
    if (swarm.slots.size === 0) this.#swarms.delete(swarm.id);
    return removed;
  }

  #peerIdOf(slot: number): Buffer {
    return Buffer.from(this.#peerId.buffer, this.#peerId.byteOffset + slot * 20, 20);
  }

  #remove(swarm: Swarm, slot: number, key: string): void {
    this.#listRemove(swarm, slot, (this.#flags[slot]! & SEEDER) !== 0);
    swarm.slots.delete(key);
    this.#swarmOf[slot] = -1;
    this.#free.push(slot);
    this.#live--;
  }

  #listAdd(swarm: Swarm, slot: number, seeder: boolean): void {
    const list = seeder ? swarm.seeders : swarm.leechers;
    this.#position[slot] = list.length;
    list.push(slot);
    if (seeder) this.#seeders++;
  }

  /** Swap-remove: the last entry takes the leaving one's place. */
  #listRemove(swarm: Swarm, slot: number, seeder: boolean): void {
    const list = seeder ? swarm.seeders : swarm.leechers;
    const at = this.#position[slot]!;
    const last = list.pop()!;
    if (last !== slot) {
      list[at] = last;
      this.#position[last] = at;
    }
    if (seeder) this.#seeders--;
  }

  /**
   * Up to `numwant` distinct random peers other than `self`: leechers only for
   * a seeder, seeders and leechers for a leecher (Floyd's sampling: O(numwant)
   * whatever the swarm's size). Expired peers are skipped.
   */
  #select(swarm: Swarm, self: number, seeder: boolean, numwant: number, now: number): PeerSelection {
    const seeders = seeder ? [] : swarm.seeders;
    const leechers = swarm.leechers;
    const size = seeders.length + leechers.length;
    const pick = (index: number): number => (index < seeders.length ? seeders[index]! : leechers[index - seeders.length]!);
    let chosen: number[];
    // One more than wanted, in case self is among them.
    const want = numwant + 1;
    if (want >= size) {
      chosen = new Array<number>(size);
      for (let i = 0; i < size; i++) chosen[i] = pick(i);
      shuffle(chosen);
    } else {
      const taken = new Set<number>();
      chosen = [];
      for (let j = size - want; j < size; j++) {
        const t = Math.floor(Math.random() * (j + 1));
        const index = taken.has(t) ? j : t;
        taken.add(index);
        chosen.push(pick(index));
      }
    }
    const cutoff = now - this.#expiryMs;
    let v4Count = 0;
    let v6Count = 0;
    const kept: number[] = [];
    for (const slot of chosen) {
      if (kept.length === numwant) break;
      if (slot === self || this.#lastSeen[slot]! <= cutoff) continue;
      kept.push(slot);
      if ((this.#flags[slot]! & IPV6) !== 0) v6Count++;
      else v4Count++;
    }
    if (kept.length === 0) return EMPTY_SELECTION;
    const v4 = Buffer.allocUnsafe(v4Count * 6);
    const v4Ids = Buffer.allocUnsafe(v4Count * 20);
    const v6 = Buffer.allocUnsafe(v6Count * 18);
    const v6Ids = Buffer.allocUnsafe(v6Count * 20);
    let i4 = 0;
    let i6 = 0;
    for (const slot of kept) {
      const port = this.#port[slot]!;
      if ((this.#flags[slot]! & IPV6) !== 0) {
        v6.set(this.#ip.subarray(slot * 16, slot * 16 + 16), i6 * 18);
        v6.writeUInt16BE(port, i6 * 18 + 16);
        v6Ids.set(this.#peerId.subarray(slot * 20, slot * 20 + 20), i6 * 20);
        i6++;
      } else {
        v4.set(this.#ip.subarray(slot * 16, slot * 16 + 4), i4 * 6);
        v4.writeUInt16BE(port, i4 * 6 + 4);
        v4Ids.set(this.#peerId.subarray(slot * 20, slot * 20 + 20), i4 * 20);
        i4++;
      }
    }
    return { v4, v4Ids, v6, v6Ids };
  }

  #allocate(): number {
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#used === this.#capacity) this.#grow(this.#capacity * 2);
    return this.#used++;
  }

  #grow(capacity: number): void {
    const grow = <T extends Int32Array | Uint32Array | Uint8Array | Uint16Array | Float64Array>(old: T, make: (n: number) => T, width = 1): T => {
      const next = make(capacity * width);
      next.set(old as unknown as ArrayLike<number>);
      return next;
    };
    this.#swarmOf = grow(this.#swarmOf, (n) => new Int32Array(n));
    this.#user = grow(this.#user, (n) => new Uint32Array(n));
    this.#position = grow(this.#position, (n) => new Uint32Array(n));
    this.#flags = grow(this.#flags, (n) => new Uint8Array(n));
    this.#port = grow(this.#port, (n) => new Uint16Array(n));
    this.#ip = grow(this.#ip, (n) => new Uint8Array(n), 16);
    this.#peerId = grow(this.#peerId, (n) => new Uint8Array(n), 20);
    this.#uploaded = grow(this.#uploaded, (n) => new Float64Array(n));
    this.#downloaded = grow(this.#downloaded, (n) => new Float64Array(n));
    this.#lastSeen = grow(this.#lastSeen, (n) => new Float64Array(n));
    this.#seedSince = grow(this.#seedSince, (n) => new Float64Array(n));
    this.#capacity = capacity;
  }
}

/** User id (4 bytes) + peer_id (20 bytes) as a one-byte string: a compact, exact Map key. */
function peerKey(userId: number, peerId: Buffer): string {
  return String.fromCharCode(userId & 0xff, (userId >>> 8) & 0xff, (userId >>> 16) & 0xff, userId >>> 24) + peerId.toString('latin1', 0, 20);
}

function shuffle(items: number[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const swap = items[i]!;
    items[i] = items[j]!;
    items[j] = swap;
  }
}
