// TRUST_PROXY (src/http/proxy-trust.ts): only the X-Forwarded-For entries our
// own proxies added are believed, counted from the right. With the documented
// nginx setup (proxy_add_x_forwarded_for appends), the leftmost entry is
// whatever the client sent: it must never become the client's address, for the
// tracker's peer lists, the rate limits or anything else.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { decode, type BencodeDict } from '../../src/tracker/bencode.ts';
import { clientAddress, parseProxyTrust, trustFunction } from '../../src/http/proxy-trust.ts';
import type { TestApp } from '../helpers/app.ts';
import { announceUrl, closeTrackerApp, describeEachTrackerSetup, peerId, registerTorrent, trackerUser, type TorrentFixture } from '../helpers/tracker.ts';

function request(socket: string, forwarded?: string): IncomingMessage {
  return {
    socket: { remoteAddress: socket },
    connection: { remoteAddress: socket },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  } as never;
}

const address = (raw: string, socket: string, forwarded?: string) => clientAddress(request(socket, forwarded), trustFunction(parseProxyTrust(raw)));

describe('TRUST_PROXY', () => {
  it('false: the socket’s address, whatever the headers say', () => {
    assert.equal(address('false', '192.0.2.1', '198.51.100.77'), '192.0.2.1');
  });

  it('true: exactly one proxy in front, so the rightmost entry is the client', () => {
    assert.equal(address('true', '127.0.0.1', '198.51.100.77, 203.0.113.5'), '203.0.113.5');
    assert.equal(address('true', '127.0.0.1', '203.0.113.5'), '203.0.113.5');
    assert.equal(address('true', '127.0.0.1'), '127.0.0.1', 'no header: the proxy itself');
  });

  it('a number of proxies: that many hops from the right', () => {
    assert.equal(address('2', '127.0.0.1', '198.51.100.77, 203.0.113.5, 10.0.0.2'), '203.0.113.5');
    assert.equal(address('2', '127.0.0.1', '10.0.0.2'), '10.0.0.2', 'fewer entries than proxies: the leftmost there is');
  });

  it('a list of proxy addresses and ranges: past the last trusted one, nothing more is believed', () => {
    const list = '127.0.0.1, 10.0.0.0/8';
    assert.equal(address(list, '127.0.0.1', '198.51.100.77, 203.0.113.5, 10.1.2.3'), '203.0.113.5');
    assert.equal(address(list, '192.0.2.9', '198.51.100.77'), '192.0.2.9', 'a socket that is not our proxy: its headers are the client’s');
  });

  it('refuses a value it cannot read, naming the variable', () => {
    for (const raw of ['maybe', '11', '127.0.0.1, not-an-address', '10.0.0.0/99']) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: raw }),
        (error: unknown) => error instanceof ConfigError && error.variable === 'TRUST_PROXY',
        raw,
      );
    }
  });
});

describeEachTrackerSetup('the tracker behind a proxy (TRUST_PROXY=true, over a real socket)', (setup) => {
  let t: TestApp;
  let base: string;
  let torrent: TorrentFixture;
  before(async () => {
    t = await setup.start({ env: { TRUST_PROXY: 'true', TRACKER_MIN_INTERVAL: '0', RATE_LIMIT_GUEST: '3' } });
    torrent = await registerTorrent(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const listening = t.app.server.address();
    assert.ok(listening !== null && typeof listening === 'object');
    base = `http://127.0.0.1:${listening.port}`;
  });
  after(() => closeTrackerApp(t));

  async function announce(forwarded: string, left: number): Promise<BencodeDict> {
    const user = await trackerUser(t);
    const response = await fetch(
      `${base}${announceUrl({ passkey: user.passkey, infoHash: torrent.v1!, peerId: peerId(), port: 6881, left, event: 'started' })}`,
      {
        headers: { 'x-forwarded-for': forwarded },
      },
    );
    return decode(Buffer.from(await response.arrayBuffer())) as BencodeDict;
  }

  const listed = (body: BencodeDict): string[] => {
    const peers = body.get('peers') as Buffer;
    return Array.from({ length: peers.length / 6 }, (_, i) => peers.subarray(i * 6, i * 6 + 4).join('.'));
  };

  it('hands the swarm the address the proxy saw, never one the client wrote into X-Forwarded-For', async () => {
    assert.equal((await announce('198.51.100.77, 203.0.113.5', 0)).get('failure reason'), undefined);
    assert.deepEqual(listed(await announce('203.0.113.6', 100)), ['203.0.113.5']);
  });

  it('refuses to hand out unspecified, broadcast, multicast or reserved addresses', async () => {
    for (const bad of ['0.0.0.0', '255.255.255.255', '224.0.0.1', '240.1.2.3', '::', 'ff02::1']) {
      const body = await announce(bad, 100);
      assert.equal(String(body.get('failure reason') ?? ''), 'Your address cannot be given to other peers.', bad);
    }
  });

  it('counts the rate limits by the same address: a spoofed leftmost entry does not buy a new budget', async () => {
    const remaining: string[] = [];
    // An address of this run's own: with Redis, the limiters' counts outlive the app.
    const client = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    for (const spoof of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
      const response = await fetch(`${base}/api/hello`, { headers: { 'x-forwarded-for': `${spoof}, ${client}` } });
      remaining.push(`${response.status}:${response.headers.get('x-ratelimit-remaining')}`);
    }
    assert.deepEqual(remaining, ['200:2', '200:1', '200:0', '429:0']);
  });
});
