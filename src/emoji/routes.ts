// Every emoji catalog endpoint, registered under /api/emoji.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { aliasRoutes } from './alias-routes.ts';
import { categoryRoutes } from './category-routes.ts';
import { emojiRoutes } from './emoji-routes.ts';
import { ResponseCache } from './response-cache.ts';
import type { EmojiServices } from './services.ts';

export const emojiCatalogRoutes: FastifyPluginAsyncTypebox<{ emoji: EmojiServices; baseUrl: string | null }> = async (app, { emoji, baseUrl }) => {
  const cache = new ResponseCache(emoji.catalog, baseUrl);
  await app.register(emojiRoutes, { emojis: emoji.emojis, baseUrl, cache });
  await app.register(aliasRoutes, { aliases: emoji.aliases, baseUrl });
  await app.register(categoryRoutes, { categories: emoji.categories, cache });
};
