// /api/emoji/emojis: list, search, get, create, update (PUT and PATCH), delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireRole, ADMINS } from '../auth/guard.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../http/pagination.ts';
import { DataOf, IdParams, Nullable, QueryFlag, SearchQueryProperties, errorResponses, isOn } from '../http/schemas.ts';
import type { EmojiService, LoadedEmoji } from './emoji-service.ts';
import { DisplayOrder, EmojiShortcode, EmojiText, ImageUrl, Reference, SpriteMode, SpriteParamsInput, Title } from './fields.ts';
import { Emoji, aliasResource, categoryResource, emojiResource } from './resource.ts';
import type { ResponseCache } from './response-cache.ts';

const TAGS = ['emoji'];
const ADMIN = [{ bearer: [] }];

const WithCategory = Type.Optional({ ...QueryFlag, description: "Include each emoji's category" });
const WithAliases = Type.Optional({ ...QueryFlag, description: "Include each emoji's aliases (alphabetical)" });

export const EmojiListQuery = Type.Object({
  ...PageQueryProperties,
  category_id: Type.Optional(Reference('Only emojis of this category (must exist)')),
  search: Type.Optional(Type.String({ description: 'Contained in the shortcode, the title or the emoji text (case-insensitive)' })),
  with_category: WithCategory,
  with_aliases: Type.Optional({ ...QueryFlag, description: "Include each emoji's aliases (alphabetical) and aliases_count" }),
});

const EmojiSearchQuery = Type.Object({ ...SearchQueryProperties, with_category: WithCategory, with_aliases: WithAliases });

const EmojiFields = {
  title: Title,
  emoji_text: Type.Optional(EmojiText),
  emoji_shortcode: EmojiShortcode,
  image_url: Type.Optional(ImageUrl),
  sprite_mode: Type.Optional(SpriteMode),
  sprite_params: Type.Optional(SpriteParamsInput),
  emoji_category_id: Type.Optional(Nullable(Reference('Category (must exist), or null for none'))),
  display_order: DisplayOrder,
};

export const CreateEmojiBody = Type.Object(EmojiFields, {
  description: 'One kind per emoji: emoji_text (Unicode), image_url (custom image) or sprite_mode with sprite_params (CSS sprite)',
});

export const UpdateEmojiBody = Type.Object(
  {
    ...EmojiFields,
    title: Type.Optional(EmojiFields.title),
    emoji_shortcode: Type.Optional(EmojiFields.emoji_shortcode),
    display_order: Type.Optional(EmojiFields.display_order),
  },
  { description: "Every field optional. Setting one kind's field makes the emoji that kind and clears the others; setting two kinds is refused" },
);

/** A list item: relations as asked for, aliases_count beside loaded aliases. */
function listedEmoji(emoji: LoadedEmoji) {
  return emojiResource(emoji.row, {
    category: emoji.category ? categoryResource(emoji.category) : null,
    aliases: emoji.aliases ? emoji.aliases.map((alias) => aliasResource(alias)) : null,
    aliasesCount: emoji.aliases ? emoji.aliases.length : null,
  });
}

/** Single get and search results: relations as loaded, aliases_count always null. */
function shownEmoji(emoji: LoadedEmoji) {
  return emojiResource(emoji.row, {
    category: emoji.category ? categoryResource(emoji.category) : null,
    aliases: emoji.aliases ? emoji.aliases.map((alias) => aliasResource(alias)) : null,
  });
}

export const emojiRoutes: FastifyPluginAsyncTypebox<{ emojis: EmojiService; baseUrl: string | null; cache: ResponseCache }> = async (
  app,
  { emojis, baseUrl, cache },
) => {
  app.get(
    '/emojis',
    {
      schema: {
        tags: TAGS,
        summary: 'List emojis by display order',
        querystring: EmojiListQuery,
        response: { 200: PaginatedOf(Emoji), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) =>
      cache.send(request, reply, async () => {
        const query = request.query;
        const page = pageRequest(query);
        const { rows, total } = await emojis.list(
          { categoryId: query.category_id, search: query.search },
          { offset: page.offset, limit: page.perPage },
          { category: isOn(query.with_category), aliases: isOn(query.with_aliases) },
        );
        return paginated(request, baseUrl, page, rows.map(listedEmoji), total);
      }),
  );

  app.get(
    '/emojis/search',
    {
      config: { validationStatus: 400 },
      schema: {
        tags: TAGS,
        summary: 'Search emojis by relevance: exact shortcode or alias, prefix, title word, then anywhere',
        querystring: EmojiSearchQuery,
        response: { 200: Type.Object({ data: Type.Array(Emoji) }), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) =>
      cache.send(request, reply, async () => {
        const query = request.query;
        const found = await emojis.search(query.q, query.limit ?? 20, { category: isOn(query.with_category), aliases: isOn(query.with_aliases) });
        return { data: found.map(shownEmoji) };
      }),
  );

  app.get(
    '/emojis/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One emoji with its category and aliases',
        params: IdParams,
        response: { 200: DataOf(Emoji), ...errorResponses(404, 429) },
      },
    },
    async (request) => ({ data: shownEmoji(await emojis.get(request.params.id)) }),
  );

  app.post(
    '/emojis',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Create an emoji',
        security: ADMIN,
        body: CreateEmojiBody,
        response: { 201: DataOf(Emoji), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const row = await emojis.create(request.body);
      return reply.code(201).send({ data: emojiResource(row) });
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/emojis/:id',
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Update an emoji (every field optional)',
        security: ADMIN,
        params: IdParams,
        body: UpdateEmojiBody,
        response: { 200: DataOf(Emoji), ...errorResponses(401, 403, 404, 422, 429) },
      },
      handler: async (request) => ({ data: emojiResource(await emojis.update(request.params.id, request.body)) }),
    });
  }

  app.delete(
    '/emojis/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Delete an emoji and its aliases',
        security: ADMIN,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await emojis.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
