// Page parameters in, `{data, links, meta}` out, with absolute links that keep
// the request's other query parameters.
import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { Nullable } from './schemas.ts';

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 100;

export const PageQueryProperties = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT, description: `Items per page (1-${PER_PAGE_MAX})` }),
  ),
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
