// The web pages as routes: pages behind semantic URLs (/topic/{slug}.{id}/),
// pages at fixed addresses (/register/, /activate/{user_id}/{key}/) and the
// legacy URLs that point at both. One set of rules for every page:
//
//   - any HTTP method reaches the page (service-spec "Semantic URL pages");
//   - the id selects the entity, the slug is cosmetic; a malformed address or
//     an unknown id is a 404 page;
//   - GET/HEAD on a non-canonical address (stale or empty slug, missing
//     trailing slash, legacy URL) answers 301 to the canonical one with the
//     query kept;
//   - any other method there is served by the page as if it had been sent to
//     the canonical address, with `Link: <canonical>; rel="canonical"`
//     (a redirect would turn a posted form into a GET and lose it);
//   - the CSRF token is checked here, after the canonical address is known:
//     a refused POST keeps its Link header, and a page that can show its
//     form again (`refused`) does so with what was typed (403);
//   - a page's forms (`forms`) are posted each to its own address one
//     segment below the page's (`/topic/{slug}.{id}/reply/`,
//     `/settings/email/`) with a body schema that Fastify checks, as API
//     routes have; the order stays canonical address, CSRF token, login,
//     then the body, whose failure shows the form again with its errors
//     (`invalid`, 422). GET/HEAD there answer 303 to the page.
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { csrfMismatch, csrfTokenAccepted, expiredForm } from '../auth/csrf.ts';
import { ApiError, type FieldErrors } from '../http/errors.ts';
import { uploadRoute } from '../http/multipart.ts';
import { t } from '../i18n/messages.ts';
import { origin } from '../http/pagination.ts';
import { fieldErrors, formValidatorCompiler } from '../http/validation.ts';
import type { FormRefusal } from '../http/errors.ts';
import { requirePageUser } from '../auth/guard.ts';
import { legacyTarget } from './legacy.ts';
import { FRAGMENT_KEY, parseSemanticSegment, withQuery } from './paths.ts';

export const PAGE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The pages named by `{slug}.{id}`; the same names as legacy.ts's targets. */
export type EntityKind = 'topic' | 'topic-unread' | 'topic-split' | 'topic-merge' | 'forum' | 'profile' | 'profile-email' | 'group';

const ENTITY_PATTERNS: Readonly<Record<EntityKind, string>> = {
  topic: '/topic/:segment/',
  'topic-unread': '/topic/:segment/unread/',
  'topic-split': '/topic/:segment/split/',
  'topic-merge': '/topic/:segment/merge/',
  forum: '/forum/:segment/',
  profile: '/profile/:segment/',
  'profile-email': '/profile/:segment/email/',
  group: '/group/:segment/',
};

const LEGACY_PATHS = ['/viewtopic', '/viewforum', '/profile', '/privmsg', '/memberlist', '/groupcp', '/info'] as const;

/** The topic id of a post this request may see; throws ModelNotFoundError (→ 404 page) otherwise. */
export type PostLocator = (postId: number, request: FastifyRequest) => Promise<number>;

/** How a request reached its page, as the page needs it. */
export interface PageVisit {
  /** The canonical path of the page (no query). */
  canonicalPath: string;
  /** The query meant for the page: a legacy URL's selecting parameters (`t`, `mode`, `u`) are removed. */
  query: URLSearchParams;
  /** Path parameters of a fixed page (`userId`, `key`). */
  params: Readonly<Record<string, string>>;
}

export interface EntityPage<E> {
  /** Guests are sent to /login/ and back (from the canonical address). */
  loginRequired?: boolean;
  /** The entity the id names, as this request may see it; throws ModelNotFoundError (→ 404 page) otherwise. */
  load(id: number, request: FastifyRequest): Promise<E>;
  /** Its canonical path, from its current name. */
  path(entity: E): string;
  serve(request: FastifyRequest, reply: FastifyReply, entity: E, visit: PageVisit): Promise<FastifyReply>;
  /**
   * A POST whose CSRF token was refused: show the submitted form again with
   * what was typed, the refusal's message and status, and do nothing else.
   * Pages without it answer with the 403 error page.
   */
  refused?(request: FastifyRequest, reply: FastifyReply, entity: E, visit: PageVisit, refusal: FormRefusal): Promise<FastifyReply>;
  /** The page's forms, each at `{page path}{name}/` (build each with `entityForm`, which keeps its body's type). */
  forms?: ReadonlyArray<EntityForm<E>>;
}

/** What entityDocument() serves: loaded and addressed like an EntityPage, read only. */
export interface EntityDocument<E> {
  load(id: number, request: FastifyRequest): Promise<E>;
  /** Its canonical path, from the entity's current name. */
  path(entity: E): string;
  serve(request: FastifyRequest, reply: FastifyReply, entity: E): Promise<FastifyReply>;
}

export interface FixedPage {
  loginRequired?: boolean;
  serve(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply>;
  /** As EntityPage.refused. */
  refused?(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, refusal: FormRefusal): Promise<FastifyReply>;
  /** As EntityPage.forms (build each with `fixedForm`). */
  forms?: readonly FixedForm[];
}

/**
 * A member's form of an entity page. Guests are sent to log in (after the
 * CSRF check, as on the page); `visit.canonicalPath` is the page's path.
 * Methods, not function properties: a list of forms with different bodies
 * is a list of `EntityForm<E>`, and `entityForm` checks each one's types.
 */
export interface EntityForm<E, S extends TSchema = TSchema> {
  /** The last segment of its address: `reply` → `/topic/{slug}.{id}/reply/`. */
  name: string;
  /** Checked by Fastify (fields are text: formValidatorCompiler), every field at once. */
  body: S;
  /** CSRF token accepted, signed in, body valid. */
  submit(request: FastifyRequest, reply: FastifyReply, entity: E, visit: PageVisit, body: Static<S>): Promise<FastifyReply>;
  /** The body failed its schema: show the form again with what was typed and these errors (422). Nothing is written. */
  invalid(request: FastifyRequest, reply: FastifyReply, entity: E, visit: PageVisit, errors: FieldErrors): Promise<FastifyReply>;
  /** As EntityPage.refused; absent: the 403 page. */
  refused?(request: FastifyRequest, reply: FastifyReply, entity: E, visit: PageVisit, refusal: FormRefusal): Promise<FastifyReply>;
}

/** A member's form of a fixed page, as EntityForm. */
export interface FixedForm<S extends TSchema = TSchema> {
  name: string;
  body: S;
  /** The form sends one file (multipart/form-data) of at most this many bytes; read it with http/multipart.ts's uploadedFile. Members only. */
  fileBytes?: number;
  submit(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, body: Static<S>): Promise<FastifyReply>;
  invalid(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, errors: FieldErrors): Promise<FastifyReply>;
  refused?(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, refusal: FormRefusal): Promise<FastifyReply>;
}

/** An entity page's form, its handlers typed by its body schema. */
export function entityForm<E, S extends TSchema>(form: EntityForm<E, S>): EntityForm<E, S> {
  return form;
}

/** A fixed page's form, its handlers typed by its body schema. */
export function fixedForm<S extends TSchema>(form: FixedForm<S>): FixedForm<S> {
  return form;
}

/** Every page route checks the CSRF token in serveAt, not in the global hook. */
const PAGE_ROUTE_CONFIG = { csrfCheckedByRoute: true };

/**
 * A form's address, with and without its trailing slash: POST submits it;
 * GET and HEAD (a reload, a login's way back) lead to its page. The body's
 * validation is attached, not thrown, so that the canonical address, the
 * CSRF token and the login are judged first (serveAt), as on the page; an
 * empty POST is an empty form.
 */
function routeForm(
  app: FastifyInstance,
  url: string,
  body: TSchema,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>,
  fileBytes?: number,
): void {
  // A form with a file is for members: guests are sent to log in before anything reads or judges its body (http/multipart.ts).
  const upload = fileBytes === undefined ? {} : { config: { ...PAGE_ROUTE_CONFIG, ...uploadRoute(fileBytes) }, onRequest: requirePageUser };
  for (const spelling of [url, url.slice(0, -1)]) {
    app.route({ method: ['GET', 'HEAD'], url: spelling, handler, config: PAGE_ROUTE_CONFIG });
    app.route({
      method: 'POST',
      url: spelling,
      handler,
      config: PAGE_ROUTE_CONFIG,
      ...upload,
      schema: { body },
      validatorCompiler: formValidatorCompiler,
      attachValidation: true,
      preValidation: async (request: FastifyRequest) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    });
  }
}

/** The field errors of a form route's body, when Fastify found any. */
function bodyErrors(request: FastifyRequest): FieldErrors | undefined {
  const failed = request.validationError;
  return failed === undefined ? undefined : fieldErrors(failed.validation);
}

/**
 * A form's request once its page is found: GET and HEAD lead to the page; a
 * POST is judged at the form's own address as the page is (serveAt: address,
 * CSRF token, login), then by its body.
 */
async function answerForm(
  request: FastifyRequest,
  reply: FastifyReply,
  visit: PageVisit,
  name: string,
  handlers: {
    submit(): Promise<FastifyReply>;
    invalid(errors: FieldErrors): Promise<FastifyReply>;
    refused: ((refusal: FormRefusal) => Promise<FastifyReply>) | undefined;
  },
): Promise<FastifyReply> {
  if (request.method !== 'POST') return reply.redirect(withQuery(visit.canonicalPath, visit.query), 303);
  return serveAt(
    request,
    reply,
    `${visit.canonicalPath}${name}/`,
    visit,
    true,
    () => {
      const errors = bodyErrors(request);
      return errors === undefined ? handlers.submit() : handlers.invalid(errors);
    },
    handlers.refused,
  );
}

type AnyEntityPage = EntityPage<unknown>;

/**
 * The registry of pages. Page modules add their pages with `entity()` and
 * `fixed()`; `legacyRoutes` (registered once) dispatches legacy URLs to them.
 */
export class PageRoutes {
  readonly #entities = new Map<EntityKind, AnyEntityPage>();
  readonly #fixed = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });
  #postTopic: PostLocator | null = null;

  /** How `viewtopic.php?p=` finds the topic of a post (the forum's pages register it). */
  locatePosts(locate: PostLocator): void {
    this.#postTopic = locate;
  }

  /** `/{type}/{slug}.{id}/` (and its spelling without the trailing slash). */
  entity<E>(app: FastifyInstance, kind: EntityKind, page: EntityPage<E>): void {
    const erased = page as AnyEntityPage;
    this.#entities.set(kind, erased);
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const parsed = parseSemanticSegment((request.params as { segment: string }).segment);
      if (parsed === null) throw pageNotFound();
      return this.#serveEntity(erased, parsed.id, request, reply, requestQuery(request));
    };
    const pattern = ENTITY_PATTERNS[kind];
    app.route({ method: [...PAGE_METHODS], url: pattern, handler, config: PAGE_ROUTE_CONFIG });
    app.route({ method: [...PAGE_METHODS], url: pattern.slice(0, -1), handler, config: PAGE_ROUTE_CONFIG });
    for (const form of page.forms ?? []) this.#entityForm(app, pattern, page, form);
  }

  #entityForm<E>(app: FastifyInstance, pagePattern: string, page: EntityPage<E>, form: EntityForm<E>): void {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const parsed = parseSemanticSegment((request.params as { segment: string }).segment);
      if (parsed === null) throw pageNotFound();
      const entity = await page.load(parsed.id, request);
      const visit = { canonicalPath: page.path(entity), query: requestQuery(request), params: {} };
      const refused = form.refused?.bind(form);
      return answerForm(request, reply, visit, form.name, {
        submit: () => form.submit(request, reply, entity, visit, request.body),
        invalid: (errors) => form.invalid(request, reply, entity, visit, errors),
        refused: refused && ((refusal) => refused(request, reply, entity, visit, refusal)),
      });
    };
    routeForm(app, `${pagePattern}${form.name}/`, form.body, handler);
  }

  /**
   * A document of an entity at `/{type}/{slug}.{id}/{file}` (a feed): GET and
   * HEAD only (other methods 405). As for pages, the id selects the entity, an
   * unknown id is a 404, and a stale or empty slug answers 301 to the
   * current one, query kept.
   */
  entityDocument<E>(app: FastifyInstance, kind: 'topic' | 'forum', file: string, document: EntityDocument<E>): void {
    if (!/^[a-z0-9.-]+$/.test(file)) throw new Error(`Not a document name: ${file}`);
    app.get(`/${kind}/:segment/${file}`, { config: PAGE_ROUTE_CONFIG }, async (request, reply) => {
      const parsed = parseSemanticSegment((request.params as { segment: string }).segment);
      if (parsed === null) throw pageNotFound();
      const entity = await document.load(parsed.id, request);
      const canonicalPath = document.path(entity);
      if (requestPath(request) !== canonicalPath) return reply.redirect(withQuery(canonicalPath, requestQuery(request)), 301);
      return document.serve(request, reply, entity);
    });
  }

  /** A page at a fixed pattern ending in `/`, e.g. `/register/` or `/activate/:userId/:key/`. */
  fixed(app: FastifyInstance, pattern: string, page: FixedPage): void {
    if (!pattern.endsWith('/')) throw new Error(`Page patterns end with a slash: ${pattern}`);
    this.#fixed.on('GET', pattern, () => {}, { pattern, page });
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
      this.#serveFixed(pattern, page, request.params as Record<string, string>, request, reply, requestQuery(request));
    app.route({ method: [...PAGE_METHODS], url: pattern, handler, config: PAGE_ROUTE_CONFIG });
    if (pattern !== '/') app.route({ method: [...PAGE_METHODS], url: pattern.slice(0, -1), handler, config: PAGE_ROUTE_CONFIG });
    for (const form of page.forms ?? []) this.#fixedForm(app, pattern, form);
  }

  #fixedForm(app: FastifyInstance, pagePattern: string, form: FixedForm): void {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const params = request.params as Record<string, string>;
      const visit = { canonicalPath: fixedPath(pagePattern, params), query: requestQuery(request), params };
      const refused = form.refused?.bind(form);
      return answerForm(request, reply, visit, form.name, {
        submit: () => form.submit(request, reply, visit, request.body),
        invalid: (errors) => form.invalid(request, reply, visit, errors),
        refused: refused && ((refusal) => refused(request, reply, visit, refusal)),
      });
    };
    routeForm(app, `${pagePattern}${form.name}/`, form.body, handler, form.fileBytes);
  }

  /** `/viewtopic?t=`, `/viewforum?f=`, `/profile?mode=…` and their `.php` spellings. */
  readonly legacyRoutes: FastifyPluginAsync = async (app) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const target = legacyTarget(requestPath(request), requestQuery(request));
      if (target === null) throw pageNotFound();
      if (target.kind === 'post') {
        const topics = this.#entities.get('topic');
        if (topics === undefined || this.#postTopic === null) throw pageNotFound();
        const topicId = await this.#postTopic(target.id, request);
        // The topic page opens on the page holding the post, scrolled to it (forum/resource.ts postPath).
        const query = new URLSearchParams(target.query);
        query.set('post', String(target.id));
        query.set(FRAGMENT_KEY, `post-${target.id}`);
        return this.#serveEntity(topics, topicId, request, reply, query);
      }
      if (target.kind !== 'page') {
        const page = this.#entities.get(target.kind);
        if (page === undefined) throw pageNotFound();
        return this.#serveEntity(page, target.id, request, reply, target.query);
      }
      const found = this.#fixed.find('GET', target.path);
      if (found === null) throw pageNotFound();
      const { pattern, page } = found.store as { pattern: string; page: FixedPage };
      return this.#serveFixed(pattern, page, found.params as Record<string, string>, request, reply, target.query);
    };
    for (const path of LEGACY_PATHS) {
      app.route({ method: [...PAGE_METHODS], url: path, handler, config: PAGE_ROUTE_CONFIG });
      app.route({ method: [...PAGE_METHODS], url: `${path}.php`, handler, config: PAGE_ROUTE_CONFIG });
    }
  };

  async #serveEntity(page: AnyEntityPage, id: number, request: FastifyRequest, reply: FastifyReply, query: URLSearchParams): Promise<FastifyReply> {
    const entity = await page.load(id, request);
    const visit = { canonicalPath: page.path(entity), query, params: {} };
    const refused = page.refused?.bind(page);
    return serveAt(
      request,
      reply,
      visit.canonicalPath,
      visit,
      page.loginRequired === true,
      () => page.serve(request, reply, entity, visit),
      refused && ((refusal) => refused(request, reply, entity, visit, refusal)),
    );
  }

  async #serveFixed(
    pattern: string,
    page: FixedPage,
    params: Record<string, string>,
    request: FastifyRequest,
    reply: FastifyReply,
    query: URLSearchParams,
  ): Promise<FastifyReply> {
    const visit = { canonicalPath: fixedPath(pattern, params), query, params };
    const refused = page.refused?.bind(page);
    return serveAt(
      request,
      reply,
      visit.canonicalPath,
      visit,
      page.loginRequired === true,
      () => page.serve(request, reply, visit),
      refused && ((refusal) => refused(request, reply, visit, refusal)),
    );
  }
}

/**
 * Redirect to the canonical address first, so a guest's login round trip
 * ends there; every other method gets the canonical Link header before
 * anything can refuse it (the CSRF check, the login check).
 */
async function serveAt(
  request: FastifyRequest,
  reply: FastifyReply,
  canonicalPath: string,
  visit: PageVisit,
  loginRequired: boolean,
  serve: () => Promise<FastifyReply>,
  refused: ((refusal: FormRefusal) => Promise<FastifyReply>) | undefined,
): Promise<FastifyReply> {
  if (requestPath(request) !== canonicalPath) {
    if (request.method === 'GET' || request.method === 'HEAD') return reply.redirect(withQuery(canonicalPath, visit.query), 301);
    reply.header('link', `<${absolute(request, canonicalPath)}>; rel="canonical"`);
  }
  if (!csrfTokenAccepted(request)) {
    if (refused === undefined || request.method !== 'POST') throw csrfMismatch();
    return refused({ status: 403, message: expiredForm() });
  }
  if (loginRequired && request.user === null) {
    await requirePageUser(request, reply);
    return reply;
  }
  return serve();
}

/** A fixed page's path: its pattern with the parameters filled in. */
function fixedPath(pattern: string, params: Readonly<Record<string, string>>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** The path as requested, still percent-encoded: a differently encoded spelling is not the canonical one. */
function requestPath(request: FastifyRequest): string {
  const url = request.url;
  const mark = url.indexOf('?');
  return mark < 0 ? url : url.slice(0, mark);
}

function requestQuery(request: FastifyRequest): URLSearchParams {
  const url = request.url;
  const mark = url.indexOf('?');
  return new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
}

function absolute(request: FastifyRequest, path: string): string {
  return new URL(path, origin(request, request.server.site.baseUrl)).toString();
}

/** The 404 page, for an address that names nothing (also a page number past the last). */
export function pageNotFound(): ApiError {
  return new ApiError('NOT_FOUND', t('error.no_page'));
}
