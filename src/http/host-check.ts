// Which Host a request may name. The Host header (or X-Forwarded-Host behind
// a trusted proxy) is chosen by the client, and absolute links in API
// responses and canonical links of pages are built from it when BASE_URL is
// not set. So:
// - a Host that is not a host name at all is a 400 (it used to be a 500
//   when a link was built from it);
// - without BASE_URL, only hosts on the allow-list are served (400 for any
//   other): ALLOWED_HOSTS, the loopback names, and the listen address; the
//   probes /healthz and /readyz answer under any well-formed Host;
// - with BASE_URL, links never use the Host, so any well-formed one is served.
// Mail links never use the Host at all (see services.ts, mailOrigin).
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

export interface HostPolicy {
  baseUrl: string | null;
  /** ALLOWED_HOSTS: `name` (any port) or `name:port`, lower case. */
  allowedHosts: readonly string[];
  /** HOST the server listens on: allowed too unless it is a wildcard address. */
  listenHost: string;
}

/** Served without configuration: a browser on this machine. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** Liveness and readiness probes (system/routes.ts): served under any well-formed Host. */
const PROBE_ROUTES = new Set(['/healthz', '/readyz']);
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

// A DNS name (labels of letters, digits, `-` and `_`, as in container names),
// an IPv4 address, or an IPv6 address in brackets; then an optional port.
const HOST_PATTERN = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_][a-z0-9_-]{0,62})*\.?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

/** `name[:port]` lower case without a trailing dot, or null when it is no host name. */
export function parseHost(value: string): { name: string; port: number | null } | null {
  if (value.length > 255) return null;
  const match = HOST_PATTERN.exec(value);
  if (match === null) return null;
  const port = match[1] === undefined ? null : Number(match[1]);
  if (port !== null && port > 65535) return null;
  const name = (port === null ? value : value.slice(0, value.lastIndexOf(':'))).toLowerCase().replace(/\.$/, '');
  if (name.startsWith('[') && !URL.canParse(`http://${name}/`)) return null;
  return { name, port };
}

export function installHostCheck(app: FastifyInstance, policy: HostPolicy): void {
  const allowed = allowList(policy);
  // Nearly every request names the same host: the last one's verdict is kept.
  let lastHost: string | null = null;
  let lastVerdict: 'bad' | 'allowed' | 'unknown' = 'bad';
  const verdictOf = (value: string): 'bad' | 'allowed' | 'unknown' => {
    const host = parseHost(value);
    if (host === null) return 'bad';
    if (allowed === null || allowed.has(host.name) || (host.port !== null && allowed.has(`${host.name}:${host.port}`))) return 'allowed';
    return 'unknown';
  };
  app.addHook('onRequest', (request, _reply, done) => {
    // No Host at all (HTTP/1.0): nothing to check when links come from BASE_URL.
    if (request.host === '' && allowed === null) return done();
    if (request.host !== lastHost) {
      lastVerdict = verdictOf(request.host);
      lastHost = request.host;
    }
    if (lastVerdict === 'allowed') return done();
    if (lastVerdict === 'bad') return done(new ApiError('BAD_REQUEST', 'The Host header is not a valid host name.'));
    // Probes build no links, and orchestrators call them by the pod's address.
    if (PROBE_ROUTES.has(request.routeOptions.url ?? '')) return done();
    done(new ApiError('BAD_REQUEST', 'This server does not answer for the host named in the Host header.'));
  });
}

/** Names (any port) and `name:port` pairs that may be served; null: any well-formed host (BASE_URL is set). */
function allowList(policy: HostPolicy): Set<string> | null {
  if (policy.baseUrl !== null) return null;
  const names = new Set([...LOOPBACK_HOSTS, ...policy.allowedHosts]);
  const listen = policy.listenHost.includes(':') && !policy.listenHost.startsWith('[') ? `[${policy.listenHost}]` : policy.listenHost;
  if (!WILDCARD_ADDRESSES.has(listen)) names.add(listen.toLowerCase());
  return names;
}
