// /admin/emoji-categories/: create, rename, reorder and delete categories,
// with the number of emojis in each. Deleting one keeps its emojis, without
// a category (CategoryService).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateCategoryBody, UpdateCategoryBody } from '../emoji/category-routes.ts';
import type { ListedCategory } from '../emoji/category-service.ts';
import { TITLE_MAX } from '../emoji/fields.ts';
import type { EmojiServices } from '../emoji/services.ts';
import { html } from '../web/html.ts';
import { t, tn } from '../i18n/messages.ts';
import { categoryPages } from './category-pages.ts';

export const emojiCategoryPages: FastifyPluginAsyncTypebox<{ emoji: EmojiServices }> = async (app, { emoji }) => {
  await app.register(
    categoryPages({
      base: '/admin/emoji-categories/',
      section: 'emoji-categories',
      title: () => t('admin.emoji_categories.title'),
      titleMax: TITLE_MAX,
      bodies: { create: CreateCategoryBody, update: UpdateCategoryBody },
      async list() {
        const [categories, catalog] = await Promise.all([emoji.categories.list({ withCount: true, withEmojis: false }), emoji.catalog.snapshot()]);
        return {
          categories,
          summary: html`${tn('admin.categories.count', categories.length)} <a href="/admin/emojis/?category_id=none">${tn('admin.categories.uncategorised', catalog.uncategorisedCount)}</a>.`,
        };
      },
      categoryOf: (listed: ListedCategory) => listed.row,
      contents: {
        heading: () => t('admin.emojis.title'),
        numeric: true,
        cell: (listed, name) =>
          html`<a href="/admin/emojis/?category_id=${listed.row.id}">${listed.emojisCount ?? 0}<span class="visually-hidden">${t('admin.categories.emojis_in', { name })}</span></a>`,
      },
      find: (id) => emoji.categories.find(id),
      create: (value) => emoji.categories.create(value),
      update: (id, value) => emoji.categories.update(id, value),
      async deleteQuestion(category) {
        const count = (await emoji.catalog.snapshot()).emojisIn(category.id).length;
        return count === 0
          ? t('admin.categories.delete_empty', { name: category.title })
          : tn('admin.categories.delete_question', count, { name: category.title });
      },
      rowDeleteQuestion: (name) => t('admin.categories.delete_ask', { name }),
      async delete(_request, category) {
        await emoji.categories.delete(category.id);
        return null;
      },
      deletedNotice: (category) => t('admin.categories.deleted', { name: category.title }),
    }),
  );
};
