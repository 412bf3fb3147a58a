// /api/word-filters: admins and moderators read and check, admins write.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { assertUser, requireRole, STAFF, ADMINS } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, Nullable, OneOf, QueryFlag, RequiredText, SearchQueryProperties, errorResponses, isOn } from '../http/schemas.ts';
import { MAX_TEXT_LENGTH } from './engine/apply.ts';
import { SORT_FIELDS, type WordFilterListFilter, type WordFilterSort } from './repository.ts';
import { CheckResultSchema, WordFilter, checkResultResource, wordFilterResource } from './resource.ts';
import { CONTENT_TYPES, FILTER_TYPES, NOTES_MAX_LENGTH, PATTERN_MAX_LENGTH, PATTERN_TYPES, REPLACEMENT_MAX_LENGTH, SEVERITIES } from './rules.ts';
import type { WordFiltersService } from './service.ts';

const TAGS = ['word-filters'];
const SECURITY = [{ bearer: [] }];

// Defaults (severity medium, is_active true, case_sensitive false) are the
// service's: a schema default would also fill in PATCH bodies.
const Fields = {
  pattern: RequiredText(
    PATTERN_MAX_LENGTH,
    'What to match: a word or phrase (exact), a word with * and ? (wildcard), or a regular expression in RE2 syntax, bare or as /…/flags with i, m, s, u, x (regex)',
  ),
  replacement: Nullable(
    Type.String({ maxLength: REPLACEMENT_MAX_LENGTH, description: 'Text put in place of each match; required when filter_type is replace' }),
  ),
  filter_type: OneOf(FILTER_TYPES, 'What a match does: block the text, hold it for moderation, or replace the match'),
  pattern_type: OneOf(PATTERN_TYPES, 'How the pattern is read'),
  severity: OneOf(SEVERITIES, 'Default medium'),
  is_active: Type.Boolean({ description: 'Default true' }),
  case_sensitive: Type.Boolean({ description: 'Default false: matching ignores case' }),
  applies_to: Type.Array(OneOf(CONTENT_TYPES), { minItems: 1, description: 'Where the rule applies: at least one content type' }),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX_LENGTH, description: 'For the moderators; not shown to users' })),
};

export const CreateBody = Type.Object({
  pattern: Fields.pattern,
  replacement: Type.Optional(Fields.replacement),
  filter_type: Fields.filter_type,
  pattern_type: Fields.pattern_type,
  severity: Type.Optional(Fields.severity),
  is_active: Type.Optional(Fields.is_active),
  case_sensitive: Type.Optional(Fields.case_sensitive),
  applies_to: Fields.applies_to,
  notes: Type.Optional(Fields.notes),
});

export const PatchBody = Type.Partial(CreateBody);

const FilterProperties = {
  filter_type: Type.Optional(OneOf(FILTER_TYPES)),
  pattern_type: Type.Optional(OneOf(PATTERN_TYPES)),
  severity: Type.Optional(OneOf(SEVERITIES)),
  is_active: Type.Optional(QueryFlag),
  applies_to: Type.Optional(OneOf(CONTENT_TYPES, 'Only rules applying to this content type')),
};

const Direction = OneOf(['asc', 'desc'] as const);

export const ListQuery = Type.Object({
  ...PageQueryProperties,
  ...FilterProperties,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Text contained in the pattern or the notes' })),
  sort: Type.Optional(OneOf(SORT_FIELDS, 'Sort field; default created_at (newest first)')),
  order: Type.Optional(Direction),
  sort_by: Type.Optional(OneOf(SORT_FIELDS, 'Same as sort')),
  sort_order: Type.Optional(Direction),
});

const SearchQuery = Type.Object({ ...SearchQueryProperties, ...FilterProperties });

export const CheckBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: MAX_TEXT_LENGTH, description: `The text to check, up to ${MAX_TEXT_LENGTH} characters` }),
  content_type: OneOf(CONTENT_TYPES, 'Where the text would be written: selects the rules that apply'),
});

export const wordFilterRoutes: FastifyPluginAsyncTypebox<{ wordFilters: WordFiltersService; baseUrl: string | null }> = async (
  app,
  { wordFilters, baseUrl },
) => {
  const staff = requireRole(STAFF);
  const admin = requireRole(ADMINS);

  app.get(
    '/',
    {
      preValidation: staff,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'List word filters',
        querystring: ListQuery,
        response: { 200: PaginatedOf(WordFilter), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const { records, total } = await wordFilters.list(listFilter(request.query), sortOf(request.query), page);
      return paginated(request, baseUrl, page, records.map(wordFilterResource), total);
    },
  );

  app.get(
    '/search',
    {
      preValidation: staff,
      config: { validationStatus: 400 },
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Search word filters by pattern and notes',
        querystring: SearchQuery,
        response: { 200: DataOf(Type.Array(WordFilter)), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const records = await wordFilters.search(request.query.q, listFilter(request.query), request.query.limit ?? 20);
      return { data: records.map(wordFilterResource) };
    },
  );

  app.post(
    '/check',
    {
      preValidation: staff,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Apply the active rules of a content type to a text, as a write of that text would',
        body: CheckBody,
        response: { 200: DataOf(CheckResultSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => ({ data: checkResultResource(await wordFilters.check(request.body.text, request.body.content_type)) }),
  );

  app.get(
    '/:id',
    {
      preValidation: staff,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Show a word filter',
        params: IdParams,
        response: { 200: DataOf(WordFilter), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: wordFilterResource(await wordFilters.get(request.params.id)) }),
  );

  app.post(
    '/',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Create a word filter',
        body: CreateBody,
        response: { 201: DataOf(WordFilter), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const record = await wordFilters.create(request.body, assertUser(request).id);
      return reply.code(201).send({ data: wordFilterResource(record) });
    },
  );

  app.patch(
    '/:id',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Change a word filter',
        params: IdParams,
        body: PatchBody,
        response: { 200: DataOf(WordFilter), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: wordFilterResource(await wordFilters.update(request.params.id, request.body)) }),
  );

  app.delete(
    '/:id',
    {
      preValidation: admin,
      schema: {
        tags: TAGS,
        security: SECURITY,
        summary: 'Delete a word filter',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await wordFilters.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export type ListQueryValue = Static<typeof ListQuery>;
type FilterQuery = Static<typeof SearchQuery> | ListQueryValue;

export function listFilter(query: FilterQuery): WordFilterListFilter {
  return {
    filter_type: query.filter_type,
    pattern_type: query.pattern_type,
    severity: query.severity,
    is_active: query.is_active === undefined ? undefined : isOn(query.is_active),
    applies_to: query.applies_to,
    ...('search' in query ? { search: query.search } : {}),
  };
}

/** `sort`/`order` (the overview's names) win over `sort_by`/`sort_order`; a named field sorts ascending unless told. */
export function sortOf(query: ListQueryValue): WordFilterSort {
  const field = query.sort ?? query.sort_by;
  const direction = query.order ?? query.sort_order;
  return field === undefined ? { field: 'created_at', direction: direction ?? 'desc' } : { field, direction: direction ?? 'asc' };
}
