// Requests made by htmx, which swaps the answer into the page.
import type { FastifyRequest } from 'fastify';

/** A request made by htmx (it swaps the answer into the page). */
export function isHtmx(request: FastifyRequest): boolean {
  return request.headers['hx-request'] === 'true';
}
