// Tracker fixtures: torrents registered straight in the database (the
// registry's upload is tested in its own suite), passkeys, and announce /
// scrape URLs with raw bytes percent-encoded as BitTorrent clients send them.
import { createHash, randomBytes } from 'node:crypto';
import { describe } from 'node:test';
import { decode, type BencodeDict, type BencodeValue } from '../../src/tracker/bencode.ts';
import { TORRENTS_TOPIC } from '../../src/tracker/announce/directory.ts';
import { RedisSwarmStore } from '../../src/tracker/swarm/redis.ts';
import type { Freeleech, TorrentStatus } from '../../src/tracker/torrents/statuses.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { startTestApp, type StartOptions, type TestApp } from './app.ts';
import { databaseKinds, type DatabaseKind } from './databases.ts';
import { createUser } from './auth.ts';
import { createForum, createTopic } from './forum.ts';

export interface TorrentFixture {
  id: number;
  /** 20 bytes (v1 SHA-1), or null for v2-only. */
  v1: Buffer | null;
  /** 32 bytes (v2 SHA-256), or null for v1-only. */
  v2: Buffer | null;
  size: number;
}

let counter = 0;

export async function registerTorrent(
  t: TestApp,
  options: { kind?: 'v1' | 'v2' | 'hybrid'; status?: TorrentStatus; freeleech?: Freeleech; size?: number } = {},
): Promise<TorrentFixture> {
  const kind = options.kind ?? 'v1';
  const uploader = await createUser(t, { name: `uploader${++counter}${randomBytes(2).toString('hex')}` });
  const forum = await createForum(t, `Releases ${counter}`);
  const topic = await createTopic(t, uploader, forum, `Release number ${counter}`);
  const seed = randomBytes(16);
  const v1 = kind === 'v2' ? null : createHash('sha1').update(seed).digest();
  const v2 = kind === 'v1' ? null : createHash('sha256').update(seed).digest();
  const now = new Date().toISOString();
  const size = options.size ?? 4 * 1024 * 1024;
  const row = await t.database.db
    .insertInto('torrents')
    .values({
      topic_id: topic.id,
      uploader_id: uploader.id,
      info_hash_v1: v1?.toString('hex') ?? null,
      info_hash_v2: v2?.toString('hex') ?? null,
      info_hash_v2_short: v2?.subarray(0, 20).toString('hex') ?? null,
      name: `release-${counter}`,
      size,
      piece_length: 262144,
      piece_count: Math.ceil(size / 262144),
      files_count: 1,
      creation_date: null,
      metainfo: Buffer.from('d4:infodee'),
      status: options.status ?? 'checked',
      freeleech: options.freeleech ?? 'none',
      registered_at: now,
      status_changed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.database.changes.publish(TORRENTS_TOPIC);
  return { id: row.id, v1, v2, size };
}

export async function setTorrent(t: TestApp, id: number, values: { status?: TorrentStatus; freeleech?: Freeleech }): Promise<void> {
  await t.database.db.updateTable('torrents').set(values).where('id', '=', id).execute();
  await t.database.changes.publish(TORRENTS_TOPIC);
}

export interface TrackerUserFixture {
  user: UserRow;
  passkey: string;
}

export async function trackerUser(t: TestApp, options: Parameters<typeof createUser>[1] = {}): Promise<TrackerUserFixture> {
  const user = await createUser(t, { name: `peer${++counter}${randomBytes(2).toString('hex')}`, ...options });
  return { user, passkey: await t.services.tracker.passkeys.forUser(user.id) };
}

/** Every byte percent-encoded, as careful clients do. */
export function percentEncode(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  return out;
}

export function peerId(): Buffer {
  return Buffer.concat([Buffer.from('-TT0001-', 'latin1'), randomBytes(12)]);
}

export interface AnnounceParams {
  passkey?: string | undefined;
  infoHash: Buffer;
  peerId: Buffer;
  port?: number | string;
  uploaded?: number | string;
  downloaded?: number | string;
  left?: number | string;
  event?: string;
  compact?: string;
  noPeerId?: string;
  numwant?: number;
}

export function announceUrl(params: AnnounceParams, path = '/bt/announce.php'): string {
  const parts: string[] = [];
  if (params.passkey !== undefined) parts.push(`uk=${params.passkey}`);
  parts.push(`info_hash=${percentEncode(params.infoHash)}`, `peer_id=${percentEncode(params.peerId)}`);
  parts.push(`port=${params.port ?? 6881}`, `uploaded=${params.uploaded ?? 0}`, `downloaded=${params.downloaded ?? 0}`, `left=${params.left ?? 1000}`);
  if (params.event !== undefined) parts.push(`event=${params.event}`);
  if (params.compact !== undefined) parts.push(`compact=${params.compact}`);
  if (params.noPeerId !== undefined) parts.push(`no_peer_id=${params.noPeerId}`);
  if (params.numwant !== undefined) parts.push(`numwant=${params.numwant}`);
  return `${path}?${parts.join('&')}`;
}

export function scrapeUrl(passkey: string | undefined, hashes: Buffer[], path = '/bt/scrape.php'): string {
  const parts = hashes.map((hash) => `info_hash=${percentEncode(hash)}`);
  if (passkey !== undefined) parts.unshift(`uk=${passkey}`);
  return `${path}?${parts.join('&')}`;
}

/** Sends an announce or scrape through the app; asserts nothing but returns the decoded dictionary and the raw response. */
export async function trackerGet(
  t: TestApp,
  url: string,
  remoteAddress = '127.0.0.1',
): Promise<{ status: number; type: string | undefined; body: BencodeDict }> {
  const response = await t.app.inject({ method: 'GET', url, remoteAddress });
  return { status: response.statusCode, type: response.headers['content-type'] as string | undefined, body: decode(response.rawPayload) as BencodeDict };
}

export function field(dict: BencodeDict, key: string): BencodeValue | undefined {
  return dict.get(key);
}

export function textOf(value: BencodeValue | undefined): string | undefined {
  return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
}

export type StoreKind = 'memory' | 'redis';

/** The swarm stores every tracker suite runs on: memory always, Redis when TEST_REDIS_URL is set. */
export function storeKinds(): StoreKind[] {
  return process.env['TEST_REDIS_URL'] ? ['memory', 'redis'] : ['memory'];
}

export interface TrackerSuite {
  kind: DatabaseKind;
  store: StoreKind;
  start(options?: StartOptions): Promise<TestApp>;
}

/** `describe` once per database and swarm store: "[sqlite/memory] title", … Redis runs get a key prefix of their own. */
export function describeEachTrackerSetup(title: string, suite: (setup: TrackerSuite) => void, defaults: StartOptions = {}): void {
  for (const kind of databaseKinds()) {
    for (const store of storeKinds()) {
      const storeEnv = (): Record<string, string> =>
        store === 'redis' ? { REDIS_URL: process.env['TEST_REDIS_URL']!, TRACKER_REDIS_PREFIX: `test-tracker-${randomBytes(6).toString('hex')}:` } : {};
      describe(`[${kind}/${store}] ${title}`, () =>
        suite({
          kind,
          store,
          start: (options = {}) => startTestApp(kind, { ...defaults, ...options, env: { ...storeEnv(), ...defaults.env, ...options.env } }),
        }));
    }
  }
}

/** Closes a test app, first removing its Redis swarm keys (when it used Redis). */
export async function closeTrackerApp(t: TestApp | undefined): Promise<void> {
  if (t === undefined) return;
  const swarm = t.services.tracker.swarm;
  if (swarm instanceof RedisSwarmStore) await swarm.clear();
  await t.close();
}
