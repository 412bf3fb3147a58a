// The admin area at /admin/: one module per section, all calling the same
// services as the API.
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';
import { adminAssets } from './assets.ts';
import { dashboardPage } from './dashboard.ts';
import { emojiCategoryPages } from './emoji-categories.ts';
import { emojiImagePages } from './emoji-images.ts';
import { emojiPages } from './emojis.ts';
import { forumPages } from './forums.ts';
import { forumCategoryPages } from './forum-categories.ts';
import { siteSettingsPages } from './site-settings.ts';
import { rankPages } from './ranks.ts';
import { releaseTemplatePages } from './release-template.ts';
import { sitePageAdmin } from './site-pages.ts';
import { massSendPages } from './mass-send.ts';
import { forumPermissionPages } from './forum-permissions.ts';
import { groupAdminPages } from '../groups/admin-pages.ts';
import { moderationPages } from './moderation.ts';
import { moderationLogPages } from './moderation-log.ts';
import { outboxPages } from './outbox.ts';
import { torrentAdminPages } from './torrents.ts';
import { userPages } from './users.ts';
import { wordFilterTesterPage } from './word-filter-tester.ts';
import { wordFilterPages } from './word-filters.ts';

export const adminPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  await app.register(adminAssets);
  await app.register(dashboardPage, services);
  await app.register(moderationPages, { forum: services.forum, wordFilters: services.wordFilters });
  await app.register(wordFilterTesterPage, { wordFilters: services.wordFilters });
  await app.register(wordFilterPages, { wordFilters: services.wordFilters });
  await app.register(userPages, { users: services.users, figures: services.tracker.figures });
  await app.register(torrentAdminPages, { torrents: services.tracker.torrents, passkeys: services.tracker.passkeys, users: services.users });
  await app.register(forumPages, { forum: services.forum });
  await app.register(forumCategoryPages, { forum: services.forum });
  await app.register(forumPermissionPages, { forum: services.forum });
  await app.register(releaseTemplatePages, { forum: services.forum });
  await app.register(groupAdminPages, { groups: services.groups });
  await app.register(moderationLogPages, { forum: services.forum });
  await app.register(outboxPages, { outbox: services.outbox });
  await app.register(siteSettingsPages, { site: services.site });
  await app.register(rankPages, { ranks: services.ranks });
  await app.register(sitePageAdmin, { pages: services.sitePages });
  await app.register(massSendPages, { massSends: services.massSends, render: (body) => services.presenter.messageBody(body) });
  await app.register(emojiPages, { emoji: services.emoji, images: services.images });
  await app.register(emojiCategoryPages, { emoji: services.emoji });
  await app.register(emojiImagePages, { images: services.images, emoji: services.emoji });
};
