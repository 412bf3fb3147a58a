// Atom 1.0 (RFC 4287): feed and entries with the elements the RFC requires
// (id, title, updated; an author for every entry, here the feed's own as the
// fallback for deleted accounts) and those readers expect (link rel=self and
// alternate, published, content as escaped HTML).
import { isoSeconds } from '../../http/timestamps.ts';
import { FEED_MEDIA_TYPES, type Feed, type FeedEntry } from './model.ts';
import { element, parent } from './xml.ts';

export function atomDocument(feed: Feed): string {
  const head = [
    element('id', {}, feed.id),
    element('title', { type: 'text' }, feed.title),
    element('subtitle', { type: 'text' }, feed.subtitle),
    element('updated', {}, isoSeconds(feed.updated)),
    parent('author', {}, [element('name', {}, feed.siteName)]),
    element('link', { rel: 'self', type: FEED_MEDIA_TYPES.atom, href: feed.self.atom }),
    element('link', { rel: 'alternate', type: 'text/html', href: feed.page }),
    element('generator', {}, feed.siteName),
  ];
  return `<?xml version="1.0" encoding="utf-8"?>\n${parent('feed', { xmlns: 'http://www.w3.org/2005/Atom', 'xml:lang': 'en' }, [...head, ...feed.entries.map(entry)])}\n`;
}

function entry(item: FeedEntry): string {
  return parent('entry', {}, [
    element('id', {}, item.id),
    element('title', { type: 'text' }, item.title),
    element('link', { rel: 'alternate', type: 'text/html', href: item.link }),
    element('published', {}, isoSeconds(item.published)),
    element('updated', {}, isoSeconds(item.updated)),
    ...(item.author === null ? [] : [parent('author', {}, [element('name', {}, item.author.name), element('uri', {}, item.author.uri)])]),
    element('content', { type: 'html' }, item.html),
  ]);
}
