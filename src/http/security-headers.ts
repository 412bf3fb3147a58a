// Security headers on every response (pages, API, assets, errors), as
// helmet computes them. Our pages need no inline script or style element:
// scripts and stylesheets are files under /assets, htmx reads its
// configuration from a <meta> tag. The one allowance is style *attributes*:
// a sprite emoji is a span positioned on its sheet with a style attribute
// (forum/render.ts). Swagger UI at /api/docs gets its own policy (DOCS_CSP,
// http/openapi.ts).
//
// helmet is run once at start against a stand-in response and the headers it
// sets are kept; each request gets that fixed set. @fastify/helmet builds the
// whole helmet middleware again on every request (options parsed, CSP
// validated), which doubled the CPU cost of GET /api/hello (docs/security.md).
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Directives = Record<string, string[]>;

/** The site's Content-Security-Policy, as helmet directives. */
export function siteDirectives(https: boolean): Directives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'style-src-attr': ["'unsafe-inline'"],
    // data: and blob: for the admin's preview of a chosen file; https: for
    // emoji images an admin pointed at another site (image_url).
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'manifest-src': ["'self'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * /api/docs: Swagger UI's bundle sets styles through style elements and
 * attributes and draws its icons from data: URLs; it runs no inline script.
 */
export const DOCS_CSP = serialize({
  ...siteDirectives(false),
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
});

/** Where images that other sites' clients show are served (emoji images and sprite sheets). */
const SHARED_IMAGE_PREFIX = '/emojis/';

/** The headers of every response but the API's; computed once at start. */
function siteSecurityHeaders(baseUrl: string | null): Record<string, string> {
  const https = isHttps(baseUrl);
  return helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: siteDirectives(https) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xContentTypeOptions: true,
    // Only a site that is reached over https may tell browsers to insist on it.
    strictTransportSecurity: https ? { maxAge: HSTS_SECONDS, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

/**
 * The headers of the JSON API's answers (OWASP REST Security Cheat Sheet):
 * a JSON body is never a document to render, frame or sniff, and nobody
 * keeps it unless its route says so (conditional GETs set their own
 * Cache-Control). A page's set would add ten headers that mean nothing to
 * JSON and cost every answer (docs/security.md).
 */
function apiSecurityHeaders(baseUrl: string | null): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(isHttps(baseUrl) ? { 'strict-transport-security': `max-age=${HSTS_SECONDS}` } : {}),
  };
}

export interface SecurityHeaderSets {
  site: Record<string, string>;
  api: Record<string, string>;
}

export function securityHeaderSets(baseUrl: string | null): SecurityHeaderSets {
  return { site: siteSecurityHeaders(baseUrl), api: apiSecurityHeaders(baseUrl) };
}

/** 180 days; no includeSubDomains: other hosts of the domain are not ours to pin. */
const HSTS_SECONDS = 180 * 24 * 60 * 60;

function isHttps(baseUrl: string | null): boolean {
  return baseUrl?.startsWith('https:') ?? false;
}

/** The API's answers, not its browsable documentation (a page, with DOCS_CSP). */
function takesApiHeaders(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/**
 * The first hook: the response's security headers and its request id. A path
 * is the API's by its prefix here, before anything decodes it: a spelling
 * such as `/%61pi/…` gets the page's set, which holds every header of the
 * API's but Cache-Control (and that route's error answers take the API's).
 */
export function installSecurityHeaders(app: FastifyInstance, headers: SecurityHeaderSets): void {
  // API clients on other sites render emojis (decisions.md): their images may be embedded anywhere.
  const sharedImageHeaders = { ...headers.site, 'cross-origin-resource-policy': 'cross-origin' };
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.headers(takesApiHeaders(url) ? headers.api : url.startsWith(SHARED_IMAGE_PREFIX) ? sharedImageHeaders : headers.site);
    reply.header('x-request-id', request.id);
    done();
  });
}

/** The headers helmet sets with these options, lower-case names. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
      return response;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error;
  });
  return headers;
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}
