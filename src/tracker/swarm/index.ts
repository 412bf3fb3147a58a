// Chooses the peer store: Redis when REDIS_URL is set (every instance sees
// every peer), this process's memory otherwise.
import { MemorySwarmStore } from './memory.ts';
import { RedisSwarmStore } from './redis.ts';
import type { SwarmStore, SwarmStoreOptions } from './store.ts';

export function createSwarmStore(redisUrl: string | null, options: SwarmStoreOptions & { redisPrefix: string; onError?: (error: Error) => void }): SwarmStore {
  return redisUrl === null ? new MemorySwarmStore(options) : new RedisSwarmStore(redisUrl, { ...options, prefix: options.redisPrefix });
}
