// Page parameters in, and the two list envelopes out: `{data, links, meta}` with
// absolute links that keep the request's other query parameters (the catalog and
// the forum), and `{success, data, meta}` (the general collection, e.g. torrents).
import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { PAGE_RANGE, PER_PAGE_DEFAULT, PER_PAGE_MAX, PER_PAGE_RANGE } from './integers.ts';
import { Nullable } from './schemas.ts';

export { PER_PAGE_DEFAULT, PER_PAGE_MAX };

/** `page` and `per_page` of every list, API and admin pages alike. */
export const Page = Type.Integer({ ...PAGE_RANGE, default: 1, description: `Page number, from 1 (at most ${PAGE_RANGE.maximum})` });
export const PerPage = Type.Integer({ ...PER_PAGE_RANGE, default: PER_PAGE_DEFAULT, description: `Items per page (1-${PER_PAGE_MAX})` });

export const PageQueryProperties = {
  page: Type.Optional(Page),
  per_page: Type.Optional(PerPage),
};

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(query: { page?: number | undefined; per_page?: number | undefined }): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? PER_PAGE_DEFAULT;
  return { page, perPage, offset: (page - 1) * perPage };
}

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

export interface Paginated<T> {
  data: T[];
  links: PageLinks;
  meta: PageMeta;
}

export function paginated<T>(request: FastifyRequest, baseUrl: string | null, page: PageRequest, data: T[], total: number): Paginated<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const url = new URL(request.originalUrl, origin(request, baseUrl));
  const linkTo = (n: number): string => {
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  return {
    data,
    links: {
      first: linkTo(1),
      last: linkTo(lastPage),
      prev: page.page > 1 ? linkTo(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? linkTo(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      per_page: page.perPage,
      total,
      last_page: lastPage,
      from: data.length > 0 ? page.offset + 1 : null,
      to: data.length > 0 ? page.offset + data.length : null,
    },
  };
}

/** `https://host` of generated links: BASE_URL when configured, else the request's own. */
export function origin(request: FastifyRequest, baseUrl: string | null): string {
  return baseUrl ?? `${request.protocol}://${request.host}`;
}

export function PaginatedOf<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    links: Type.Object({
      first: Type.String({ format: 'uri' }),
      last: Type.String({ format: 'uri' }),
      prev: Nullable(Type.String({ format: 'uri' })),
      next: Nullable(Type.String({ format: 'uri' })),
    }),
    meta: Type.Object({
      current_page: Type.Integer(),
      per_page: Type.Integer(),
      total: Type.Integer(),
      last_page: Type.Integer(),
      from: Nullable(Type.Integer()),
      to: Nullable(Type.Integer()),
    }),
  });
}

/** The general API's collection envelope (service-spec "general API overview"): `{success, data, meta}`. */
export interface Collection<T> {
  success: true;
  data: T[];
  meta: { current_page: number; per_page: number; total: number; total_pages: number };
}

export function collection<T>(page: PageRequest, data: T[], total: number): Collection<T> {
  return { success: true, data, meta: { current_page: page.page, per_page: page.perPage, total, total_pages: Math.ceil(total / page.perPage) } };
}

export function CollectionOf<T extends TSchema>(item: T) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    meta: Type.Object({ current_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer(), total_pages: Type.Integer() }),
  });
}
