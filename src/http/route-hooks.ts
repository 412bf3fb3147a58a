// Hooks that apply to some routes only are attached to those routes as they
// are declared, so that every other request (GET /api/hello's, a page view's)
// does not run them at all (issue 33). Such a hook runs after the
// application's hooks of its kind and after the route's own (its access
// check first), in the order the hooks were installed.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { isApiPath } from './error-handler.ts';

type Kind = 'preParsing' | 'preValidation';
type Hook<K extends Kind> = Extract<NonNullable<RouteOptions[K]>, (...args: never[]) => unknown>;

/** Adds `hook` to every route declared from now on for which `applies` holds. */
export function hookRoutesWhere<K extends Kind>(app: FastifyInstance, applies: (route: RouteOptions) => boolean, kind: K, hook: Hook<K>): void {
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const own = route[kind] as Hook<K> | Hook<K>[] | undefined;
    (route as unknown as Record<K, Hook<K>[]>)[kind] = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
}

/** Whether a route answers a method that carries a body (anything but GET, HEAD and OPTIONS). */
export function takesBody(route: RouteOptions): boolean {
  return [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS');
}

/** Whether a route is the JSON API's (its declared path). */
export function isApiRoute(route: RouteOptions): boolean {
  return isApiPath(route.url);
}
