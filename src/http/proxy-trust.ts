// Who the client is behind reverse proxies (TRUST_PROXY, docs/operations.md).
// Proxies append to X-Forwarded-For: the entries a client sent come first, so
// only the entries added by proxies we trust can be believed, counted from the
// right. `true` means exactly one proxy in front (the rightmost entry is the
// client as that proxy saw it); a number is a count of proxies; a list of
// addresses and CIDR ranges trusts exactly those. Taking the leftmost entry
// (what `true` meant before) let any client choose its address: for the rate
// limits, the login throttle, the logs, and the peers the tracker hands out.
// Fastify's request.ip and the tracker's own listener use this one rule.
import type { IncomingMessage } from 'node:http';
import proxyaddr from '@fastify/proxy-addr';

export type ProxyTrust = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };

/** Whether to believe the hop `hop` (0: the socket's address) as a proxy of ours. */
export type TrustFunction = (address: string, hop: number) => boolean;

export const MAX_PROXY_HOPS = 10;

/** TRUST_PROXY's value; throws a sentence saying what is wrong. */
export function parseProxyTrust(raw: string): ProxyTrust {
  const text = raw.trim().toLowerCase();
  if (['', '0', 'false', 'no'].includes(text)) return { kind: 'none' };
  if (['true', 'yes'].includes(text)) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_PROXY_HOPS) throw new Error(`must be at most ${MAX_PROXY_HOPS} proxies (got "${raw}")`);
    return { kind: 'hops', hops };
  }
  const addresses = text.split(',').map((part) => part.trim());
  try {
    proxyaddr.compile(addresses);
  } catch {
    throw new Error(`must be true, false, a number of proxies, or proxy addresses and CIDR ranges separated by commas (got "${raw}")`);
  }
  return { kind: 'addresses', addresses };
}

export function trustFunction(trust: ProxyTrust): TrustFunction {
  if (trust.kind === 'none') return () => false;
  if (trust.kind === 'hops') {
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  return proxyaddr.compile(trust.addresses);
}

/** The client's address under `trust`: what Fastify's request.ip answers with the same function. */
export function clientAddress(request: IncomingMessage, trust: TrustFunction): string {
  return proxyaddr(request, trust);
}
