// GET /api/members: the member list everyone may read (docs/members.md),
// searched by name and sorted by name, join date or posts, in the catalog's
// list envelope ({data, links, meta}). The admin list of accounts with their
// e-mail addresses is GET /api/users.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { OneOf, errorResponses } from '../http/schemas.ts';
import { USERNAME_MAX } from './fields.ts';
import { MEMBER_SORTS, type MemberListing } from './repository.ts';
import { MemberResource, memberResource } from './resource.ts';
import type { UsersService } from './service.ts';

/** The list's query: the API's and the /members/ page's. */
export const MemberQueryFields = {
  search: Type.Optional(Type.String({ maxLength: USERNAME_MAX, description: 'Part of the name, any case' })),
  sort: Type.Optional(OneOf(MEMBER_SORTS, 'joined (default), name or posts')),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default: asc for joined and name, desc for posts' })),
};

export const MemberQuery = Type.Object({ ...MemberQueryFields, ...PageQueryProperties });

export function memberListing(query: Static<typeof MemberQuery>): MemberListing {
  const sort = query.sort ?? 'joined';
  const search = query.search?.trim() ?? '';
  return { search: search === '' ? null : search, sort, order: query.order ?? (sort === 'posts' ? 'desc' : 'asc') };
}

export const memberRoutes: FastifyPluginAsyncTypebox<{ users: UsersService; baseUrl: string | null }> = async (app, { users, baseUrl }) => {
  app.get(
    '/members',
    {
      schema: {
        tags: ['users'],
        summary: 'Members, with their post counts (accounts waiting for activation are not members yet)',
        querystring: MemberQuery,
        response: { 200: PaginatedOf(MemberResource), ...errorResponses(422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await users.members(memberListing(request.query), page.offset, page.perPage);
      return paginated(request, baseUrl, page, rows.map(memberResource), total);
    },
  );
};
