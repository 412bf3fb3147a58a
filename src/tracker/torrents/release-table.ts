// Releases as lists show them: the tracker list (/tracker/) and release
// forums' topic lists. TorrentPier's columns: the status sign, the release
// (topic) title over the .torrent's name, its forum, size, seeders in green,
// leechers in red, completed, when and by whom, and the .torrent and magnet
// links for a reader who may download it. On a phone each row is a card.
import { AuthorLinks } from '../../forum/pages/parts.ts';
import type { TopicHeading } from '../../forum/presenter.ts';
import { t } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { forumPath } from '../../urls/paths.ts';
import { breakableName, dateHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { magnetLink } from '../metainfo.ts';
import type { TorrentView } from './service.ts';
import { freeleechBadge, freeleechLabel, statusLabel, statusSign, type Freeleech, type TorrentStatus } from './statuses.ts';

export const downloadPath = (id: number): string => `/tracker/download/${id}/`;

/** The status's sign in its colour, then its name. */
export function statusHtml(status: TorrentStatus): SafeHtml {
  const { sign, tone } = statusSign(status);
  // A no-break space: the sign never ends a line apart from the name.
  return html`<span class="tor-sign ${tone}" aria-hidden="true">${sign}</span>\u00a0${statusLabel(status)}`;
}

/** A badge for gold or silver; nothing for none. */
export function freeleechHtml(kind: Freeleech): SafeHtml {
  return kind === 'none' ? html`` : html` <span class="badge freeleech ${kind}" title="${freeleechLabel(kind)}">${freeleechBadge(kind)}</span>`;
}

export interface ReleaseLinks {
  /** The reader's personal announce URL, for magnet links; null: no magnet links (a guest). */
  announce: string | null;
  /** Whether the reader may download this one (its forum's `download` right, a status that is not frozen). */
  mayDownload(row: TorrentView): boolean;
}

/** ".torrent · magnet" for one release, named for assistive technology; empty where the reader may not download it. */
export function releaseLinks(row: TorrentView, title: string, links: ReleaseLinks): SafeHtml {
  if (links.announce === null || !links.mayDownload(row)) return html``;
  return html`<a href="${downloadPath(row.id)}" download>${t('tracker.torrent_file')}<span class="visually-hidden"> ${title}</span></a> <a href="${magnetLink(row, links.announce)}">${t('tracker.magnet_short')}<span class="visually-hidden"> ${title}</span></a>`;
}

/** A release in a forum's topic list, under its title: status, size, seeders, leechers, completed. */
export function releaseLine(row: TorrentView): SafeHtml {
  return html`<p class="release-line"><span>${statusHtml(row.status)}${freeleechHtml(row.freeleech)}</span> <span>${formatBytes(row.size)}</span> <span class="seeders">${t('tracker.seeders')}: ${row.seeders}</span> <span class="leechers">${t('tracker.leechers')}: ${row.leechers}</span> <span>${t('tracker.completed')}: ${row.completed_count}</span></p>`;
}

/** The tracker list: `headings[i]` is the heading of `rows[i]`'s topic. */
export function releaseTable(rows: readonly TorrentView[], headings: readonly TopicHeading[], links: ReleaseLinks): SafeHtml {
  const authors = new AuthorLinks();
  return html`<div class="table-wrap"><table class="releases cards">
<caption class="visually-hidden">${t('tracker.caption')}</caption>
<thead><tr><th scope="col">${t('tracker.release')}</th><th scope="col">${t('tracker.status')}</th><th scope="col">${t('search.forum')}</th><th scope="col" class="num">${t('tracker.size')}</th><th scope="col" class="num">${t('tracker.seeders')}</th><th scope="col" class="num">${t('tracker.leechers')}</th><th scope="col" class="num">${t('tracker.completed')}</th><th scope="col">${t('tracker.added')}</th><th scope="col"><span class="visually-hidden">${t('tracker.links')}</span></th></tr></thead>
<tbody>${rows.map((row, index) => {
    const heading = headings[index]!;
    return html`<tr>
<td><a href="${heading.path}">${heading.html}</a>${freeleechHtml(row.freeleech)}<br><span class="muted file">${breakableName(row.name)}</span></td>
<td class="compact" data-label="${t('tracker.status')}">${statusHtml(row.status)}</td>
<td class="compact" data-label="${t('search.forum')}"><a href="${forumPath({ id: row.forum_id, name: row.forum_name })}">${row.forum_name}</a></td>
<td class="num" data-label="${t('tracker.size')}">${formatBytes(row.size)}</td>
<td class="num seeders" data-label="${t('tracker.seeders')}">${row.seeders}</td>
<td class="num leechers" data-label="${t('tracker.leechers')}">${row.leechers}</td>
<td class="num" data-label="${t('tracker.completed')}">${row.completed_count}</td>
<td class="registered">${dateHtml(row.registered_at)} <span class="muted">${t('forums.by')}</span> ${authors.link(row.uploader_id, row.uploader_name)}</td>
<td class="compact links">${releaseLinks(row, heading.title, links)}</td>
</tr>`;
  })}</tbody></table></div>`;
}
