// /admin/categories/: the forum categories, the index's headings
// (docs/access.md, "Categories"): create, rename and reorder from the table,
// delete an empty one. A category that still holds forums is refused with the
// reason and the forums in it. Which forum is in which is chosen on the
// forum's page (forums.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CategoryWithForums } from '../forum/categories.ts';
import { CATEGORY_TITLE_MAX, CategoryBodies } from '../forum/category-routes.ts';
import type { ForumService } from '../forum/service.ts';
import { ApiError } from '../http/errors.ts';
import { html } from '../web/html.ts';
import { t, tn } from '../i18n/messages.ts';
import { categoryPages } from './category-pages.ts';

export const forumCategoryPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  await app.register(
    categoryPages({
      base: '/admin/categories/',
      section: 'categories',
      title: () => t('admin.forum_categories.title'),
      help: () => t('admin.forum_categories.help'),
      titleMax: CATEGORY_TITLE_MAX,
      bodies: CategoryBodies,
      async list(request) {
        const categories = await forum.categories.list(await forum.access.of(request.user));
        return { categories, summary: html`${tn('admin.forum_categories.count', categories.length)}` };
      },
      categoryOf: (category: CategoryWithForums) => category.row,
      contents: {
        heading: () => t('admin.forum_categories.forums'),
        numeric: false,
        cell(category) {
          // Subforums are listed with their forum; the table names the forums admins put in the category.
          const forums = category.forums.filter((row) => row.parent_id === null);
          if (forums.length === 0) return html`<span class="muted">${t('admin.forum_categories.empty')}</span>`;
          return html`<ul class="inline-list" aria-label="${t('admin.forum_categories.forums_of', { name: category.row.title })}">${forums.map(
            (row) => html`<li><a href="/admin/forums/${row.id}/">${row.name}</a></li>`,
          )}</ul>`;
        },
      },
      find: (id) => forum.categories.find(id),
      create: (value) => forum.categories.create(value),
      update: (id, value) => forum.categories.update(id, value),
      deleteQuestion: async (category) => t('admin.forum_categories.delete_question', { name: category.title }),
      rowDeleteQuestion: (name) => t('admin.delete_question', { name }),
      async delete(request, category) {
        try {
          await forum.categories.delete(category.id);
          return null;
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'CONFLICT') throw error;
          // Say which forums keep it, so the admin knows where to go.
          const { forums } = await forum.categories.get(category.id, await forum.access.of(request.user));
          const names = forums.filter((row) => row.parent_id === null).map((row) => t('admin.forums.quoted', { name: row.name }));
          const reason = names.length === 0 ? error.message : `${error.message} ${t('admin.forum_categories.in_it', { names: names.join(', ') })}`;
          return t('admin.forum_categories.refused', { name: category.title, reason });
        }
      },
      deletedNotice: (category) => t('admin.forum_categories.deleted', { name: category.title }),
    }),
  );
};
