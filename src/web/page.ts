// Every HTML page goes out through sendPage(): one layout (navigation, the
// user's state, the canonical link), escaped by default.
import { THEMES, themeOf, type Theme } from './theme.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken, existingCsrfToken } from '../auth/csrf.ts';
import { MODERATORS, hasRole } from '../auth/guard.ts';
import { origin } from '../http/pagination.ts';
import { html, type SafeHtml } from './html.ts';
import { t, tn } from '../i18n/messages.ts';
import { currentReader } from '../i18n/context.ts';
import type { Locale } from '../i18n/locale.ts';
import { formatBytes } from '../i18n/sizes.ts';
import { profilePath } from '../urls/paths.ts';
import { localPath } from '../http/local-path.ts';
import type { MemberTransfer } from '../auth/service.ts';
import { formatPoints, formatRatio } from './format.ts';
import { SITE_ASSETS } from './site-assets.ts';

const STYLESHEET = SITE_ASSETS.url('style.css');
const ICON = SITE_ASSETS.url('favicon.svg');
const TIME_ZONE_SCRIPT = SITE_ASSETS.url('time-zone.js');
const NOTIFICATION_SCRIPT = SITE_ASSETS.url('notification-count.js');

/** What a page shows of the site itself (the admin's site settings, site/settings.ts). */
export interface SiteIdentity {
  name: string;
  description: string;
  logoUrl: string | null;
  registrationOpen: boolean;
  /** The static pages the footer links to, in order. */
  footerPages: readonly FooterPage[];
}

/** A static page in the footer: its path and its title in each language it is written in. */
export interface FooterPage {
  path: string;
  titles: Partial<Record<Locale, string>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Site-wide settings pages need: the configured origin for absolute links, and the site's settings as last read. */
    site: { baseUrl: string | null; lastKnown(): SiteIdentity };
  }
  interface FastifyRequest {
    /** The site's settings as this request found them (site/settings.ts); null where none were read (the API, a refused Host). */
    siteSettings: SiteIdentity | null;
  }
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Path of the canonical URL of this page (made absolute here). */
  canonical?: string;
  status?: number;
  /** Extra elements for <head> (page-specific scripts, robots). */
  head?: SafeHtml;
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, options: PageOptions): FastifyReply {
  const site = request.siteSettings ?? request.server.site.lastKnown();
  const canonical = options.canonical === undefined ? undefined : new URL(options.canonical, origin(request, request.server.site.baseUrl)).toString();
  const user = request.user;
  // A guest gets a CSRF cookie only from a page with a form (csrfInput); reading needs none.
  const token = user === null ? existingCsrfToken(request) : csrfToken(request, reply);
  const theme = themeOf(request);
  const document = html`<!doctype html>
<html lang="${currentReader().locale}"${theme === 'auto' ? '' : html` data-theme="${theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · ${site.name}</title>
${site.description === '' ? '' : html`<meta name="description" content="${site.description}">`}
${canonical === undefined ? '' : html`<link rel="canonical" href="${canonical}">`}
${token === undefined ? '' : html`<meta name="csrf-token" content="${token}">`}
<link rel="stylesheet" href="${STYLESHEET}">
<link rel="icon" href="${ICON}" type="image/svg+xml">
<script src="${TIME_ZONE_SCRIPT}" defer></script>
${user === null ? '' : html`<script src="${NOTIFICATION_SCRIPT}" defer></script>`}
${options.head ?? ''}
</head>
<body>
<a class="skip" href="#main">${t('layout.skip')}</a>
<header class="site">
  <a class="brand" href="/">${site.logoUrl === null ? site.name : html`<img class="logo" src="${site.logoUrl}" alt="${site.name}">`}</a>
  <nav aria-label="${t('layout.nav')}">
    <ul>
      <li><a href="/">${t('layout.forums')}</a></li>
      <li><a href="/search/">${t('layout.search')}</a></li>
      <li><a href="/members/">${t('layout.members')}</a></li>
      <li><a href="/groups/">${t('layout.groups')}</a></li>
      ${
        user === null
          ? html`<li><a href="/login/">${t('layout.login')}</a></li>${site.registrationOpen ? html`<li><a href="/register/">${t('layout.register')}</a></li>` : ''}`
          : html`<li>${messagesLink(request.unreadMessages)}</li>
      <li>${notificationsLink(request.unreadNotifications)}</li>
      <li><a href="/profile/watchlist/">${t('layout.watchlist')}</a></li>
      <li><a href="/settings/">${t('layout.settings')}</a></li>
      ${hasRole(user, MODERATORS) ? html`<li><a href="/admin/">${t('layout.admin')}</a></li>` : ''}
      <li><form method="post" action="/logout/" class="inline"><input type="hidden" name="_csrf" value="${token}"><button type="submit" class="link">${t('layout.logout', { name: user.name })}</button></form></li>`
      }
    </ul>
  </nav>
</header>
${user === null || request.memberTransfer === null ? '' : memberBar(request.memberTransfer, user.id, user.name)}
<main id="main">
${options.body}
</main>
<footer class="site">${footerLinks(site.footerPages)}${footerSwitches(user === null, options.canonical, theme)}<p><a href="/api/docs">${t('layout.api_docs')}</a></p></footer>
</body>
</html>`;
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(Buffer.from(document.value));
}

/**
 * What a tracker's members look at first (TorrentPier, UNIT3D): their upload,
 * download, ratio and bonus, with the way to the tracker, to their bonus and
 * to their profile, on every page.
 */
function memberBar(transfer: MemberTransfer, id: number, name: string): SafeHtml {
  const ratio = transfer.downloaded > 0 ? formatRatio(transfer.uploaded / transfer.downloaded) : '—';
  return html`<nav class="member-bar" aria-label="${t('bar.label')}"><ul>
  <li><a href="/tracker/">${t('bar.tracker')}</a></li>
  <li><a href="${profilePath({ id, name })}"><span class="up" title="${t('bar.uploaded')}">↑ ${formatBytes(transfer.uploaded)}</span> <span class="down" title="${t('bar.downloaded')}">↓ ${formatBytes(transfer.downloaded)}</span> <span>${t('bar.ratio', { ratio })}</span></a></li>
  <li><a href="/profile/bonus/">${t('bar.bonus', { points: formatPoints(transfer.bonusPoints) })}</a></li>
</ul></nav>`;
}

/** The static pages (rules, FAQ, about), each titled in the reader's language where it is written in it. */
function footerLinks(pages: readonly FooterPage[]): SafeHtml | '' {
  if (pages.length === 0) return '';
  const locale = currentReader().locale;
  return html`<nav class="site-pages" aria-label="${t('layout.site_pages')}"><ul>${pages.map((page) => {
    const own = page.titles[locale];
    if (own !== undefined) return html`<li><a href="${page.path}">${own}</a></li>`;
    const [other, title] = Object.entries(page.titles)[0]!;
    return html`<li><a href="${page.path}" lang="${other}">${title}</a></li>`;
  })}</ul></nav>`;
}

/**
 * The footer's switches, each back to this page's canonical address (an error
 * page, which has none, sends to the index: the address asked for is never
 * echoed): a guest's choice of language (reader-choices.ts; a member's is a
 * setting) and everyone's choice of colours (theme.ts). The choice in use is
 * not a link.
 */
function footerSwitches(guest: boolean, canonical: string | undefined, currentTheme: Theme): SafeHtml {
  const back = `?next=${encodeURIComponent(localPath(canonical, '/'))}`;
  const currentLocale = currentReader().locale;
  const language = (locale: 'en' | 'ru', name: string) =>
    locale === currentLocale
      ? html`<li><span aria-current="true" lang="${locale}">${name}</span></li>`
      : html`<li><a href="/language/${locale}/${back}" lang="${locale}" hreflang="${locale}">${name}</a></li>`;
  const names: Record<Theme, string> = { auto: t('layout.theme.auto'), light: t('layout.theme.light'), dark: t('layout.theme.dark') };
  return html`${guest ? html`<nav class="languages" aria-label="${t('layout.language')}"><ul>${language('en', 'English')}${language('ru', 'Русский')}</ul></nav>` : ''}<nav class="themes" aria-labelledby="themes-label"><span id="themes-label">${t('layout.theme')}:</span><ul>${THEMES.map(
    (theme) =>
      theme === currentTheme
        ? html`<li><span aria-current="true">${names[theme]}</span></li>`
        : html`<li><a href="/theme/${theme}/${back}">${names[theme]}</a></li>`,
  )}</ul></nav>`;
}

/** The header's link to the Inbox, with how many messages wait unopened. */
function messagesLink(unread: number): SafeHtml {
  if (unread === 0) return html`<a href="/messages/">${t('layout.messages')}</a>`;
  return html`<a href="/messages/">${t('layout.messages')} <span class="count">${unread}</span><span class="visually-hidden"> ${tn('layout.unread', unread)}</span></a>`;
}

/** The notification centre, with its unread count (kept current by notification-count.js). */
function notificationsLink(unread: number): SafeHtml {
  return html`<a href="/notifications/" data-notifications>${t('layout.notifications')}${unread === 0 ? '' : html` <span class="count">${unread}</span><span class="visually-hidden"> ${tn('layout.unread', unread)}</span>`}</a>`;
}

/** Hidden CSRF field for a form on this page. */
export function csrfInput(request: FastifyRequest, reply: FastifyReply): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrfToken(request, reply)}">`;
}
