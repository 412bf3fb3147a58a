// Every error becomes one of the contract's response shapes:
//   422/400 {message, errors}       validation (400 on the /search endpoints)
//   404     {message}               unknown catalog model or word filter
//   4xx/5xx {success:false, ...}    everything else, in the general envelope
// Pages (anything outside /api) get an HTML page from `renderPage` instead,
// with the title and the messages made here in the reader's language (the
// API's requests have no reader: English, as the contract has it).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { escape } from 'html-escaper';
import { isRefusedValue } from '../db/dialect.ts';
import { ApiError, ModelNotFoundError, ResourceNotFoundError, ValidationError, errorEnvelope, type ErrorCode } from './errors.ts';
import type { AllowedMethods } from './allowed-methods.ts';
import type { SecurityHeaderSets } from './security-headers.ts';
import { fieldErrors } from './validation.ts';
import { t } from '../i18n/messages.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Status for invalid query/body input on this route: 422 by default, 400 on /search. */
    validationStatus?: 400 | 422;
  }
}

export interface ErrorPage {
  status: number;
  title: string;
  message: string;
}

export type PageRenderer = (request: FastifyRequest, reply: FastifyReply, page: ErrorPage) => FastifyReply | Promise<FastifyReply>;

/**
 * A request to the JSON API, however its path was spelled: the route it
 * reached (`/%61pi/hello` reaches `/api/hello`), or for a path that reached
 * none, the path as a lenient router would read it (see routedPath). Rate
 * limits, CSRF rules and the error format all ask this one question.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  return isApiPath(request.routeOptions.url ?? routedPath(request.url));
}

/** Whether a path (decoded, no query) is the JSON API's. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The path of a URL with percent-encoded printable ASCII decoded, lower case,
 * empty and `.` segments dropped and `..` resolved: every spelling that a
 * router, proxy or file system might take for the same path gives one string.
 */
export function routedPath(url: string): string {
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  const decoded = raw.replace(/%([2-7][0-9a-f])/gi, (escape, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code === 0x7f ? escape : String.fromCharCode(code);
  });
  const segments: string[] = [];
  for (const segment of decoded.toLowerCase().split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

export function installErrorHandling(app: FastifyInstance, allowed: AllowedMethods, renderPage: PageRenderer): void {
  app.setErrorHandler(async (error: FastifyError | Error, request, reply) => {
    const api = isApiRequest(request);
    if (error instanceof ValidationError) {
      return asJson(reply).code(error.status).send({ message: error.message, errors: error.errors });
    }
    if (error instanceof ModelNotFoundError || error instanceof ResourceNotFoundError) {
      return api ? asJson(reply).code(404).send({ message: error.message }) : renderPage(request, reply, notFoundPage());
    }

    const fastifyError = error as FastifyError & { validation?: ErrorObject[]; validationContext?: string };
    if (fastifyError.validation !== undefined) {
      if (fastifyError.validationContext === 'params') return sendGeneral(request, reply, new ApiError('NOT_FOUND', notFoundMessage(request)));
      const errors = fieldErrors(fastifyError.validation);
      const status = request.routeOptions.config.validationStatus ?? 422;
      const validation = new ValidationError(errors, status);
      return asJson(reply).code(status).send({ message: validation.message, errors });
    }

    if (isRefusedValue(error)) {
      // A value the database cannot store reached it: bad input (400), and a gap in validation worth a warning.
      request.log.warn({ err: error }, 'database refused a value');
      return sendGeneral(request, reply, new ApiError('BAD_REQUEST', t('error.unstorable')));
    }
    const apiError = error instanceof ApiError ? error : fromFrameworkError(fastifyError);
    if (apiError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    return sendGeneral(request, reply, apiError);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const methods = allowed.for(path);
    // A route that ran and found nothing (a missing static file) is a 404, not a 405.
    if (methods.length > 0 && !methods.includes(request.method)) {
      reply.header('allow', methods.join(', '));
      return sendGeneral(request, reply, new ApiError('METHOD_NOT_ALLOWED', t('error.method', { method: request.method, methods: methods.join(', ') })));
    }
    return sendGeneral(request, reply, new ApiError('NOT_FOUND', notFoundMessage(request)));
  });

  function sendGeneral(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply | Promise<FastifyReply> {
    reply.headers(error.headers);
    if (!isApiRequest(request) && error.code !== 'RATE_LIMITED') {
      return renderPage(request, reply, { status: error.status, title: pageTitle(error.code), message: error.message });
    }
    return asJson(reply)
      .code(error.status)
      .send(errorEnvelope(error.code, error.message, error.details));
  }
}

/**
 * Error bodies go out exactly as built here: a route's response schema for
 * the status documents them but must not filter their fields. Only JSON
 * bodies: an HTML page given this serializer would be sent as a JSON string.
 */
function asJson(reply: FastifyReply): FastifyReply {
  return reply.serializer(JSON.stringify);
}

function notFoundMessage(request: FastifyRequest): string {
  return t('error.no_route', { route: `${request.method} ${request.url.split('?')[0]}` });
}

function notFoundPage(): ErrorPage {
  return { status: 404, title: pageTitle('NOT_FOUND'), message: t('error.no_page') };
}

function pageTitle(code: ErrorCode): string {
  switch (code) {
    case 'NOT_FOUND':
      return t('error.title.not_found');
    case 'FORBIDDEN':
      return t('error.title.forbidden');
    case 'UNAUTHENTICATED':
      return t('error.title.login');
    case 'METHOD_NOT_ALLOWED':
      return t('error.title.method');
    case 'INTERNAL_ERROR':
      return t('error.title.internal');
    default:
      return t('error.title.bad_request');
  }
}

/** Fastify's own errors (body parsing, limits) mapped to the envelope; anything unknown is a 500 that says nothing about its cause. */
function fromFrameworkError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', t('error.too_large'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('BAD_REQUEST', t('error.media_type'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('BAD_REQUEST', t('error.empty_json'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST', t('error.invalid_json'));
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new ApiError('BAD_REQUEST', t('error.invalid_json'));
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', t('error.too_large'));
  if (status === 404) return new ApiError('NOT_FOUND', t('error.not_found'));
  if (status >= 400 && status < 500) return new ApiError('BAD_REQUEST', t('error.not_understood'));
  return new ApiError('INTERNAL_ERROR', t('error.internal'));
}

/**
 * The router's own refusals, which come before any hook: a path that does not
 * decode (`/forum/%zz/`) and a path segment over the router's length limit.
 * Fastify would answer them with its own JSON and no security headers; they
 * get the general envelope (an address too long for any id or slug is simply
 * not found) and the site's headers. No page layout: the request never
 * reached the hooks that a page reads (session, CSRF).
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, headers: SecurityHeaderSets): void {
  const api = isApiPath(routedPath(request.url));
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('NOT_FOUND', notFoundMessage(request))
      : new ApiError('BAD_REQUEST', 'The address is not a valid URL: it has a malformed percent-encoding.');
  reply
    .headers(api ? headers.api : headers.site)
    .header('x-request-id', request.id)
    .code(refusal.status);
  if (api) {
    void reply.type('application/json; charset=utf-8').send(JSON.stringify(errorEnvelope(refusal.code, refusal.message, refusal.details)));
    return;
  }
  const title = refusal.status === 404 ? 'Page not found' : 'Bad request';
  void reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${escape(refusal.message)}</p><p><a href="/">Back to the forums</a></p></html>`,
    );
}
