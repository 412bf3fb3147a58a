// RSS 2.0 (the RSS Advisory Board's specification): a channel with its three
// required elements (title, link, description), atom:link rel=self as the
// Board recommends, and items with a permanent guid, RFC 822 dates and the
// HTML as escaped text. Authors go in dc:creator: RSS's own <author> must
// be an e-mail address, which we never publish.
import { FEED_MEDIA_TYPES, type Feed, type FeedEntry } from './model.ts';
import { element, parent } from './xml.ts';

export function rssDocument(feed: Feed): string {
  const channel = parent('channel', {}, [
    element('title', {}, feed.title),
    element('link', {}, feed.page),
    element('description', {}, feed.subtitle),
    element('language', {}, 'en'),
    element('lastBuildDate', {}, rfc822(feed.updated)),
    element('generator', {}, feed.siteName),
    element('atom:link', { rel: 'self', type: FEED_MEDIA_TYPES.rss, href: feed.self.rss }),
    ...feed.entries.map(item),
  ]);
  const namespaces = { version: '2.0', 'xmlns:atom': 'http://www.w3.org/2005/Atom', 'xmlns:dc': 'http://purl.org/dc/elements/1.1/' };
  return `<?xml version="1.0" encoding="utf-8"?>\n${parent('rss', namespaces, [channel])}\n`;
}

function item(entry: FeedEntry): string {
  return parent('item', {}, [
    element('title', {}, entry.title),
    element('link', {}, entry.link),
    // The id is the entry's slug-less page address: a link that keeps working.
    element('guid', { isPermaLink: 'true' }, entry.id),
    element('pubDate', {}, rfc822(entry.published)),
    ...(entry.author === null ? [] : [element('dc:creator', {}, entry.author.name)]),
    element('description', {}, entry.html),
  ]);
}

/** `Tue, 02 Jan 2026 03:04:05 GMT`: RFC 822 with a four-digit year, as RSS 2.0 asks. */
export function rfc822(stored: string): string {
  return new Date(stored).toUTCString();
}
