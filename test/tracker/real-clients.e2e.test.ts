// End to end with real BitTorrent clients: libtorrent (python3-libtorrent)
// and aria2c swap a few MiB through the tracker on 127.0.0.1. A v1 torrent
// (libtorrent seeds, aria2c leeches) and a hybrid one (libtorrent seeds and
// leeches, announcing both hashes: aria2c 1.36 computes a wrong info hash for
// hybrid torrents, it drops the empty key of a v2 file tree), each created by
// libtorrent, uploaded through the API and downloaded by two users. The file
// must arrive intact; then the torrent counts one completion, the leecher's
// download and the seeder's upload are within 10% of the size, and scrape
// agrees. Skipped where the clients are missing, except under CI, where it fails.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decode, type BencodeDict } from '../../src/tracker/bencode.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { multipart } from '../helpers/images.ts';
import { scrapeUrl } from '../helpers/tracker.ts';

const PYTHON = ['/usr/bin/python3', 'python3'].find((candidate) => spawnSync(candidate, ['-c', 'import libtorrent'], { stdio: 'ignore' }).status === 0);
const ARIA2C = spawnSync('aria2c', ['--version'], { stdio: 'ignore' }).status === 0 ? 'aria2c' : undefined;
const missing = [PYTHON === undefined ? 'python3-libtorrent' : null, ARIA2C === undefined ? 'aria2c' : null].filter((name) => name !== null);
const inCi = process.env['CI'] === 'true' || process.env['CI'] === '1';

const SIZE = 3 * 1024 * 1024 + 12_345;
const TIMEOUT_MS = 90_000;

// create: <data file> <out .torrent> <v1|hybrid>
// run:    <.torrent> <save dir> <port>   (prints progress lines; stdin closed → remove the torrent, announcing stopped, and exit)
const LT = `
import sys, time, json, select, libtorrent as lt
if sys.argv[1] == 'create':
    data, out, kind = sys.argv[2:5]
    fs = lt.file_storage()
    lt.add_files(fs, data)
    flags = lt.create_torrent.v1_only if kind == 'v1' else 0
    ct = lt.create_torrent(fs, 256 * 1024, flags=flags)
    ct.add_tracker('http://127.0.0.1:1/placeholder')
    import os
    lt.set_piece_hashes(ct, os.path.dirname(data))
    open(out, 'wb').write(lt.bencode(ct.generate()))
    sys.exit(0)
torrent, save, port = sys.argv[2], sys.argv[3], int(sys.argv[4])
ses = lt.session({
    'listen_interfaces': '127.0.0.1:%d' % port,
    'enable_dht': False, 'enable_lsd': False, 'enable_upnp': False, 'enable_natpmp': False,
    'allow_multiple_connections_per_ip': True, 'announce_to_all_trackers': True, 'announce_to_all_tiers': True,
    # The tracker is on 127.0.0.1 with a path other than /announce: libtorrent would refuse it as a possible SSRF.
    'ssrf_mitigation': False,
    'alert_mask': lt.alert.category_t.tracker_notification | lt.alert.category_t.error_notification | lt.alert.category_t.status_notification,
})
h = ses.add_torrent({'ti': lt.torrent_info(torrent), 'save_path': save})
last = 0
while True:
    for a in ses.pop_alerts():
        if isinstance(a, (lt.tracker_error_alert, lt.tracker_warning_alert)):
            print(json.dumps({'tracker': a.message()}), flush=True)
    s = h.status()
    print(json.dumps({'state': str(s.state), 'progress': s.progress, 'up': s.total_payload_upload, 'down': s.total_payload_download, 'seeding': s.is_seeding}), flush=True)
    if time.time() - last > 2:
        h.force_reannounce()
        last = time.time()
    ready, _, _ = select.select([sys.stdin], [], [], 0.5)
    if ready and sys.stdin.read(1) == '':
        break
ses.remove_torrent(h)
# Wait until the stopped announce is sent (a removed torrent gets no reply alert; a reply seen here
# may answer a re-announce still in flight), then give the tracker a second to take it in.
deadline = time.time() + 10
while time.time() < deadline:
    if any(isinstance(a, lt.tracker_announce_alert) and int(a.event) == 3 for a in ses.pop_alerts()):
        break
    time.sleep(0.1)
time.sleep(1)
`;

interface Client {
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

function libtorrentClient(torrent: string, dir: string, port: number): Client {
  const child = spawn(PYTHON!, ['-c', LT, 'run', torrent, dir, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  return clientOf(child, async () => {
    child.stdin!.end();
  });
}

function aria2Client(torrent: string, dir: string, port: number): Client {
  const child = spawn(
    ARIA2C!,
    [
      `--dir=${dir}`,
      '--seed-ratio=0.0',
      '--bt-tracker-interval=2',
      `--listen-port=${port}`,
      '--enable-dht=false',
      '--enable-dht6=false',
      '--bt-enable-lpd=false',
      '--enable-peer-exchange=false',
      '--check-integrity=true',
      '--bt-seed-unverified=false',
      '--summary-interval=1',
      '--console-log-level=warn',
      '--file-allocation=none',
      '--disable-ipv6=true',
      '--bt-stop-timeout=0',
      torrent,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return clientOf(child, async () => {
    child.kill('SIGINT'); // graceful: announces stopped with its final counters
  });
}

function clientOf(child: ChildProcess, ask: () => Promise<void>): Client {
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return {
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      await ask();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, clients: Client[]): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out waiting for ${what}; client output:\n${clients.map((client) => client.output.join('').slice(-3000)).join('\n----\n')}`);
}

describe('real BitTorrent clients through the tracker', { skip: missing.length > 0 && !inCi ? `${missing.join(' and ')} not installed` : false }, () => {
  let t: TestApp;
  let origin: string;
  let work: string;
  before(async () => {
    assert.deepEqual(missing, [], `the real-client test needs ${missing.join(' and ')} (CI must install them)`);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await startTestApp('sqlite', { env: { BASE_URL: origin, TRACKER_ANNOUNCE_INTERVAL: '300', TRACKER_MIN_INTERVAL: '0' } });
    await t.app.listen({ host: '127.0.0.1', port });
    work = mkdtempSync(join(tmpdir(), 'tracker-e2e-'));
  });
  after(async () => {
    await t?.close();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  async function scrape(passkey: string, hash: Buffer): Promise<{ complete: number; downloaded: number; incomplete: number } | undefined> {
    const response = await fetch(`${origin}${scrapeUrl(passkey, [hash])}`);
    const body = decode(Buffer.from(await response.arrayBuffer())) as BencodeDict;
    const entry = (body.get('files') as BencodeDict | undefined)?.get(hash.toString('latin1')) as BencodeDict | undefined;
    if (entry === undefined) return undefined;
    return { complete: entry.get('complete') as number, downloaded: entry.get('downloaded') as number, incomplete: entry.get('incomplete') as number };
  }

  for (const kind of ['v1', 'hybrid'] as const) {
    it(
      `${kind}: ${kind === 'v1' ? 'libtorrent seeds, aria2c leeches' : 'libtorrent seeds, another libtorrent leeches'}; the file arrives intact and the tracker counts it`,
      {
        timeout: 4 * TIMEOUT_MS,
      },
      async () => {
        const dir = join(work, kind);
        const seedDir = join(dir, 'seed');
        const leechDir = join(dir, 'leech');
        mkdirSync(seedDir, { recursive: true });
        mkdirSync(leechDir, { recursive: true });
        const data = randomBytes(SIZE);
        writeFileSync(join(seedDir, 'payload.bin'), data);
        const created = spawnSync(PYTHON!, ['-c', LT, 'create', join(seedDir, 'payload.bin'), join(dir, 'created.torrent'), kind], { encoding: 'utf8' });
        assert.equal(created.status, 0, created.stderr);

        const seeder: SignedIn = await signIn(t, 'user');
        const leecher: SignedIn = await signIn(t, 'user');
        const topic = await createTopic(
          t,
          await t.database.db.selectFrom('users').selectAll().where('id', '=', seeder.user.id).executeTakeFirstOrThrow(),
          await createForum(t, `Real ${kind}`),
          `Real clients, ${kind}`,
        );
        const form = await multipart({
          topic_id: String(topic.id),
          file: { bytes: readFileSync(join(dir, 'created.torrent')), name: 'payload.torrent', type: 'application/x-bittorrent' },
        });
        const uploaded = await t.app.inject({ method: 'POST', url: '/api/torrents', payload: form.payload, headers: { ...form.headers, ...seeder.headers } });
        assert.equal(uploaded.statusCode, 201, uploaded.body);
        const torrent = uploaded.json().data as { id: number; info_hash_v1: string; info_hash_v2: string | null; size: number };
        assert.equal(torrent.size, SIZE);
        assert.equal(torrent.info_hash_v2 !== null, kind === 'hybrid');
        const hash = Buffer.from(torrent.info_hash_v1, 'hex');

        const paths: Record<'seeder' | 'leecher', string> = { seeder: join(dir, 'seeder.torrent'), leecher: join(dir, 'leecher.torrent') };
        for (const [who, user] of [
          ['seeder', seeder],
          ['leecher', leecher],
        ] as const) {
          const download = await t.app.inject({ method: 'GET', url: `/api/torrents/${torrent.id}/download`, headers: user.headers });
          assert.equal(download.statusCode, 200);
          writeFileSync(paths[who], download.rawPayload);
        }
        const seederKey = await t.services.tracker.passkeys.forUser(seeder.user.id);

        const [seedPort, leechPort] = [await freePort(), await freePort()];
        const seedClient = libtorrentClient(paths.seeder, seedDir, seedPort);
        const clients = [seedClient];
        try {
          await until('the seeder to announce', async () => ((await scrape(seederKey, hash))?.complete === 1 ? true : undefined), clients);
          const leechClient = kind === 'v1' ? aria2Client(paths.leecher, leechDir, leechPort) : libtorrentClient(paths.leecher, leechDir, leechPort);
          clients.push(leechClient);
          const target = join(leechDir, 'payload.bin');
          await until(
            'the file to arrive intact',
            () => {
              if (!existsSync(target)) return undefined;
              const got = readFileSync(target);
              return got.length === SIZE && createHash('sha256').update(got).digest().equals(createHash('sha256').update(data).digest()) ? true : undefined;
            },
            clients,
          );
          const counts = await until(
            'the completion to reach the tracker',
            async () => {
              await t.services.tracker.accounting.flush();
              const seen = await scrape(seederKey, hash);
              return seen?.downloaded === 1 && seen.complete === 2 ? seen : undefined;
            },
            clients,
          );
          assert.deepEqual(counts, { complete: 2, downloaded: 1, incomplete: 0 });
          const api = (await t.app.inject({ method: 'GET', url: `/api/torrents/${torrent.id}`, headers: leecher.headers })).json().data;
          assert.deepEqual([api.completed, api.seeders, api.leechers], [1, 2, 0]);
        } finally {
          for (const client of clients.reverse()) await client.stop();
        }

        await t.services.tracker.accounting.flush();
        const row = (userId: number) =>
          t.database.db
            .selectFrom('tracker_user_torrents')
            .selectAll()
            .where('user_id', '=', userId)
            .where('torrent_id', '=', torrent.id)
            .executeTakeFirstOrThrow();
        const leeched = await row(leecher.user.id);
        const seeded = await row(seeder.user.id);
        const within = (value: number) => Math.abs(value - SIZE) <= SIZE * 0.1;
        assert.ok(within(leeched.downloaded), `leecher downloaded ${leeched.downloaded} of ${SIZE}`);
        assert.ok(within(seeded.uploaded), `seeder uploaded ${seeded.uploaded} of ${SIZE}`);
        assert.ok(leeched.completed_at !== null);
        assert.equal(seeded.completed_at, null, 'the seeder never completed: it started complete');
        // A client's last stopped announce may still be in the tracker's hands when the client has exited (a loaded
        // machine): wait for it up to 15 s, far less than a silent peer takes to expire (1.5 × the 300 s interval).
        let after = await scrape(seederKey, hash);
        for (let tries = 0; tries < 50 && (after?.complete !== 0 || after.incomplete !== 0); tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          after = await scrape(seederKey, hash);
        }
        assert.deepEqual(after, { complete: 0, downloaded: 1, incomplete: 0 }, 'both stopped: the swarm is empty, the completion stays');
      },
    );
  }
});
