// GET /api/search: topics and posts found for a query, in the general
// collection envelope ({success, data, meta}) with the contract's list
// conventions (search, sort, order, page, per_page). docs/search.md.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { CollectionOf, PageQueryProperties, collection, pageRequest } from '../../http/pagination.ts';
import { Nullable, Reference, VisibleText, errorResponses } from '../../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../../http/timestamps.ts';
import { forumPath } from '../../urls/paths.ts';
import { AuthorResource, authorResource, postPathOn } from '../resource.ts';
import { SEARCH_MAX_LENGTH, type Search, type SearchHit, type SearchRequest } from './service.ts';

const USERNAME_MAX = 64;
const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

/** The search form's fields: the API's query and the /search/ page's. */
export const SearchQueryFields = {
  search: VisibleText(SEARCH_MAX_LENGTH, 'Words to find; "a phrase", word* (prefix), -word (leave out)'),
  in: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('titles')], { default: 'all', description: 'Search posts and titles, or topic titles only' }),
  ),
  forum_id: Type.Optional(Reference('Only this forum')),
  author: Type.Optional(Type.String({ maxLength: USERNAME_MAX, visible: true, description: 'Only posts by this member (user name)' })),
  from: Type.Optional(Day('Only posts written on or after this day (YYYY-MM-DD, UTC)')),
  to: Type.Optional(Day('Only posts written on or before this day (YYYY-MM-DD, UTC)')),
  sort: Type.Optional(Type.Union([Type.Literal('relevance'), Type.Literal('date')], { default: 'relevance', description: 'Best match first, or by date' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'desc (default): best or newest first' })),
};

export const SearchQuery = Type.Object({ ...SearchQueryFields, ...PageQueryProperties });

export const SearchResult = Type.Object({
  post_id: Type.Integer(),
  url: Type.String({ description: 'The post on its topic page' }),
  topic: Type.Object({
    id: Type.Integer(),
    title: Type.String({ description: 'As displayed' }),
    title_html: Type.String(),
    url: Type.String(),
  }),
  forum: Type.Object({ id: Type.Integer(), name: Type.String(), url: Type.String() }),
  author: Nullable(AuthorResource),
  status: Type.Union([Type.Literal('published'), Type.Literal('pending')]),
  snippet_html: Type.String({ description: 'Part of the post as displayed, escaped, the matching words in <mark>' }),
  score: Type.Number({ description: 'Relevance (higher is better); comparable within one answer only' }),
  created_at: SecondsTimestamp,
});

export function searchRequest(query: Static<typeof SearchQuery>): SearchRequest {
  return {
    search: query.search,
    in: query.in ?? 'all',
    forumId: query.forum_id ?? null,
    author: query.author ?? null,
    from: query.from ?? null,
    to: query.to ?? null,
    sort: query.sort ?? 'relevance',
    order: query.order ?? null,
  };
}

export function searchResult(hit: SearchHit): Static<typeof SearchResult> {
  const { post, topic } = hit;
  return {
    post_id: post.id,
    url: postPathOn(topic.path, post.id),
    topic: { id: post.topic_id, title: topic.title, title_html: topic.html.value, url: topic.path },
    forum: { id: post.forum_id, name: post.forum_name, url: forumPath({ id: post.forum_id, name: post.forum_name }) },
    author: authorResource(post.author_id, post.author_name),
    status: post.status,
    snippet_html: hit.snippet.value,
    score: post.score,
    created_at: isoSeconds(post.created_at),
  };
}

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: Search }> = async (app, { search }) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search topics and posts (ranked, with highlighted snippets; pending posts only for their author and moderators)',
        querystring: SearchQuery,
        response: { 200: CollectionOf(SearchResult), ...errorResponses(422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { rows, total } = await search.find(searchRequest(request.query), request.user, page);
      return collection(page, rows.map(searchResult), total);
    },
  );
};
