// The peer store in Redis, so that several instances answer every announce
// alike. An announce is one round trip: a Lua script reads the peer's
// previous state, records the new one, counts the swarm and samples peers.
//
// Keys (prefix `tracker:`):
//   s:{id}:p   hash   member → packed peer (counters, times, peer_id, address)
//   s:{id}:S   zset   seeders, scored by last announce (ms)
//   s:{id}:L   zset   leechers, likewise
//   swarms     zset   swarm id → last announce in it (for the sweep)
//   totals     hash   seeders, leechers over all swarms
// A member is the user id (4 bytes) followed by the raw 20-byte peer_id.
import { Redis } from 'ioredis';
import type { AnnounceInput, AnnounceResult, PeerSelection, SeedingPeer, SwarmCounts, SwarmStore, SwarmStoreOptions, SwarmTotals } from './store.ts';
import { EMPTY_SELECTION } from './store.ts';

const PREFIX = 'tracker:';

// Packed peer: >ddddB = uploaded, downloaded, lastSeen, seedSince, seeder
// (33 bytes), then the 20-byte peer_id, then the 6- or 18-byte compact address.
const COMMON = `
local prefix = ARGV[1]
local function keys(id) return prefix .. 's:' .. id .. ':p', prefix .. 's:' .. id .. ':S', prefix .. 's:' .. id .. ':L' end
local function expire(id, cutoff)
  local h, S, L = keys(id)
  for _, pair in ipairs({{S, 'seeders'}, {L, 'leechers'}}) do
    local gone = redis.call('ZRANGEBYSCORE', pair[1], '-inf', cutoff, 'LIMIT', 0, 500)
    if #gone > 0 then
      redis.call('ZREM', pair[1], unpack(gone))
      redis.call('HDEL', h, unpack(gone))
      redis.call('HINCRBY', prefix .. 'totals', pair[2], -#gone)
    end
  end
end
`;

const ANNOUNCE = `${COMMON}
local id = ARGV[2]
local member = ARGV[3]
local now = tonumber(ARGV[4])
local cutoff = tonumber(ARGV[5])
local minInterval = tonumber(ARGV[6])
local event = ARGV[7]
local seeder = ARGV[8] == '1'
local numwant = tonumber(ARGV[9])
local up = tonumber(ARGV[10])
local down = tonumber(ARGV[11])
local tail = ARGV[12]
local h, S, L = keys(id)
expire(id, cutoff)
local prev = redis.call('HGET', h, member)
local prevSeeder, prevSeen, prevSince = false, 0, 0
if prev then
  local _u, _d, seen, since, flag = struct.unpack('>ddddB', prev)
  prevSeeder, prevSeen, prevSince = flag == 1, seen, since
end
local throttled = prev and event == '' and (now - prevSeen) < minInterval
local totals = prefix .. 'totals'
if event == 'stopped' and not throttled then
  if prev then
    redis.call('HDEL', h, member)
    if prevSeeder then redis.call('ZREM', S, member); redis.call('HINCRBY', totals, 'seeders', -1)
    else redis.call('ZREM', L, member); redis.call('HINCRBY', totals, 'leechers', -1) end
  end
  return {prev or false, 0, redis.call('ZCARD', S), redis.call('ZCARD', L)}
end
if not throttled then
  local since = 0
  if seeder then
    if prev and prevSeeder then since = prevSince else since = now end
  end
  redis.call('HSET', h, member, struct.pack('>ddddB', up, down, now, since, seeder and 1 or 0) .. tail)
  if prev and prevSeeder ~= seeder then
    if prevSeeder then redis.call('ZREM', S, member); redis.call('HINCRBY', totals, 'seeders', -1)
    else redis.call('ZREM', L, member); redis.call('HINCRBY', totals, 'leechers', -1) end
  end
  if (not prev) or prevSeeder ~= seeder then
    redis.call('HINCRBY', totals, seeder and 'seeders' or 'leechers', 1)
  end
  redis.call('ZADD', seeder and S or L, now, member)
  redis.call('ZADD', prefix .. 'swarms', now, id)
end
local reply = {prev or false, throttled and 1 or 0, redis.call('ZCARD', S), redis.call('ZCARD', L)}
if numwant > 0 then
  local chosen = {}
  local sources = seeder and {L} or {S, L}
  for _, z in ipairs(sources) do
    local some = redis.call('ZRANDMEMBER', z, numwant + 1)
    for _, m in ipairs(some) do if m ~= member then chosen[#chosen + 1] = m end end
  end
  if #chosen > 0 then
    local values = redis.call('HMGET', h, unpack(chosen))
    for _, v in ipairs(values) do
      if v then reply[#reply + 1] = string.sub(v, 34) end
    end
  end
end
return reply
`;

const SWEEP = `${COMMON}
local cutoff = tonumber(ARGV[2])
local ids = redis.call('ZRANGEBYSCORE', prefix .. 'swarms', '-inf', '+inf', 'LIMIT', tonumber(ARGV[3]), tonumber(ARGV[4]))
local removed = 0
for _, id in ipairs(ids) do
  local h, S, L = keys(id)
  local before = redis.call('HLEN', h)
  expire(id, cutoff)
  local after = redis.call('HLEN', h)
  removed = removed + before - after
  if after == 0 then redis.call('ZREM', prefix .. 'swarms', id) end
end
return {#ids, removed}
`;

// Lua numbers are doubles: negating an empty set's count gives -0, which
// Redis refuses as an increment ("value is not an integer"); empty sets are skipped.
const DROP = `
local prefix = ARGV[1]
local id = ARGV[2]
local h, S, L = prefix .. 's:' .. id .. ':p', prefix .. 's:' .. id .. ':S', prefix .. 's:' .. id .. ':L'
for _, pair in ipairs({{S, 'seeders'}, {L, 'leechers'}}) do
  local n = redis.call('ZCARD', pair[1])
  if n > 0 then redis.call('HINCRBY', prefix .. 'totals', pair[2], 0 - n) end
end
redis.call('DEL', h, S, L)
redis.call('ZREM', prefix .. 'swarms', id)
return 1
`;

interface ScriptedRedis extends Redis {
  trackerAnnounce(...args: Array<string | number | Buffer>): Promise<Array<Buffer | number | null>>;
  trackerSweep(...args: Array<string | number>): Promise<[number, number]>;
  trackerDrop(...args: string[]): Promise<number>;
}

export class RedisSwarmStore implements SwarmStore {
  readonly kind = 'redis' as const;
  readonly #redis: ScriptedRedis;
  readonly #expiryMs: number;
  readonly #prefix: string;

  /** `prefix` separates key spaces (tests use a fresh one per run). */
  constructor(url: string, options: SwarmStoreOptions & { prefix?: string; onError?: (error: Error) => void }) {
    this.#expiryMs = options.expiryMs;
    this.#prefix = options.prefix ?? PREFIX;
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: (attempt) => Math.min(attempt * 200, 2000) });
    // While Redis is away, announces answer with a failure reason (routes.ts) and ioredis reconnects by itself.
    redis.on('error', options.onError ?? (() => {}));
    redis.defineCommand('trackerAnnounce', { numberOfKeys: 0, lua: ANNOUNCE });
    redis.defineCommand('trackerSweep', { numberOfKeys: 0, lua: SWEEP });
    redis.defineCommand('trackerDrop', { numberOfKeys: 0, lua: DROP });
    this.#redis = redis as ScriptedRedis;
  }

  async announce(input: AnnounceInput): Promise<AnnounceResult> {
    const seeder = input.left === 0;
    const tail = Buffer.allocUnsafe(20 + input.ip.length + 2);
    input.peerId.copy(tail, 0, 0, 20);
    input.ip.copy(tail, 20);
    tail.writeUInt16BE(input.port, 20 + input.ip.length);
    const reply = await (this.#redis as unknown as { trackerAnnounceBuffer: ScriptedRedis['trackerAnnounce'] }).trackerAnnounceBuffer(
      this.#prefix,
      String(input.swarm),
      member(input.userId, input.peerId),
      input.now,
      input.now - this.#expiryMs,
      input.minIntervalMs,
      input.event,
      seeder ? '1' : '0',
      input.numwant,
      input.uploaded,
      input.downloaded,
      tail,
    );
    const packed = reply[0] as Buffer | null;
    const previous =
      packed === null || packed === undefined
        ? null
        : {
            uploaded: packed.readDoubleBE(0),
            downloaded: packed.readDoubleBE(8),
            lastSeen: packed.readDoubleBE(16),
            seeder: packed[32] === 1,
          };
    const peers = reply.length > 4 ? selection(reply.slice(4) as Buffer[], input.numwant) : EMPTY_SELECTION;
    return { previous, throttled: reply[1] === 1, complete: reply[2] as number, incomplete: reply[3] as number, peers };
  }

  async counts(swarms: readonly number[], now: number): Promise<SwarmCounts[]> {
    if (swarms.length === 0) return [];
    const cutoff = `(${now - this.#expiryMs}`;
    const pipeline = this.#redis.pipeline();
    for (const id of swarms) {
      pipeline.zcount(`${this.#prefix}s:${id}:S`, cutoff, '+inf');
      pipeline.zcount(`${this.#prefix}s:${id}:L`, cutoff, '+inf');
    }
    const results = (await pipeline.exec()) ?? [];
    return swarms.map((_, i) => ({ complete: Number(check(results[2 * i])), incomplete: Number(check(results[2 * i + 1])) }));
  }

  async totals(): Promise<SwarmTotals> {
    const [seeders, leechers] = await this.#redis.hmget(`${this.#prefix}totals`, 'seeders', 'leechers');
    const s = Math.max(0, Number(seeders ?? 0));
    const l = Math.max(0, Number(leechers ?? 0));
    return { peers: s + l, seeders: s, leechers: l };
  }

  async seeders(now: number): Promise<SeedingPeer[]> {
    const cutoff = now - this.#expiryMs;
    const ids = await this.#redis.zrange(`${this.#prefix}swarms`, '0', '-1');
    const result: SeedingPeer[] = [];
    for (let start = 0; start < ids.length; start += 200) {
      const batch = ids.slice(start, start + 200);
      const pipeline = this.#redis.pipeline();
      for (const id of batch) pipeline.zrangebyscoreBuffer(`${this.#prefix}s:${id}:S`, `(${cutoff}`, '+inf');
      const members = (await pipeline.exec()) ?? [];
      const values = this.#redis.pipeline();
      const asked: Array<{ swarm: number; members: Buffer[] }> = [];
      batch.forEach((id, i) => {
        const list = check(members[i]) as Buffer[];
        if (list.length === 0) return;
        asked.push({ swarm: Number(id), members: list });
        values.hmgetBuffer(`${this.#prefix}s:${id}:p`, ...list);
      });
      if (asked.length === 0) continue;
      const packed = (await values.exec()) ?? [];
      asked.forEach(({ swarm, members: list }, i) => {
        const rows = check(packed[i]) as Array<Buffer | null>;
        rows.forEach((value, j) => {
          if (value === null) return;
          result.push({ userId: list[j]!.readUInt32LE(0), swarm, seedSince: value.readDoubleBE(24), lastSeen: value.readDoubleBE(16) });
        });
      });
    }
    return result;
  }

  async isLeeching(swarm: number, userId: number, peerId: Buffer, now: number): Promise<boolean> {
    const packed = await this.#redis.hgetBuffer(`${this.#prefix}s:${swarm}:p`, member(userId, peerId));
    return packed !== null && packed[32] === 0 && packed.readDoubleBE(16) > now - this.#expiryMs;
  }

  async dropSwarm(swarm: number): Promise<void> {
    await this.#redis.trackerDrop(this.#prefix, String(swarm));
  }

  async sweep(now: number): Promise<number> {
    let removed = 0;
    const batch = 500;
    // Swarms that empty are removed from the index as we go, so offsets shift: walk until a pass sees no more.
    for (let offset = 0; ;) {
      const [seen, gone] = await this.#redis.trackerSweep(this.#prefix, now - this.#expiryMs, offset, batch);
      removed += gone;
      if (seen < batch) break;
      const left = await this.#redis.zcard(`${this.#prefix}swarms`);
      offset = Math.min(offset + batch, left);
      if (offset >= left) break;
    }
    return removed;
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }

  /** Deletes every key of this store's prefix (tests). */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.#redis.scan(cursor, 'MATCH', `${this.#prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await this.#redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

function member(userId: number, peerId: Buffer): Buffer {
  const key = Buffer.allocUnsafe(24);
  key.writeUInt32LE(userId >>> 0, 0);
  peerId.copy(key, 4, 0, 20);
  return key;
}

function check(result: [Error | null, unknown] | undefined): unknown {
  if (result === undefined) throw new Error('Redis pipeline answered short');
  if (result[0] !== null) throw result[0];
  return result[1];
}

/** Entries (peer_id + compact address), shuffled and cut to `numwant`, as compact lists. */
function selection(entries: Buffer[], numwant: number): PeerSelection {
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const swap = entries[i]!;
    entries[i] = entries[j]!;
    entries[j] = swap;
  }
  const kept = entries.length > numwant ? entries.slice(0, numwant) : entries;
  const v4 = kept.filter((entry) => entry.length === 26);
  const v6 = kept.filter((entry) => entry.length === 38);
  return {
    v4: Buffer.concat(v4.map((entry) => entry.subarray(20))),
    v4Ids: Buffer.concat(v4.map((entry) => entry.subarray(0, 20))),
    v6: Buffer.concat(v6.map((entry) => entry.subarray(20))),
    v6Ids: Buffer.concat(v6.map((entry) => entry.subarray(0, 20))),
  };
}
