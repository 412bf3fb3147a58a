// The admin area's frame around every page: the site layout (sendPage), the
// section navigation the viewer may use, the one-time notice, htmx and the
// admin script. Admin pages are never cached or indexed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/service.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { sendPage } from '../web/page.ts';
import { ADMIN_ASSETS } from './assets.ts';
import { takeFlash } from './flash.ts';
import { ADMINS, MODERATORS, STAFF, hasRole, type Access } from '../auth/guard.ts';
import { t, type TextKey } from '../i18n/messages.ts';

export type SectionId =
  | 'moderation'
  | 'reports'
  | 'moderation-log'
  | 'torrents'
  | 'word-filters'
  | 'emojis'
  | 'emoji-categories'
  | 'emoji-images'
  | 'users'
  | 'forums'
  | 'categories'
  | 'groups'
  | 'ranks'
  | 'pages'
  | 'mass-send'
  | 'outbox'
  | 'settings';

export interface Section {
  id: SectionId;
  /** Its name in the navigation and on the dashboard (catalog key). */
  title: TextKey;
  path: string;
  roles: Access;
  /** What the dashboard says the section is for (catalog key). */
  summary: TextKey;
}

export const SECTIONS: readonly Section[] = [
  // Forum moderators too: the queue shows them their forums' posts.
  { id: 'moderation', title: 'admin.moderation.title', path: '/admin/moderation/', roles: MODERATORS, summary: 'admin.moderation.summary' },
  // Forum moderators too: the reports of their forums' posts.
  { id: 'reports', title: 'admin.reports.title', path: '/admin/reports/', roles: MODERATORS, summary: 'admin.reports.summary' },
  { id: 'torrents', title: 'admin.torrents.title', path: '/admin/torrents/', roles: STAFF, summary: 'admin.torrents.summary' },
  { id: 'word-filters', title: 'admin.word_filters.title', path: '/admin/word-filters/', roles: STAFF, summary: 'admin.word_filters.summary' },
  { id: 'emojis', title: 'admin.emojis.title', path: '/admin/emojis/', roles: ADMINS, summary: 'admin.emojis.summary' },
  { id: 'emoji-categories', title: 'admin.emoji_categories.title', path: '/admin/emoji-categories/', roles: ADMINS, summary: 'admin.emoji_categories.summary' },
  { id: 'emoji-images', title: 'admin.emoji_images.title', path: '/admin/emoji-images/', roles: ADMINS, summary: 'admin.emoji_images.summary' },
  { id: 'users', title: 'admin.users.title', path: '/admin/users/', roles: ADMINS, summary: 'admin.users.summary' },
  { id: 'forums', title: 'admin.forums.title', path: '/admin/forums/', roles: ADMINS, summary: 'admin.forums.summary' },
  { id: 'categories', title: 'admin.forum_categories.title', path: '/admin/categories/', roles: ADMINS, summary: 'admin.forum_categories.summary' },
  { id: 'groups', title: 'admin.groups.title', path: '/admin/groups/', roles: ADMINS, summary: 'admin.groups.summary' },
  { id: 'ranks', title: 'admin.ranks.title', path: '/admin/ranks/', roles: ADMINS, summary: 'admin.ranks.summary' },
  { id: 'pages', title: 'admin.pages.title', path: '/admin/pages/', roles: ADMINS, summary: 'admin.pages.summary' },
  { id: 'moderation-log', title: 'admin.log.title', path: '/admin/moderation-log/', roles: MODERATORS, summary: 'admin.log.summary' },
  { id: 'mass-send', title: 'admin.mass_send.title', path: '/admin/mass-send/', roles: ADMINS, summary: 'admin.mass_send.summary' },
  { id: 'outbox', title: 'admin.outbox.title', path: '/admin/outbox/', roles: ADMINS, summary: 'admin.outbox.summary' },
  { id: 'settings', title: 'admin.site.title', path: '/admin/settings/', roles: ADMINS, summary: 'admin.site.summary' },
];

export function sectionsFor(user: AuthUser): Section[] {
  return SECTIONS.filter((section) => hasRole(user, section.roles));
}

export interface AdminPageOptions {
  title: string;
  section: SectionId | 'dashboard';
  body: SafeHtml;
  status?: number;
}

// 422 answers carry the form again with its errors: htmx swaps them in like a 200.
const HTMX_CONFIG = JSON.stringify({
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '422', swap: true, error: false },
    { code: '[45]..', swap: false, error: true },
  ],
  historyRestoreAsHxRequest: false,
  allowScriptTags: false,
  // Under the Content-Security-Policy (http/security-headers.ts): no eval,
  // and no <style> element of htmx's own (its indicator rules are in admin.css).
  allowEval: false,
  includeIndicatorStyles: false,
});

export function sendAdminPage(request: FastifyRequest, reply: FastifyReply, options: AdminPageOptions): FastifyReply {
  const user = request.user;
  const sections = user === null ? [] : sectionsFor(user);
  const notice = takeFlash(request, reply);
  reply.header('cache-control', 'no-store').header('vary', 'HX-Request');
  return sendPage(request, reply, {
    title: t('admin.page_title', { title: options.title }),
    status: options.status ?? 200,
    head: html`<meta name="robots" content="noindex">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<link rel="stylesheet" href="${ADMIN_ASSETS.stylesheet}">
<script src="${ADMIN_ASSETS.htmx}" defer></script>
<script src="${ADMIN_ASSETS.script}" defer></script>`,
    // The admin script's own messages (a failed inline action, an image's preview), in the reader's language.
    body: html`<div class="admin" data-refused="${t('admin.script.refused')}" data-failed="${t('admin.script.failed')}" data-unreachable="${t('admin.script.unreachable')}" data-preview-of="${t('admin.script.preview_of')}">
<nav class="admin-nav" aria-label="${t('admin.nav')}">
  <ul>
    <li><a href="/admin/"${options.section === 'dashboard' ? html` aria-current="page"` : ''}>${t('admin.dashboard.title')}</a></li>
    ${sections.map((section) => html`<li><a href="${section.path}"${section.id === options.section ? html` aria-current="page"` : ''}>${t(section.title)}</a></li>`)}
  </ul>
</nav>
<div class="admin-content">
<div id="admin-live" class="admin-live" role="status" aria-live="polite">${notice === null ? '' : html`<p class="notice ${notice.kind}">${notice.message}</p>`}</div>
${options.body}
</div>
</div>`,
  });
}
