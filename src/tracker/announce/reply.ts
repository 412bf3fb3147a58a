// The bencoded answers of announce and scrape, written straight into
// buffers: their shape is fixed, so there is no generic value tree to build
// and walk per request (bencode.ts is the general codec). Keys are written in
// the sorted order bencode requires.
import type { PeerSelection } from '../swarm/store.ts';

const ASCII = 'latin1';

function str(value: string): string {
  return `${value.length}:${value}`;
}

function int(value: number): string {
  return `i${Math.trunc(value)}e`;
}

/** `{failure reason, interval}`: every refusal, always with status 200. */
export function failureReply(reason: string, interval: number): Buffer {
  const body = Buffer.from(reason, 'utf8');
  return Buffer.concat([Buffer.from(`d14:failure reason${body.length}:`, ASCII), body, Buffer.from(`8:interval${int(interval)}e`, ASCII)]);
}

export interface AnnounceFigures {
  complete: number;
  incomplete: number;
  downloaded: number;
  interval: number;
  minInterval: number;
}

/** Compact peers (BEP 23 `peers`, BEP 7 `peers6`). */
export function compactReply(figures: AnnounceFigures, peers: PeerSelection): Buffer {
  const head = `d8:completei${figures.complete}e10:downloadedi${figures.downloaded}e10:incompletei${figures.incomplete}e8:intervali${figures.interval}e12:min intervali${figures.minInterval}e5:peers${peers.v4.length}:`;
  const middle = `6:peers6${peers.v6.length}:`;
  // One allocation, written in place (no Buffer.concat and its temporary buffers).
  const out = Buffer.allocUnsafe(head.length + peers.v4.length + middle.length + peers.v6.length + 1);
  let at = out.write(head, 0, ASCII);
  at += peers.v4.copy(out, at);
  at += out.write(middle, at, ASCII);
  at += peers.v6.copy(out, at);
  out[at] = 0x65; // 'e'
  return out;
}

/** `compact=0`: peers as a list of `{ip, peer id, port}` (no `peer id` with no_peer_id=1). */
export function dictionaryReply(figures: AnnounceFigures, peers: PeerSelection, withPeerIds: boolean): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      `d8:completei${figures.complete}e10:downloadedi${figures.downloaded}e10:incompletei${figures.incomplete}e8:intervali${figures.interval}e12:min intervali${figures.minInterval}e5:peersl`,
      ASCII,
    ),
  ];
  const add = (ip: string, port: number, id: Buffer) => {
    parts.push(Buffer.from(`d2:ip${str(ip)}`, ASCII));
    if (withPeerIds) parts.push(Buffer.from('7:peer id20:', ASCII), id);
    parts.push(Buffer.from(`4:port${int(port)}e`, ASCII));
  };
  for (let i = 0; i < peers.v4.length / 6; i++) {
    const at = i * 6;
    add(
      `${peers.v4[at]}.${peers.v4[at + 1]}.${peers.v4[at + 2]}.${peers.v4[at + 3]}`,
      peers.v4.readUInt16BE(at + 4),
      peers.v4Ids.subarray(i * 20, i * 20 + 20),
    );
  }
  for (let i = 0; i < peers.v6.length / 18; i++) {
    const at = i * 18;
    add(ipv6Text(peers.v6.subarray(at, at + 16)), peers.v6.readUInt16BE(at + 16), peers.v6Ids.subarray(i * 20, i * 20 + 20));
  }
  parts.push(Buffer.from('ee', ASCII));
  return Buffer.concat(parts);
}

export interface ScrapeEntry {
  /** The 20 bytes the client asked with. */
  hash: Buffer;
  complete: number;
  downloaded: number;
  incomplete: number;
}

/** BEP 48: `{files: {<hash>: {complete, downloaded, incomplete}}}`, hashes in byte order. */
export function scrapeReply(entries: readonly ScrapeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.hash, b.hash));
  const parts: Buffer[] = [Buffer.from('d5:filesd', ASCII)];
  let previous: Buffer | null = null;
  for (const entry of sorted) {
    if (previous?.equals(entry.hash)) continue; // asked twice: listed once
    previous = entry.hash;
    parts.push(
      Buffer.from('20:', ASCII),
      entry.hash,
      Buffer.from(`d8:completei${entry.complete}e10:downloadedi${entry.downloaded}e10:incompletei${entry.incomplete}ee`, ASCII),
    );
  }
  parts.push(Buffer.from('ee', ASCII));
  return Buffer.concat(parts);
}

/** Shortest IPv6 text form (RFC 5952), e.g. 2001:db8::1. */
export function ipv6Text(bytes: Buffer): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
