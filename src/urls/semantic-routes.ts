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
//     form again (`refused`) does so with what was typed (403).
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EXPIRED_FORM, csrfMismatch, csrfTokenAccepted } from '../auth/csrf.ts';
import { ApiError } from '../http/errors.ts';
import { origin } from '../http/pagination.ts';
import type { FormRefusal } from '../web/form.ts';
import { requirePageUser } from '../auth/guard.ts';
import { legacyTarget } from './legacy.ts';
import { FRAGMENT_KEY, parseSemanticSegment, withQuery } from './paths.ts';

export const PAGE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The pages named by `{slug}.{id}`; the same names as legacy.ts's targets. */
export type EntityKind = 'topic' | 'forum' | 'profile' | 'profile-email';

const ENTITY_PATTERNS: Readonly<Record<EntityKind, string>> = {
  topic: '/topic/:segment/',
  forum: '/forum/:segment/',
  profile: '/profile/:segment/',
  'profile-email': '/profile/:segment/email/',
};

const LEGACY_PATHS = ['/viewtopic', '/viewforum', '/profile'] as const;

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
}

export interface FixedPage {
  loginRequired?: boolean;
  serve(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply>;
  /** As EntityPage.refused. */
  refused?(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, refusal: FormRefusal): Promise<FastifyReply>;
}

/** Every page route checks the CSRF token in serveAt, not in the global hook. */
const PAGE_ROUTE_CONFIG = { csrfCheckedByRoute: true };

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
  }

  /** A page at a fixed pattern ending in `/`, e.g. `/register/` or `/activate/:userId/:key/`. */
  fixed(app: FastifyInstance, pattern: string, page: FixedPage): void {
    if (!pattern.endsWith('/')) throw new Error(`Page patterns end with a slash: ${pattern}`);
    this.#fixed.on('GET', pattern, () => {}, { pattern, page });
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
      this.#serveFixed(pattern, page, request.params as Record<string, string>, request, reply, requestQuery(request));
    app.route({ method: [...PAGE_METHODS], url: pattern, handler, config: PAGE_ROUTE_CONFIG });
    if (pattern !== '/') app.route({ method: [...PAGE_METHODS], url: pattern.slice(0, -1), handler, config: PAGE_ROUTE_CONFIG });
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
    const canonicalPath = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const visit = { canonicalPath, query, params };
    const refused = page.refused?.bind(page);
    return serveAt(
      request,
      reply,
      visit,
      page.loginRequired === true,
      () => page.serve(request, reply, visit),
      refused && ((refusal) => refused(request, reply, visit, refusal)),
    );
  }
}

const EXPIRED_FORM_REFUSAL: FormRefusal = { status: 403, message: EXPIRED_FORM };

/**
 * Redirect to the canonical address first, so a guest's login round trip
 * ends there; every other method gets the canonical Link header before
 * anything can refuse it (the CSRF check, the login check).
 */
async function serveAt(
  request: FastifyRequest,
  reply: FastifyReply,
  visit: PageVisit,
  loginRequired: boolean,
  serve: () => Promise<FastifyReply>,
  refused: ((refusal: FormRefusal) => Promise<FastifyReply>) | undefined,
): Promise<FastifyReply> {
  if (requestPath(request) !== visit.canonicalPath) {
    if (request.method === 'GET' || request.method === 'HEAD') return reply.redirect(withQuery(visit.canonicalPath, visit.query), 301);
    reply.header('link', `<${absolute(request, visit.canonicalPath)}>; rel="canonical"`);
  }
  if (!csrfTokenAccepted(request)) {
    if (refused === undefined || request.method !== 'POST') throw csrfMismatch();
    return refused(EXPIRED_FORM_REFUSAL);
  }
  if (loginRequired && request.user === null) {
    await requirePageUser(request, reply);
    return reply;
  }
  return serve();
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
  return new ApiError('NOT_FOUND', 'The page you are looking for does not exist.');
}
