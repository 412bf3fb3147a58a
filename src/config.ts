// Environment → typed configuration. Every variable of the runtime contract
// (design.md) is read here and nowhere else; a bad value stops start-up with
// one line that names the variable.
import { parseHost } from './http/host-check.ts';
import { loadTrackerConfig, type TrackerConfig } from './tracker/config.ts';
import { parseProxyTrust, type ProxyTrust } from './http/proxy-trust.ts';

export type DatabaseConfig =
  | { dialect: 'sqlite'; path: string } // a file path or ':memory:'
  | { dialect: 'postgres'; url: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AdminBootstrap {
  username: string;
  password: string;
  email: string;
}

export interface Config {
  host: string;
  port: number;
  database: DatabaseConfig;
  redisUrl: string | null;
  /** Absolute origin for generated links, without a trailing slash; null: from the request's validated Host (see http/host-check.ts). */
  baseUrl: string | null;
  /** ALLOWED_HOSTS: further hosts (`name` or `name:port`, lower case) served when BASE_URL is unset. */
  allowedHosts: string[];
  admin: AdminBootstrap | null;
  rateLimit: { authenticated: number; guest: number };
  emojiCatalog: 'unicode' | 'none';
  tokenTtlDays: number;
  logLevel: LogLevel;
  /** Which reverse proxies' X-Forwarded-* headers (client address, protocol) are believed (http/proxy-trust.ts). */
  trustProxy: ProxyTrust;
  /** smtp(s):// URL for outgoing mail; null: mail is kept in the outbox only. */
  smtpUrl: string | null;
  /** Sender address of outgoing mail. */
  mailFrom: string;
  /** How many mails of a mass mail go out per minute, across all instances (docs/mass-mail.md). */
  massMailPerMinute: number;
  /** Folder for uploaded emoji images and sprite sheets (created at start if missing). */
  uploadDir: string;
  /** log2 of scrypt's N for new password hashes (auth/passwords.ts). */
  passwordHashCost: number;
  /** Least seconds between two posts (topics and replies) or two messages of one member; 0: no flood control. */
  floodIntervalSeconds: number;
  /** Bearer token that opens GET /metrics; null: /metrics answers this machine only (system/metrics-routes.ts). */
  metricsToken: string | null;
  /** The BitTorrent tracker's settings (TRACKER_* variables, tracker/config.ts). */
  tracker: TrackerConfig;
  /** How long a client may take over a request and keep an idle connection (http/http-server.ts). */
  timeouts: ServerTimeouts;
}

/** Bounds on each connection's time, in whole seconds (docs/operations.md, "Timeouts"). */
export interface ServerTimeouts {
  /** REQUEST_TIMEOUT_SECONDS: the whole request, headers and body, from its first byte. */
  requestSeconds: number;
  /** HEADERS_TIMEOUT_SECONDS: the request's headers; at most the request's bound. */
  headersSeconds: number;
  /** KEEP_ALIVE_TIMEOUT_SECONDS: an idle connection waiting for its next request. */
  keepAliveSeconds: number;
}

/**
 * The default bounds. A request may take 180 s: the largest upload (a 2 MiB
 * avatar or sprite sheet) fits on a 128 kbit/s line (about 131 s), while a
 * client that sends its body a byte at a time is cut after three minutes
 * instead of never. Headers are a few hundred bytes: 30 s. Keep-alive stays
 * Fastify's 72 s, above the 60 s idle timeout of common proxies and load
 * balancers, so they never reuse a connection the server is closing.
 */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { requestSeconds: 180, headersSeconds: 30, keepAliveSeconds: 72 };

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const configured = {
    host: read('HOST') ?? '127.0.0.1',
    port: integer('PORT', read('PORT'), 8080, 0, 65535),
    database: databaseConfig(read('DATABASE_URL') ?? 'sqlite:./data/forum.db'),
    redisUrl: redisUrl(read('REDIS_URL')),
    baseUrl: baseUrl(read('BASE_URL')),
    allowedHosts: allowedHosts(read('ALLOWED_HOSTS')),
    admin: adminBootstrap(read('ADMIN_USERNAME'), env['ADMIN_PASSWORD'], read('ADMIN_EMAIL')),
    rateLimit: {
      authenticated: integer('RATE_LIMIT_AUTHENTICATED', read('RATE_LIMIT_AUTHENTICATED'), 60, 1, 1e9),
      guest: integer('RATE_LIMIT_GUEST', read('RATE_LIMIT_GUEST'), 20, 1, 1e9),
    },
    emojiCatalog: oneOf('EMOJI_CATALOG', read('EMOJI_CATALOG'), ['unicode', 'none'] as const, 'unicode'),
    tokenTtlDays: integer('TOKEN_TTL_DAYS', read('TOKEN_TTL_DAYS'), 30, 1, 3650),
    logLevel: oneOf('LOG_LEVEL', read('LOG_LEVEL'), LOG_LEVELS, 'info'),
    trustProxy: proxyTrust('TRUST_PROXY', read('TRUST_PROXY')),
    smtpUrl: smtpUrl(read('SMTP_URL')),
    mailFrom: read('MAIL_FROM') ?? 'Forum <forum@localhost>',
    massMailPerMinute: integer('MASS_MAIL_PER_MINUTE', read('MASS_MAIL_PER_MINUTE'), 600, 1, 1_000_000),
    uploadDir: uploadDir(read('UPLOAD_DIR') ?? './data/uploads'),
    passwordHashCost: passwordHashCost(read('PASSWORD_HASH_COST'), read('NODE_ENV') === 'production'),
    floodIntervalSeconds: integer('FLOOD_INTERVAL_SECONDS', read('FLOOD_INTERVAL_SECONDS'), 15, 0, 86_400),
    metricsToken: metricsToken(read('METRICS_TOKEN')),
    tracker: loadTrackerConfig(read, (name, problem) => {
      throw new ConfigError(name, problem);
    }),
    timeouts: serverTimeouts(read),
  };
  // Mail links (password reset, activation) are built from BASE_URL, else
  // from the listen address, which a real deployment's users cannot open.
  if (read('NODE_ENV') === 'production' && configured.smtpUrl !== null && configured.baseUrl === null) {
    throw new ConfigError('BASE_URL', 'is required when NODE_ENV=production and SMTP_URL is set: links in mail are built from it');
  }
  return configured;
}

/**
 * Origin of links in mail: BASE_URL, else the address this server listens on
 * (`localhost` for a wildcard address). Never a request's Host: a forged Host
 * must not put its own site into a password-reset mail.
 */
export function mailOrigin(config: Pick<Config, 'baseUrl' | 'host' | 'port'>): string {
  if (config.baseUrl !== null) return config.baseUrl;
  const host = ['0.0.0.0', '::', '[::]'].includes(config.host)
    ? 'localhost'
    : config.host.includes(':') && !config.host.startsWith('[')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${config.port}`;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function proxyTrust(name: string, raw: string | undefined): ProxyTrust {
  if (raw === undefined) return { kind: 'none' };
  try {
    return parseProxyTrust(raw);
  } catch (error) {
    throw new ConfigError(name, (error as Error).message);
  }
}

function serverTimeouts(read: (name: string) => string | undefined): ServerTimeouts {
  const requestSeconds = integer('REQUEST_TIMEOUT_SECONDS', read('REQUEST_TIMEOUT_SECONDS'), DEFAULT_TIMEOUTS.requestSeconds, 1, 3600);
  const headersSeconds = integer(
    'HEADERS_TIMEOUT_SECONDS',
    read('HEADERS_TIMEOUT_SECONDS'),
    Math.min(DEFAULT_TIMEOUTS.headersSeconds, requestSeconds),
    1,
    3600,
  );
  // Node refuses a headers bound above the request's: the headers are part of the request.
  if (headersSeconds > requestSeconds) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS', `must not be greater than REQUEST_TIMEOUT_SECONDS (${requestSeconds}; got "${headersSeconds}")`);
  }
  const keepAliveSeconds = integer('KEEP_ALIVE_TIMEOUT_SECONDS', read('KEEP_ALIVE_TIMEOUT_SECONDS'), DEFAULT_TIMEOUTS.keepAliveSeconds, 1, 3600);
  return { requestSeconds, headersSeconds, keepAliveSeconds };
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  const found = allowed.find((value) => value === raw.toLowerCase());
  if (found === undefined) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  return found;
}

function databaseConfig(raw: string): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'needs a path after "sqlite:" (or sqlite::memory:)');
    return { dialect: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    if (!URL.canParse(raw)) throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    return { dialect: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres:// (got "${redact(raw)}")`);
}

function redisUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!/^rediss?:\/\//.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL (got "${redact(raw)}")`);
  }
  return raw;
}

function smtpUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!/^smtps?:\/\//.test(raw) || !URL.canParse(raw)) {
    throw new ConfigError('SMTP_URL', `must be an smtp:// or smtps:// URL (got "${redact(raw)}")`);
  }
  return raw;
}

// A file path, not a URL: uploads are files this process writes and serves.
// Whether the folder can be written is checked at start (emoji/images/store.ts).
function uploadDir(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f]/.test(raw)) throw new ConfigError('UPLOAD_DIR', 'must be a folder path without control characters');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) throw new ConfigError('UPLOAD_DIR', `must be a folder path on this machine, not a URL (got "${redact(raw)}")`);
  return raw;
}

/** Password hash cost, log2 of scrypt's N: 15 is 32 MiB and ~50-100 ms per hash. */
export const PASSWORD_HASH_COST = { default: 15, minProduction: 15, min: 10, max: 20 } as const;

// Low costs make the test suite fast; a production start never hashes below the floor.
function passwordHashCost(raw: string | undefined, production: boolean): number {
  const cost = integer('PASSWORD_HASH_COST', raw, PASSWORD_HASH_COST.default, PASSWORD_HASH_COST.min, PASSWORD_HASH_COST.max);
  if (production && cost < PASSWORD_HASH_COST.minProduction) {
    throw new ConfigError('PASSWORD_HASH_COST', `must be at least ${PASSWORD_HASH_COST.minProduction} when NODE_ENV=production (got "${raw}")`);
  }
  return cost;
}

function metricsToken(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!/^[\x21-\x7e]{16,}$/.test(raw)) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 printable characters without spaces');
  return raw;
}

function baseUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
    throw new ConfigError('BASE_URL', `must be an absolute http(s) origin such as https://forum.example.org (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

// Host names as a Host header carries them: a DNS name or IPv4 address, or an
// IPv6 address in brackets, each with an optional port. No wildcards.
function allowedHosts(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const host = parseHost(entry);
    if (host === null)
      throw new ConfigError(
        'ALLOWED_HOSTS',
        `must be a comma-separated list of host names with optional ports, such as forum.example.org,10.0.0.5:8080 (got "${entry}")`,
      );
    return host.port === null ? host.name : `${host.name}:${host.port}`;
  });
}

function adminBootstrap(username: string | undefined, password: string | undefined, email: string | undefined): AdminBootstrap | null {
  if (username === undefined && password === undefined && email === undefined) return null;
  if (username === undefined) throw new ConfigError('ADMIN_USERNAME', 'is required when ADMIN_PASSWORD or ADMIN_EMAIL is set');
  if (password === undefined || password === '') throw new ConfigError('ADMIN_PASSWORD', 'is required when ADMIN_USERNAME is set');
  if (email === undefined) throw new ConfigError('ADMIN_EMAIL', 'is required when ADMIN_USERNAME is set');
  return { username, password, email };
}

/** Hide credentials in a URL that is echoed back in an error message. */
function redact(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//***@');
}
