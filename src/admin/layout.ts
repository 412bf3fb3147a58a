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

export type SectionId =
  'moderation' | 'moderation-log' | 'torrents' | 'word-filters' | 'emojis' | 'emoji-categories' | 'emoji-images' | 'users' | 'forums' | 'outbox';

export interface Section {
  id: SectionId;
  title: string;
  path: string;
  roles: Access;
  /** What the dashboard says the section is for. */
  summary: string;
}

export const SECTIONS: readonly Section[] = [
  // Forum moderators too: the queue shows them their forums' posts.
  { id: 'moderation', title: 'Moderation queue', path: '/admin/moderation/', roles: MODERATORS, summary: 'Posts held by a word filter, waiting for approval.' },
  { id: 'torrents', title: 'Torrents', path: '/admin/torrents/', roles: STAFF, summary: 'Torrent statuses and freeleech.' },
  {
    id: 'word-filters',
    title: 'Word filters',
    path: '/admin/word-filters/',
    roles: STAFF,
    summary: 'Rules that replace, block or hold what users write, and a tester.',
  },
  {
    id: 'emojis',
    title: 'Emojis',
    path: '/admin/emojis/',
    roles: ADMINS,
    summary: 'The emoji catalog: Unicode, custom images and sprites, with their aliases.',
  },
  { id: 'emoji-categories', title: 'Emoji categories', path: '/admin/emoji-categories/', roles: ADMINS, summary: 'Groups of emojis and their order.' },
  { id: 'emoji-images', title: 'Emoji images', path: '/admin/emoji-images/', roles: ADMINS, summary: 'Upload custom emoji images and sprite sheets.' },
  { id: 'users', title: 'Users', path: '/admin/users/', roles: ADMINS, summary: 'Roles, bans and bonus points.' },
  { id: 'forums', title: 'Forums', path: '/admin/forums/', roles: ADMINS, summary: 'Create, rename, reorder and delete forums.' },
  {
    id: 'moderation-log',
    title: 'Moderation log',
    path: '/admin/moderation-log/',
    roles: ADMINS,
    summary: 'What moderators did: approvals, locks, pins, moves, deletions.',
  },
  { id: 'outbox', title: 'Outbox', path: '/admin/outbox/', roles: ADMINS, summary: 'Mail the forum has sent or kept.' },
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
    title: `${options.title} · Admin`,
    status: options.status ?? 200,
    head: html`<meta name="robots" content="noindex">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<link rel="stylesheet" href="${ADMIN_ASSETS.stylesheet}">
<script src="${ADMIN_ASSETS.htmx}" defer></script>
<script src="${ADMIN_ASSETS.script}" defer></script>`,
    body: html`<div class="admin">
<nav class="admin-nav" aria-label="Admin sections">
  <ul>
    <li><a href="/admin/"${options.section === 'dashboard' ? html` aria-current="page"` : ''}>Dashboard</a></li>
    ${sections.map((section) => html`<li><a href="${section.path}"${section.id === options.section ? html` aria-current="page"` : ''}>${section.title}</a></li>`)}
  </ul>
</nav>
<div class="admin-content">
<div id="admin-live" class="admin-live" role="status" aria-live="polite">${notice === null ? '' : html`<p class="notice ${notice.kind}">${notice.message}</p>`}</div>
${options.body}
</div>
</div>`,
  });
}
