// What a feed says, apart from how a format spells it (atom.ts, rss.ts).
// Every address in it is absolute; every text is as the site displays it
// (replacement rules applied, BBCode and emoji rendered).

import type { FeedFormat } from '../../urls/paths.ts';

export type { FeedFormat };

export const FEED_FORMATS: readonly FeedFormat[] = ['atom', 'rss'];

export const FEED_MEDIA_TYPES: Readonly<Record<FeedFormat, string>> = {
  atom: 'application/atom+xml',
  rss: 'application/rss+xml',
};

export interface FeedAuthor {
  name: string;
  /** The author's profile page. */
  uri: string;
}

export interface FeedEntry {
  /** A permanent IRI: the slug-less address of the topic or post, so a rename keeps it (RFC 4287 4.2.6). */
  id: string;
  title: string;
  /** The entry's page. */
  link: string;
  /** Stored timestamps (ISO 8601 UTC). */
  published: string;
  updated: string;
  /** null: a deleted account (the feed's own author stands in). */
  author: FeedAuthor | null;
  /** The displayed HTML with every link made absolute. */
  html: string;
}

export interface Feed {
  /** A permanent IRI: the feed's slug-less Atom address. */
  id: string;
  title: string;
  subtitle: string;
  /** The page the feed follows (home, forum or topic page). */
  page: string;
  /** This feed's own address in each format. */
  self: Readonly<Record<FeedFormat, string>>;
  /** The newest `updated` of its entries, or of the thing it follows when it has none. */
  updated: string;
  /** The site's name: the feed's author and generator. */
  siteName: string;
  entries: readonly FeedEntry[];
}

/**
 * Rendered post HTML with its site-relative addresses made absolute: a feed
 * reader shows it away from the site, and RSS has no xml:base. Our renderer
 * writes every attribute double-quoted and escaped, so the patterns are
 * exact: `href="/…"`, `src="/…"`, CSS `url('/…')` (sprites), and the quote
 * links `href="#post-N"`, which point at the post on its topic's pages.
 */
export function absoluteHtml(rendered: string, origin: string, postLink: (postId: number) => string): string {
  const base = origin.replace(/\/+$/, '');
  return rendered
    .replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${base}/`)
    .replace(/url\('\/(?!\/)/g, `url('${base}/`)
    .replace(/(\shref=")#post-(\d+)"/g, (_, start: string, id: string) => `${start}${postLink(Number(id))}"`);
}
