// Fastify answers an unregistered method with 404. To answer 405 with an
// Allow header instead, remember which methods each path pattern has and
// look the path up when nothing matched.
import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

export interface AllowedMethods {
  /** Methods registered for this concrete path; empty when the path is unknown. */
  for(path: string): string[];
}

export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const byPattern = new Map<string, Set<string>>();
  const router = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let known = byPattern.get(route.url);
    if (known === undefined) {
      known = new Set();
      byPattern.set(route.url, known);
      router.on('GET', route.url, () => {}, known);
    }
    for (const method of methods) known.add(method.toUpperCase());
  });

  return {
    for(path) {
      const found = router.find('GET', path);
      return found === null ? [] : [...(found.store as Set<string>)].sort();
    },
  };
}
