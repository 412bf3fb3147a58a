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

/** The headers every response carries; computed once at start. */
export function siteSecurityHeaders(baseUrl: string | null): Record<string, string> {
  const https = baseUrl?.startsWith('https:') ?? false;
  return helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: siteDirectives(https) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xContentTypeOptions: true,
    // Only a site that is reached over https may tell browsers to insist on it.
    strictTransportSecurity: https ? { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

export function installSecurityHeaders(app: FastifyInstance, headers: Record<string, string>): void {
  // API clients on other sites render emojis (decisions.md): their images may be embedded anywhere.
  const sharedImageHeaders = { ...headers, 'cross-origin-resource-policy': 'cross-origin' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(SHARED_IMAGE_PREFIX) ? sharedImageHeaders : headers);
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
