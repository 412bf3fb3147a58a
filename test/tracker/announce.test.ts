import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decode, type BencodeDict, type BencodeValue } from '../../src/tracker/bencode.ts';
import { signIn } from '../helpers/auth.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  announceUrl,
  closeTrackerApp,
  describeEachTrackerSetup,
  percentEncode,
  peerId,
  registerTorrent,
  scrapeUrl,
  setTorrent,
  textOf,
  trackerGet,
  trackerUser,
  type TorrentFixture,
  type TrackerUserFixture,
} from '../helpers/tracker.ts';

const GIB = 1024 ** 3;

function failure(body: BencodeDict): string | undefined {
  return textOf(body.get('failure reason'));
}

/** Compact IPv4 peers as "a.b.c.d:port". */
function peers4(body: BencodeDict): string[] {
  const bytes = body.get('peers') as Buffer;
  const out: string[] = [];
  for (let at = 0; at < bytes.length; at += 6) out.push(`${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}:${bytes.readUInt16BE(at + 4)}`);
  return out;
}

function peers6(body: BencodeDict): Buffer[] {
  const bytes = body.get('peers6') as Buffer;
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 18) out.push(bytes.subarray(at, at + 18));
  return out;
}

describeEachTrackerSetup('GET /bt/announce.php', (setup) => {
  let t: TestApp;
  let torrent: TorrentFixture;
  let alice: TrackerUserFixture;
  let bob: TrackerUserFixture;
  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0', RATE_LIMIT_GUEST: '2' } });
    torrent = await registerTorrent(t);
    alice = await trackerUser(t);
    bob = await trackerUser(t);
  });
  after(() => closeTrackerApp(t));

  it('answers 200 text/plain with interval, counts and compact peers, never listing the requester', async () => {
    const seed = await trackerGet(
      t,
      announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 6881, left: 0, event: 'started' }),
      '127.0.0.2',
    );
    assert.equal(seed.status, 200);
    assert.equal(seed.type, 'text/plain');
    assert.equal(failure(seed.body), undefined);
    assert.deepEqual(peers4(seed.body), []);
    const leech = await trackerGet(
      t,
      announceUrl({ passkey: bob.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 51413, left: 100, event: 'started' }),
      '127.0.0.3',
    );
    assert.equal(leech.status, 200);
    assert.equal(leech.body.get('interval'), 1800);
    assert.equal(leech.body.get('min interval'), 0);
    assert.equal(leech.body.get('complete'), 1);
    assert.equal(leech.body.get('incomplete'), 1);
    assert.equal(leech.body.get('downloaded'), 0);
    assert.deepEqual(peers4(leech.body), ['127.0.0.2:6881']);
    assert.deepEqual(peers6(leech.body), []);
  });

  it('answers at /bt/announce too, outside the API rate limits (a swarm behind one address is normal)', async () => {
    const other = await registerTorrent(t);
    for (let i = 0; i < 5; i++) {
      const response = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId() }, '/bt/announce'), '10.20.30.40');
      assert.equal(response.status, 200);
      assert.equal(failure(response.body), undefined);
      assert.equal(response.body.get('incomplete'), i + 1);
    }
  });

  it('reads info_hash byte-exact whether bytes are escaped or left as they are', async () => {
    const other = await registerTorrent(t);
    // Letters and digits left unescaped, everything else %XX (what libtorrent sends).
    let mixed = '';
    for (const byte of other.v1!) mixed += /[A-Za-z0-9]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`;
    const url = `/bt/announce.php?uk=${alice.passkey}&info_hash=${mixed}&peer_id=${percentEncode(peerId())}&port=6881&uploaded=0&downloaded=0&left=5`;
    const response = await trackerGet(t, url);
    assert.equal(failure(response.body), undefined);
    assert.equal(response.body.get('incomplete'), 1);
  });

  it('gives a seeder leechers only', async () => {
    const other = await registerTorrent(t);
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), left: 0, port: 7001 }), '127.0.1.1');
    await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), left: 0, port: 7002 }), '127.0.1.2');
    await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), left: 9, port: 7003 }), '127.0.1.3');
    const seeder = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), left: 0, port: 7004 }), '127.0.1.4');
    assert.deepEqual(peers4(seeder.body), ['127.0.1.3:7003']);
    const leecher = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), left: 5, port: 7005 }), '127.0.1.5');
    assert.deepEqual(peers4(leecher.body).sort(), ['127.0.1.1:7001', '127.0.1.2:7002', '127.0.1.3:7003', '127.0.1.4:7004']);
  });

  it('lists IPv6 peers in peers6 (18-byte entries) and reads IPv4-mapped addresses as IPv4', async () => {
    const other = await registerTorrent(t);
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), port: 6000, left: 0 }), '2001:db8::5');
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), port: 6001, left: 0 }), '::ffff:192.0.2.7');
    const response = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), left: 1 }));
    assert.deepEqual(peers4(response.body), ['192.0.2.7:6001']);
    const six = peers6(response.body);
    assert.equal(six.length, 1);
    assert.equal(six[0]!.subarray(0, 16).toString('hex'), '20010db8000000000000000000000005');
    assert.equal(six[0]!.readUInt16BE(16), 6000);
  });

  it('with compact=0 lists {ip, peer id, port} dictionaries, without peer id when no_peer_id=1', async () => {
    const other = await registerTorrent(t);
    const seedId = peerId();
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: seedId, port: 6999, left: 0 }), '2001:db8::9');
    const full = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), compact: '0' }));
    const list = full.body.get('peers') as BencodeDict[];
    assert.equal(list.length, 1);
    assert.equal(textOf(list[0]!.get('ip')), '2001:db8::9');
    assert.equal(list[0]!.get('port'), 6999);
    assert.deepEqual(list[0]!.get('peer id'), seedId);
    const bare = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), compact: '0', noPeerId: '1' }));
    const entry = (bare.body.get('peers') as BencodeDict[])[0]!;
    assert.deepEqual([...entry.keys()], ['ip', 'port']);
  });

  it('honours numwant (default 50)', async () => {
    const other = await registerTorrent(t);
    for (let i = 0; i < 55; i++) await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId(), left: 0, port: 10000 + i }));
    const some = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), numwant: 7 }));
    assert.equal(peers4(some.body).length, 7);
    const byDefault = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId() }));
    assert.equal(peers4(byDefault.body).length, 50);
    const none = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId(), numwant: 0 }));
    assert.equal(peers4(none.body).length, 0);
  });

  it('puts a hybrid torrent’s v1 hash and short v2 hash in one swarm, and finds a v2-only torrent by its short hash', async () => {
    const hybrid = await registerTorrent(t, { kind: 'hybrid' });
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: hybrid.v1!, peerId: peerId(), left: 0, port: 6100 }), '127.0.2.1');
    const viaV2 = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: hybrid.v2!.subarray(0, 20), peerId: peerId(), port: 6101 }), '127.0.2.2');
    assert.equal(failure(viaV2.body), undefined);
    assert.deepEqual(peers4(viaV2.body), ['127.0.2.1:6100']);
    assert.deepEqual([viaV2.body.get('complete'), viaV2.body.get('incomplete')], [1, 1]);
    const v2only = await registerTorrent(t, { kind: 'v2' });
    const response = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: v2only.v2!.subarray(0, 20), peerId: peerId() }));
    assert.equal(failure(response.body), undefined);
    assert.equal(response.body.get('incomplete'), 1);
  });

  it('removes a peer that sends stopped', async () => {
    const other = await registerTorrent(t);
    const id = peerId();
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: id, left: 0 }));
    const stopped = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: id, left: 0, event: 'stopped' }));
    assert.equal(failure(stopped.body), undefined);
    const after = await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: other.v1!, peerId: peerId() }));
    assert.deepEqual([after.body.get('complete'), after.body.get('incomplete')], [0, 1]);
  });

  it('refuses a torrent at once when its topic is deleted (the cached look-up is dropped, not left to expire)', async () => {
    const doomed = await registerTorrent(t);
    const first = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: doomed.v1!, peerId: peerId(), left: 0 }));
    assert.equal(failure(first.body), undefined, 'answered, and now cached');
    const { topic_id } = await t.database.db.selectFrom('torrents').select('topic_id').where('id', '=', doomed.id).executeTakeFirstOrThrow();
    const moderator = await signIn(t, 'moderator');
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/topics/${topic_id}`, headers: moderator.headers });
    assert.equal(deleted.statusCode, 204);
    const after = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: doomed.v1!, peerId: peerId(), left: 0 }));
    assert.match(failure(after.body) ?? '', /^Torrent not registered/);
  });

  const refusals: Array<[string, () => string, RegExp]> = [
    ['a missing passkey', () => announceUrl({ infoHash: torrent.v1!, peerId: peerId() }), /^Missing passkey/],
    ['an unknown passkey', () => announceUrl({ passkey: 'A'.repeat(20), infoHash: torrent.v1!, peerId: peerId() }), /^Unknown passkey/],
    ['a malformed passkey', () => announceUrl({ passkey: 'short', infoHash: torrent.v1!, peerId: peerId() }), /^Unknown passkey/],
    ['an unregistered torrent', () => announceUrl({ passkey: alice.passkey, infoHash: Buffer.alloc(20, 7), peerId: peerId() }), /^Torrent not registered/],
    ['an info_hash of 19 bytes', () => announceUrl({ passkey: alice.passkey, infoHash: Buffer.alloc(19, 1), peerId: peerId() }), /^Malformed info_hash/],
    ['a missing peer_id', () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: Buffer.alloc(0) }), /^Missing peer_id/],
    ['port 80', () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 80 }), /^Port must be between 1024 and 65535/],
    ['port 70000', () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 70000 }), /^Port must be between 1024 and 65535/],
    [
      'uploaded that is not a number',
      () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), uploaded: '12a' }),
      /^Malformed uploaded/,
    ],
    ['a negative left', () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), left: '-1' }), /^Malformed left/],
    ['an unknown event', () => announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), event: 'finished' }), /^Malformed event/],
    ['a broken percent escape', () => `/bt/announce.php?uk=${alice.passkey}&info_hash=%G1&peer_id=x`, /^Malformed percent-encoding/],
  ];
  for (const [what, url, reason] of refusals) {
    it(`refuses ${what} with a failure reason and interval (200, bencoded)`, async () => {
      const response = await trackerGet(t, url());
      assert.equal(response.status, 200);
      assert.equal(response.type, 'text/plain');
      assert.match(failure(response.body) ?? '', reason);
      assert.equal(response.body.get('interval'), 1800);
      assert.deepEqual([...response.body.keys()], ['failure reason', 'interval']);
    });
  }

  it('refuses a banned user and a user whose account is not active', async () => {
    const banned = await trackerUser(t, { status: 'banned' });
    const pending = await trackerUser(t, { status: 'pending' });
    const one = await trackerGet(t, announceUrl({ passkey: banned.passkey, infoHash: torrent.v1!, peerId: peerId() }));
    assert.equal(failure(one.body), 'Your account is banned.');
    const two = await trackerGet(t, announceUrl({ passkey: pending.passkey, infoHash: torrent.v1!, peerId: peerId() }));
    assert.equal(failure(two.body), 'Your account is not active.');
  });

  it('refuses every frozen status, and answers again once the torrent is unfrozen', async () => {
    const other = await registerTorrent(t);
    for (const status of ['closed', 'duplicate', 'closed_by_right_holder', 'absorbed', 'premoderation'] as const) {
      await setTorrent(t, other.id, { status });
      const response = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId() }));
      assert.equal(failure(response.body), `Torrent is not available (status: ${status}).`);
    }
    await setTorrent(t, other.id, { status: 'replenished' });
    const open = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: other.v1!, peerId: peerId() }));
    assert.equal(failure(open.body), undefined);
  });

  it('refuses to start leeching below the ratio after 10 GiB, and always lets the user seed', async () => {
    const low = await trackerUser(t);
    await t.database.db
      .insertInto('tracker_user_stats')
      .values({ user_id: low.user.id, uploaded: 2 * GIB, downloaded: 20 * GIB, updated_at: new Date().toISOString() })
      .execute();
    const leech = await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 100, event: 'started' }));
    assert.equal(failure(leech.body), 'Your ratio is 0.10, below the minimum of 0.30: seed what you have to raise it.');
    // BitTorrent clients get the tracker's English, whatever language they may ask for.
    const asked = await t.app.inject({
      method: 'GET',
      url: announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 100, event: 'started' }),
      headers: { 'accept-language': 'ru' },
    });
    assert.equal(failure(decode(asked.rawPayload) as BencodeDict), 'Your ratio is 0.10, below the minimum of 0.30: seed what you have to raise it.');
    const seed = await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0, event: 'started' }));
    assert.equal(failure(seed.body), undefined);
  });

  it('judges the ratio rule on every leecher announce, not only on started: only a download in progress goes on', async () => {
    const low = await trackerUser(t);
    const setRatio = async (uploaded: number) => {
      await t.database.db
        .insertInto('tracker_user_stats')
        .values({ user_id: low.user.id, uploaded, downloaded: 20 * GIB, updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ uploaded }))
        .execute();
      t.services.tracker.directory.invalidateUsers();
    };
    await setRatio(2 * GIB);
    const refusal = 'Your ratio is 0.10, below the minimum of 0.30: seed what you have to raise it.';
    const withoutEvent = await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 100 }));
    assert.equal(failure(withoutEvent.body), refusal, 'no event: still a new leecher');
    assert.equal(withoutEvent.body.get('peers'), undefined, 'and no peers handed out');

    // A download that started while the ratio was fine is not cut off when it drops.
    await setRatio(20 * GIB);
    const client = peerId();
    assert.equal(
      failure((await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: client, left: 100, event: 'started' }))).body),
      undefined,
    );
    await setRatio(2 * GIB);
    assert.equal(failure((await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: client, left: 50 }))).body), undefined);
    const restarted = await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: client, left: 50, event: 'started' }));
    assert.equal(failure(restarted.body), refusal, 'a new session is judged again');
    const secondClient = await trackerGet(t, announceUrl({ passkey: low.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 50 }));
    assert.equal(failure(secondClient.body), refusal, 'another client of the same member is a new leecher');
  });
});

describeEachTrackerSetup('announce sooner than min interval', (setup) => {
  let t: TestApp;
  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '300' } });
  });
  after(() => closeTrackerApp(t));

  it('gets a full answer (never an empty body) and no new accounting', async () => {
    const torrent = await registerTorrent(t);
    const alice = await trackerUser(t);
    const bob = await trackerUser(t);
    const id = peerId();
    await trackerGet(t, announceUrl({ passkey: bob.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0 }), '127.0.3.1');
    await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: id, event: 'started' }));
    const early = await trackerGet(t, announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: id, downloaded: 5000 }));
    assert.equal(failure(early.body), undefined);
    assert.equal(early.body.get('min interval'), 300);
    assert.deepEqual([early.body.get('complete'), early.body.get('incomplete')], [1, 1]);
    assert.equal(peers4(early.body).length, 1);
    await t.services.tracker.accounting.flush();
    const stats = await t.database.db.selectFrom('tracker_user_stats').select('downloaded').where('user_id', '=', alice.user.id).executeTakeFirst();
    assert.equal(stats?.downloaded ?? 0, 0);
  });
});

describeEachTrackerSetup('GET /bt/scrape.php', (setup) => {
  let t: TestApp;
  let user: TrackerUserFixture;
  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0' } });
    user = await trackerUser(t);
  });
  after(() => closeTrackerApp(t));

  it('answers {files: {hash: {complete, downloaded, incomplete}}} for known hashes, leaving unknown ones out', async () => {
    const one = await registerTorrent(t);
    const two = await registerTorrent(t, { kind: 'hybrid' });
    await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: one.v1!, peerId: peerId(), left: 0 }));
    await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: one.v1!, peerId: peerId(), left: 3 }));
    const finisher = peerId();
    await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: two.v1!, peerId: finisher, left: 3, event: 'started' }));
    await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: two.v1!, peerId: finisher, left: 0, event: 'completed' }));
    await t.services.tracker.accounting.flush();
    const unknown = Buffer.alloc(20, 0xee);
    const shortV2 = two.v2!.subarray(0, 20);
    for (const path of ['/bt/scrape.php', '/bt/scrape']) {
      const response = await trackerGet(t, scrapeUrl(user.passkey, [one.v1!, unknown, shortV2], path));
      assert.equal(response.status, 200);
      assert.equal(response.type, 'text/plain');
      const files = response.body.get('files') as BencodeDict;
      assert.deepEqual(new Set(files.keys()), new Set([one.v1!.toString('latin1'), shortV2.toString('latin1')]));
      const entry = (hash: Buffer) => Object.fromEntries((files.get(hash.toString('latin1')) as Map<string, BencodeValue>).entries());
      assert.deepEqual(entry(one.v1!), { complete: 1, downloaded: 0, incomplete: 1 });
      assert.deepEqual(entry(shortV2), { complete: 1, downloaded: 1, incomplete: 0 });
    }
  });

  it('checks the passkey as announce does', async () => {
    const one = await registerTorrent(t);
    const missing = await trackerGet(t, scrapeUrl(undefined, [one.v1!]));
    assert.match(failure(missing.body) ?? '', /^Missing passkey/);
    const unknown = await trackerGet(t, scrapeUrl('B'.repeat(20), [one.v1!]));
    assert.match(failure(unknown.body) ?? '', /^Unknown passkey/);
  });

  it('answers up to 150 hashes and refuses more', async () => {
    const hashes = Array.from({ length: 151 }, (_, i) => Buffer.alloc(20, i));
    const many = await trackerGet(t, scrapeUrl(user.passkey, hashes.slice(0, 150)));
    assert.equal(failure(many.body), undefined);
    assert.equal((many.body.get('files') as BencodeDict).size, 0);
    const tooMany = await trackerGet(t, scrapeUrl(user.passkey, hashes));
    assert.equal(failure(tooMany.body), 'At most 150 info_hash parameters per scrape.');
  });
});

describeEachTrackerSetup('GET /bt/ over a real socket (the raw listener in front of Fastify)', (setup) => {
  let t: TestApp;
  let base: string;
  let torrent: TorrentFixture;
  let alice: TrackerUserFixture;
  let bob: TrackerUserFixture;
  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0' } });
    torrent = await registerTorrent(t);
    alice = await trackerUser(t);
    bob = await trackerUser(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
  });
  after(() => closeTrackerApp(t));

  async function get(url: string, headers: Record<string, string> = {}): Promise<{ response: Response; body: BencodeDict }> {
    const response = await fetch(`${base}${url}`, { headers });
    const { decode } = await import('../../src/tracker/bencode.ts');
    return { response, body: decode(Buffer.from(await response.arrayBuffer())) as BencodeDict };
  }

  it('answers announces and scrapes as the routes do: 200 text/plain, no-store, nosniff, peers of the same swarm', async () => {
    const seed = await get(announceUrl({ passkey: alice.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 6881, left: 0, event: 'started' }));
    assert.equal(seed.response.status, 200);
    assert.equal(seed.response.headers.get('content-type'), 'text/plain');
    assert.equal(seed.response.headers.get('cache-control'), 'no-store');
    assert.equal(seed.response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(seed.response.headers.get('x-request-id'), null, 'answered before Fastify (no request id)');
    assert.equal(failure(seed.body), undefined);
    const leech = await get(
      announceUrl({ passkey: bob.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 51413, left: 100, event: 'started' }, '/bt/announce'),
    );
    assert.deepEqual(peers4(leech.body), ['127.0.0.1:6881']);
    assert.equal(leech.body.get('complete'), 1);
    const scrape = await get(scrapeUrl(alice.passkey, [torrent.v1!]));
    assert.equal(scrape.response.status, 200);
    const files = scrape.body.get('files') as BencodeDict;
    const entry = files.get(torrent.v1!.toString('latin1')) as BencodeDict;
    assert.equal(entry.get('complete'), 1);
    assert.equal(entry.get('incomplete'), 1);
  });

  it('refuses an unknown passkey with a failure reason, and does not check the Host a client sends', async () => {
    const refused = await get(announceUrl({ passkey: 'A'.repeat(20), infoHash: torrent.v1!, peerId: peerId() }), { host: 'tracker.example.org' });
    assert.equal(refused.response.status, 200);
    assert.match(failure(refused.body) ?? '', /^Unknown passkey/);
  });

  it('keeps the server settings Fastify would give its own server (keep-alive 72 s for load balancers)', () => {
    assert.equal(t.app.server.keepAliveTimeout, 72_000);
  });

  it('leaves every other path and method to Fastify (its 404 and headers)', async () => {
    const other = await fetch(`${base}/bt/nothing-here`);
    assert.equal(other.status, 404);
    assert.ok(other.headers.get('x-request-id'));
    const post = await fetch(`${base}/bt/announce.php`, { method: 'POST' });
    assert.notEqual(post.status, 200);
    assert.ok(post.headers.get('x-request-id'));
  });
});
