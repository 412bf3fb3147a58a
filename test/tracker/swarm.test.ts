// One suite, run against both peer stores (Redis when TEST_REDIS_URL is set).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MemorySwarmStore } from '../../src/tracker/swarm/memory.ts';
import { RedisSwarmStore } from '../../src/tracker/swarm/redis.ts';
import type { AnnounceInput, PeerSelection, SwarmStore } from '../../src/tracker/swarm/store.ts';

const EXPIRY = 2700_000; // 1.5 × 1800 s
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

interface StoreKind {
  name: string;
  create(): Promise<SwarmStore>;
}

const kinds: StoreKind[] = [{ name: 'memory', create: async () => new MemorySwarmStore({ expiryMs: EXPIRY }) }];
const redisUrl = process.env['TEST_REDIS_URL'];
if (redisUrl) {
  kinds.push({
    name: 'redis',
    create: async () => new RedisSwarmStore(redisUrl, { expiryMs: EXPIRY, prefix: `test-tracker-${randomBytes(6).toString('hex')}:` }),
  });
}

let peerCounter = 0;
function peerId(): Buffer {
  const id = Buffer.alloc(20);
  id.write('-TS0001-', 'latin1');
  id.writeUInt32BE(++peerCounter, 16);
  // Bytes a UTF-8 decoder would mangle, so they must survive untouched.
  id[10] = 0xff;
  id[11] = 0x00;
  return id;
}

function v4(last: number): Buffer {
  return Buffer.from([127, 0, 0, last]);
}

function announce(overrides: Partial<AnnounceInput> & Pick<AnnounceInput, 'swarm' | 'userId' | 'peerId'>): AnnounceInput {
  return { ip: v4(1), port: 6881, uploaded: 0, downloaded: 0, left: 100, event: 'started', numwant: 50, now: T0, minIntervalMs: 0, ...overrides };
}

/** The peers of a selection as "address:port" strings with their peer ids. */
function listed(peers: PeerSelection): Array<{ address: string; peerId: string }> {
  const out: Array<{ address: string; peerId: string }> = [];
  for (let i = 0; i < peers.v4.length / 6; i++) {
    const entry = peers.v4.subarray(i * 6, i * 6 + 6);
    out.push({
      address: `${entry[0]}.${entry[1]}.${entry[2]}.${entry[3]}:${entry.readUInt16BE(4)}`,
      peerId: peers.v4Ids.subarray(i * 20, i * 20 + 20).toString('hex'),
    });
  }
  for (let i = 0; i < peers.v6.length / 18; i++) {
    const entry = peers.v6.subarray(i * 18, i * 18 + 18);
    out.push({
      address: `[${entry.subarray(0, 16).toString('hex')}]:${entry.readUInt16BE(16)}`,
      peerId: peers.v6Ids.subarray(i * 20, i * 20 + 20).toString('hex'),
    });
  }
  return out;
}

for (const kind of kinds) {
  describe(`[${kind.name}] swarm store`, () => {
    let store: SwarmStore;
    let swarmCounter = 0;
    const nextSwarm = () => ++swarmCounter;
    before(async () => {
      store = await kind.create();
    });
    after(async () => {
      if (store instanceof RedisSwarmStore) await store.clear();
      await store.close();
    });

    it('records a new peer, reports no previous state, and counts it as a leecher', async () => {
      const swarm = nextSwarm();
      const result = await store.announce(announce({ swarm, userId: 1, peerId: peerId() }));
      assert.equal(result.previous, null);
      assert.equal(result.throttled, false);
      assert.deepEqual([result.complete, result.incomplete], [0, 1]);
      assert.deepEqual(listed(result.peers), []);
    });

    it('returns the previous counters on the next announce', async () => {
      const swarm = nextSwarm();
      const id = peerId();
      await store.announce(announce({ swarm, userId: 1, peerId: id, uploaded: 1000, downloaded: 2000, left: 50 }));
      const second = await store.announce(
        announce({ swarm, userId: 1, peerId: id, uploaded: 5000, downloaded: 9000, left: 10, event: '', now: T0 + 1800_000 }),
      );
      assert.deepEqual(second.previous, { uploaded: 1000, downloaded: 2000, seeder: false, lastSeen: T0 });
      const third = await store.announce(announce({ swarm, userId: 1, peerId: id, event: '', now: T0 + 3600_000 }));
      assert.equal(third.previous?.uploaded, 5000);
      assert.equal(third.previous?.downloaded, 9000);
    });

    it('keeps peers apart by user and by peer_id, and counters beyond 2^32 exactly', async () => {
      const swarm = nextSwarm();
      const id = peerId();
      const big = 2 ** 40 + 7;
      await store.announce(announce({ swarm, userId: 1, peerId: id, uploaded: big }));
      const other = await store.announce(announce({ swarm, userId: 2, peerId: id }));
      assert.equal(other.previous, null, 'the same peer_id under another user is another peer');
      assert.equal(other.incomplete, 2);
      const again = await store.announce(announce({ swarm, userId: 1, peerId: id, event: '', now: T0 + 1000 }));
      assert.equal(again.previous?.uploaded, big);
    });

    it('never lists the requesting peer, and lists the others with their addresses and peer ids', async () => {
      const swarm = nextSwarm();
      const ids = [peerId(), peerId(), peerId()];
      for (const [i, id] of ids.entries()) await store.announce(announce({ swarm, userId: 10 + i, peerId: id, ip: v4(10 + i), port: 7000 + i }));
      const result = await store.announce(announce({ swarm, userId: 10, peerId: ids[0]!, ip: v4(10), port: 7000, event: '', now: T0 + 1 }));
      const peers = listed(result.peers).sort((a, b) => a.address.localeCompare(b.address));
      assert.deepEqual(peers, [
        { address: '127.0.0.11:7001', peerId: ids[1]!.toString('hex') },
        { address: '127.0.0.12:7002', peerId: ids[2]!.toString('hex') },
      ]);
    });

    it('gives a seeder leechers only, and a leecher both', async () => {
      const swarm = nextSwarm();
      const seeders = [peerId(), peerId()];
      const leechers = [peerId(), peerId()];
      for (const [i, id] of seeders.entries()) await store.announce(announce({ swarm, userId: 20 + i, peerId: id, left: 0, ip: v4(20 + i) }));
      for (const [i, id] of leechers.entries()) await store.announce(announce({ swarm, userId: 30 + i, peerId: id, ip: v4(30 + i) }));
      const asSeeder = await store.announce(announce({ swarm, userId: 20, peerId: seeders[0]!, left: 0, event: '', now: T0 + 1 }));
      assert.deepEqual(new Set(listed(asSeeder.peers).map((p) => p.peerId)), new Set(leechers.map((id) => id.toString('hex'))));
      assert.deepEqual([asSeeder.complete, asSeeder.incomplete], [2, 2]);
      const asLeecher = await store.announce(announce({ swarm, userId: 30, peerId: leechers[0]!, event: '', now: T0 + 1 }));
      assert.deepEqual(new Set(listed(asLeecher.peers).map((p) => p.peerId)), new Set([...seeders, leechers[1]!].map((id) => id.toString('hex'))));
    });

    it('honours numwant and picks at random', async () => {
      const swarm = nextSwarm();
      for (let i = 0; i < 60; i++) await store.announce(announce({ swarm, userId: 100 + i, peerId: peerId(), ip: v4(i + 1) }));
      const me = peerId();
      const seen = new Set<string>();
      for (let round = 0; round < 5; round++) {
        const result = await store.announce(announce({ swarm, userId: 99, peerId: me, numwant: 10, event: round === 0 ? 'started' : '', now: T0 + round }));
        const peers = listed(result.peers);
        assert.equal(peers.length, 10);
        assert.equal(new Set(peers.map((p) => p.peerId)).size, 10, 'no peer twice in one answer');
        assert.ok(!peers.some((p) => p.peerId === me.toString('hex')));
        for (const peer of peers) seen.add(peer.peerId);
      }
      assert.ok(seen.size > 15, `five answers of 10 from 60 peers should not repeat the same ten (saw ${seen.size})`);
      const none = await store.announce(announce({ swarm, userId: 99, peerId: me, numwant: 0, event: '', now: T0 + 10 }));
      assert.deepEqual(listed(none.peers), []);
    });

    it('keeps IPv6 peers apart from IPv4 ones (peers6 entries of 18 bytes)', async () => {
      const swarm = nextSwarm();
      const ip6 = Buffer.from('20010db8000000000000000000000001', 'hex');
      const six = peerId();
      await store.announce(announce({ swarm, userId: 40, peerId: six, ip: ip6, port: 51413 }));
      const result = await store.announce(announce({ swarm, userId: 41, peerId: peerId() }));
      assert.equal(result.peers.v4.length, 0);
      assert.deepEqual(listed(result.peers), [{ address: '[20010db8000000000000000000000001]:51413', peerId: six.toString('hex') }]);
    });

    it('moves a peer from leecher to seeder when left reaches 0', async () => {
      const swarm = nextSwarm();
      const id = peerId();
      await store.announce(announce({ swarm, userId: 50, peerId: id, left: 10 }));
      const done = await store.announce(announce({ swarm, userId: 50, peerId: id, left: 0, event: 'completed', now: T0 + 1000 }));
      assert.deepEqual([done.complete, done.incomplete], [1, 0]);
      assert.equal(done.previous?.seeder, false);
      const seeders = (await store.seeders(T0 + 2000)).filter((peer) => peer.swarm === swarm);
      assert.deepEqual(seeders, [{ userId: 50, swarm, seedSince: T0 + 1000, lastSeen: T0 + 1000 }]);
    });

    it('removes a peer on stopped and returns its last counters', async () => {
      const swarm = nextSwarm();
      const id = peerId();
      await store.announce(announce({ swarm, userId: 60, peerId: id, uploaded: 10 }));
      const stopped = await store.announce(announce({ swarm, userId: 60, peerId: id, uploaded: 30, event: 'stopped', now: T0 + 5000 }));
      assert.equal(stopped.previous?.uploaded, 10);
      assert.deepEqual([stopped.complete, stopped.incomplete], [0, 0]);
      const again = await store.announce(announce({ swarm, userId: 60, peerId: id, now: T0 + 6000 }));
      assert.equal(again.previous, null);
    });

    it('answers a re-announce sooner than min interval without recording anything', async () => {
      const swarm = nextSwarm();
      const id = peerId();
      await store.announce(announce({ swarm, userId: 70, peerId: id, uploaded: 100, minIntervalMs: 900_000 }));
      await store.announce(announce({ swarm, userId: 71, peerId: peerId() }));
      const early = await store.announce(announce({ swarm, userId: 70, peerId: id, uploaded: 999, event: '', now: T0 + 60_000, minIntervalMs: 900_000 }));
      assert.equal(early.throttled, true);
      assert.equal(listed(early.peers).length, 1, 'the answer still carries peers');
      const later = await store.announce(announce({ swarm, userId: 70, peerId: id, uploaded: 2000, event: '', now: T0 + 1000_000, minIntervalMs: 900_000 }));
      assert.equal(later.throttled, false);
      assert.deepEqual(later.previous, { uploaded: 100, downloaded: 0, seeder: false, lastSeen: T0 }, 'the early announce changed nothing');
    });

    it('drops peers not heard from for 1.5 × interval: not counted, not listed, swept', async () => {
      const swarm = nextSwarm();
      const stale = peerId();
      await store.announce(announce({ swarm, userId: 80, peerId: stale, left: 0 }));
      const later = T0 + EXPIRY + 1;
      const fresh = await store.announce(announce({ swarm, userId: 81, peerId: peerId(), now: later }));
      assert.deepEqual([fresh.complete, fresh.incomplete], [0, 1]);
      assert.deepEqual(listed(fresh.peers), []);
      assert.deepEqual(await store.counts([swarm], later), [{ complete: 0, incomplete: 1 }]);
      assert.equal((await store.seeders(later)).filter((peer) => peer.swarm === swarm).length, 0);
      const back = await store.announce(announce({ swarm, userId: 80, peerId: stale, left: 0, now: later + 1 }));
      assert.equal(back.previous, null, 'an expired peer starts over');
    });

    it('counts swarms for scrape and totals for the statistics', async () => {
      const a = nextSwarm();
      const b = nextSwarm();
      const before = await store.totals();
      await store.announce(announce({ swarm: a, userId: 90, peerId: peerId(), left: 0 }));
      await store.announce(announce({ swarm: a, userId: 91, peerId: peerId() }));
      await store.announce(announce({ swarm: b, userId: 92, peerId: peerId() }));
      assert.deepEqual(await store.counts([a, b, 999_999], T0 + 1), [
        { complete: 1, incomplete: 1 },
        { complete: 0, incomplete: 1 },
        { complete: 0, incomplete: 0 },
      ]);
      const totals = await store.totals();
      assert.deepEqual([totals.seeders - before.seeders, totals.leechers - before.leechers, totals.peers - before.peers], [1, 2, 3]);
      await store.dropSwarm(a);
      assert.deepEqual(await store.counts([a], T0 + 1), [{ complete: 0, incomplete: 0 }]);
      const dropped = await store.totals();
      assert.equal(dropped.peers - before.peers, 1);
    });

    it('drops empty, seeders-only and leechers-only swarms, keeping the totals exact', async () => {
      const empty = nextSwarm();
      const seedersOnly = nextSwarm();
      const leechersOnly = nextSwarm();
      const before = await store.totals();
      await store.announce(announce({ swarm: seedersOnly, userId: 96, peerId: peerId(), left: 0 }));
      await store.announce(announce({ swarm: seedersOnly, userId: 97, peerId: peerId(), left: 0 }));
      await store.announce(announce({ swarm: leechersOnly, userId: 98, peerId: peerId() }));
      for (const swarm of [empty, seedersOnly, leechersOnly]) await store.dropSwarm(swarm);
      await store.dropSwarm(seedersOnly); // twice: nothing left to take away
      assert.deepEqual(await store.counts([empty, seedersOnly, leechersOnly], T0 + 1), [
        { complete: 0, incomplete: 0 },
        { complete: 0, incomplete: 0 },
        { complete: 0, incomplete: 0 },
      ]);
      assert.deepEqual(await store.totals(), before);
    });

    it('sweeps expired peers out of the totals', async () => {
      const swarm = nextSwarm();
      await store.announce(announce({ swarm, userId: 95, peerId: peerId(), now: T0 - 10 * EXPIRY }));
      const before = await store.totals();
      const removed = await store.sweep(T0 - 10 * EXPIRY + EXPIRY + 1);
      assert.ok(removed >= 1);
      const afterSweep = await store.totals();
      assert.ok(afterSweep.peers <= before.peers - 1);
    });
  });
}
