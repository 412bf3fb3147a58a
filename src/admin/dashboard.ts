// /admin/: the sections this viewer may use, each with the number that says
// whether it needs attention.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ImageStore } from '../emoji/images/store.ts';
import type { EmojiServices } from '../emoji/services.ts';
import { moderatedScope } from '../forum/access.ts';
import type { ForumService } from '../forum/service.ts';
import type { TrackerServices } from '../tracker/services.ts';
import type { Outbox } from '../mail/outbox.ts';
import type { UsersService } from '../users/service.ts';
import { number, t, tn } from '../i18n/messages.ts';
import { html } from '../web/html.ts';
import type { WordFiltersService } from '../word-filters/service.ts';
import { MODERATORS, assertUser, requirePage } from '../auth/guard.ts';
import type { AuthUser } from '../auth/service.ts';
import { sectionsFor, sendAdminPage, type SectionId } from './layout.ts';

export interface DashboardServices {
  forum: ForumService;
  wordFilters: WordFiltersService;
  users: UsersService;
  outbox: Outbox;
  images: ImageStore;
  emoji: EmojiServices;
  tracker: Pick<TrackerServices, 'figures'>;
}

const ONE = { page: 1, perPage: 1, offset: 0 };
const NEWEST = { field: 'created_at', direction: 'desc' } as const;

/** A section's number, its word (in the number's plural form) and a second line. */
type Count = { figure: number; label: string; extra?: string };

export const dashboardPage: FastifyPluginAsyncTypebox<DashboardServices> = async (app, services) => {
  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 301));

  // Forum moderators come in too: they find the one section they may use, the moderation queue.
  app.get('/admin/', { preValidation: requirePage(MODERATORS) }, async (request, reply) => {
    const viewer = assertUser(request);
    const sections = sectionsFor(viewer);
    const counts = new Map<SectionId, Count>();
    for (const section of sections) {
      const count = await countFor(section.id, viewer, services);
      if (count !== undefined) counts.set(section.id, count);
    }
    return sendAdminPage(request, reply, {
      title: t('admin.dashboard.title'),
      section: 'dashboard',
      body: html`<h1>${t('admin.dashboard.heading')}</h1>
<ul class="cards">
  ${sections.map((section) => {
    const count = counts.get(section.id);
    return html`<li id="card-${section.id}">
    <h2><a href="${section.path}">${t(section.title)}</a></h2>
    ${count === undefined ? '' : html`<p class="count">${number(count.figure)} <span class="muted">${count.label}</span></p>${count.extra === undefined ? '' : html`<p>${count.extra}</p>`}`}
    <p class="muted">${t(section.summary)}</p>
  </li>`;
  })}
</ul>`,
    });
  });
};

async function countFor(
  id: SectionId,
  viewer: AuthUser,
  { forum, wordFilters, users, outbox, images, emoji, tracker }: DashboardServices,
): Promise<Count | undefined> {
  switch (id) {
    case 'moderation':
      return { figure: (await forum.listPending(viewer, ONE)).total, label: t('admin.dashboard.waiting') };
    case 'word-filters': {
      const [all, active] = await Promise.all([wordFilters.list({}, NEWEST, ONE), wordFilters.list({ is_active: true }, NEWEST, ONE)]);
      return { figure: all.total, label: tn('admin.dashboard.rules', all.total), extra: t('admin.dashboard.rules_active', { count: active.total }) };
    }
    case 'users': {
      const [all, banned] = await Promise.all([users.list({}, 0, 1), users.list({ status: 'banned' }, 0, 1)]);
      return { figure: all.total, label: tn('admin.dashboard.users', all.total), extra: t('admin.dashboard.users_banned', { count: banned.total }) };
    }
    case 'torrents': {
      const site = await tracker.figures.site();
      return {
        figure: site.torrents,
        label: tn('admin.dashboard.torrents', site.torrents),
        extra: t('admin.dashboard.peers', {
          peers: tn('admin.dashboard.peers_now', site.peers),
          seeders: tn('admin.dashboard.seeders', site.seeders),
          leechers: tn('admin.dashboard.leechers', site.leechers),
        }),
      };
    }
    case 'forums': {
      const forums = (await forum.forums.list(ONE, await forum.access.unrestricted())).total;
      return { figure: forums, label: tn('admin.dashboard.forums', forums) };
    }
    case 'moderation-log': {
      const permissions = await forum.access.of(viewer);
      const { total } = await forum.moderationLog.list({ action: null, actorName: null, topicId: null }, ONE, moderatedScope(viewer, permissions));
      return { figure: total, label: tn('admin.dashboard.actions', total) };
    }
    case 'outbox': {
      const counts = await outbox.counts();
      return {
        figure: counts.total,
        label: tn('admin.dashboard.messages', counts.total),
        extra: t('admin.dashboard.messages_failed', { count: counts.failed }),
      };
    }
    case 'emojis': {
      const all = await emoji.emojis.list({}, { offset: 0, limit: 1 }, { category: false, aliases: false });
      const aliases = await emoji.aliases.list({}, { offset: 0, limit: 1 }, false);
      return { figure: all.total, label: tn('admin.dashboard.emojis', all.total), extra: tn('admin.dashboard.aliases', aliases.total) };
    }
    case 'emoji-categories': {
      const [categories, catalog] = await Promise.all([emoji.categories.list({ withCount: false, withEmojis: false }), emoji.catalog.snapshot()]);
      return {
        figure: categories.length,
        label: tn('admin.dashboard.categories', categories.length),
        extra: tn('admin.dashboard.uncategorised', catalog.uncategorisedCount),
      };
    }
    case 'emoji-images': {
      const [custom, sprites] = await Promise.all([images.list('custom'), images.list('sprites')]);
      return { figure: custom.length, label: tn('admin.dashboard.images', custom.length), extra: tn('admin.dashboard.sprite_sheets', sprites.length) };
    }
    default:
      return undefined;
  }
}
