// The peer's address as raw bytes: 4 for IPv4 (also when it arrives as an
// IPv4-mapped IPv6 address), 16 for IPv6.
import { isIPv4, isIPv6 } from 'node:net';

export function addressBytes(address: string): Buffer | null {
  if (isIPv4(address)) return ipv4Bytes(address);
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  if (!isIPv6(bare)) return null;
  const lower = bare.toLowerCase();
  if (lower.startsWith('::ffff:') && isIPv4(lower.slice(7))) return ipv4Bytes(lower.slice(7));
  return ipv6Bytes(lower);
}

/**
 * Can other peers connect to this address? Not to "this network" (0.0.0.0/8)
 * or the unspecified IPv6 address, nor to multicast (224.0.0.0/4, ff00::/8),
 * nor to the reserved 240.0.0.0/4 with the broadcast address in it. Handing
 * such an address to a swarm only sends its clients nowhere (or everywhere).
 * Private and loopback addresses stay: a tracker on a LAN is legitimate.
 */
export function isPeerAddress(bytes: Buffer): boolean {
  if (bytes.length === 4) return bytes[0] !== 0 && bytes[0]! < 224;
  return bytes[0] !== 0xff && bytes.some((byte) => byte !== 0);
}

function ipv4Bytes(address: string): Buffer {
  const parts = address.split('.');
  return Buffer.from(parts.map(Number));
}

function ipv6Bytes(address: string): Buffer {
  const out = Buffer.alloc(16);
  // A trailing dotted quad (::1.2.3.4) is the last two groups.
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const quad = ipv4Bytes(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${quad.readUInt16BE(0).toString(16)}:${quad.readUInt16BE(2).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === null || tail === '' ? [] : tail.split(':');
  for (const [i, group] of headGroups.entries()) out.writeUInt16BE(parseInt(group, 16), i * 2);
  for (const [i, group] of tailGroups.entries()) out.writeUInt16BE(parseInt(group, 16), (8 - tailGroups.length + i) * 2);
  return out;
}
