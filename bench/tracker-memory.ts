// Run by bench/tracker.ts (node --expose-gc bench/tracker-memory.ts): fills the
// memory peer store with 1,000,000 peers over 10,000 swarms and 10,000 users
// (a third seeders, IPv4) and prints the heap and ArrayBuffer growth.
import { MemorySwarmStore } from '../src/tracker/swarm/memory.ts';

const PEERS = Number(process.env['BENCH_PEERS'] ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const store = new MemorySwarmStore({ expiryMs: 2_700_000 });
gc();
const before = process.memoryUsage();
const id = Buffer.alloc(20);
const ip = Buffer.from([10, 0, 0, 1]);
const now = Date.now();
const started = performance.now();
for (let i = 0; i < PEERS; i++) {
  id.writeUInt32BE(i, 0);
  id.writeUInt32BE(Math.imul(i, 2654435761) >>> 0, 8);
  ip.writeUInt16BE(i & 0xffff, 2);
  store.announceNow({
    swarm: i % 10_000,
    userId: (i * 31) % 10_000,
    peerId: id,
    ip,
    port: 1024 + (i % 60000),
    uploaded: i,
    downloaded: 0,
    left: i % 3 === 0 ? 0 : 5,
    event: 'started',
    numwant: 0,
    now,
    minIntervalMs: 0,
  });
}
const fillMs = performance.now() - started;
gc();
const after = process.memoryUsage();
const totals = await store.totals();
const heap = after.heapUsed - before.heapUsed;
const buffers = after.arrayBuffers - before.arrayBuffers;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`\n## memory store, ${totals.peers.toLocaleString('en')} peers (target: ≤ 400 MB)\n`);
console.log('| heap MiB | typed-array buffers MiB | total MiB | bytes per peer | fill time s |');
console.log('|---:|---:|---:|---:|---:|');
console.log(`| ${mb(heap)} | ${mb(buffers)} | ${mb(heap + buffers)} | ${Math.round((heap + buffers) / totals.peers)} | ${(fillMs / 1000).toFixed(1)} |`);
