// The feeds' addresses (docs/feeds.md): `/feed.atom` and `/feed.rss` for the
// site, `/forum/{slug}.{id}/feed.atom|rss` and `/topic/{slug}.{id}/feed.atom|rss`.
// Each answers with validators (ETag, Last-Modified) and 304 to a reader that
// already has it. Content is what guests see: a pending topic's feed is a
// 404 even for its author, and so is the feed of a forum guests may not view
// (or a topic's there); a forum guests may view but not read has no feed
// either (403), whoever asks (docs/access.md).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendConditionally } from '../../http/conditional.ts';
import { ModelNotFoundError } from '../../http/errors.ts';
import { origin } from '../../http/pagination.ts';
import { forumFeedPath, siteFeedPath, topicFeedPath } from '../../urls/paths.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { ForumPresenter, TopicHeading } from '../presenter.ts';
import type { ForumRow, TopicWithAuthor } from '../repository.ts';
import type { ForumService } from '../service.ts';
import { atomDocument } from './atom.ts';
import { FEED_FORMATS, FEED_MEDIA_TYPES, type Feed, type FeedFormat } from './model.ts';
import { rssDocument } from './rss.ts';
import type { FeedSite, FeedSource } from './source.ts';

export interface FeedRouteDeps {
  pages: PageRoutes;
  forum: ForumService;
  presenter: ForumPresenter;
  feeds: FeedSource;
}

const DOCUMENTS: Readonly<Record<FeedFormat, (feed: Feed) => string>> = { atom: atomDocument, rss: rssDocument };

/**
 * Readers and shared caches may keep a feed but must ask again before using
 * it (a 304 costs little): a post a moderator hides leaves every feed at once.
 */
const CACHE_CONTROL = 'public, no-cache';

export const feedRoutes: FastifyPluginAsync<FeedRouteDeps> = async (app, { pages, forum, presenter, feeds }) => {
  for (const format of FEED_FORMATS) {
    app.get(siteFeedPath(format), async (request, reply) => send(request, reply, format, await feeds.site(siteOf(request))));

    pages.entityDocument<ForumRow>(app, 'forum', `feed.${format}`, {
      async load(id) {
        const row = await forum.getForum(id);
        await feeds.guestsMayRead(row.id, () => new ModelNotFoundError('Forum', id));
        return row;
      },
      path: (row) => forumFeedPath(row, format),
      serve: async (request, reply, row) => send(request, reply, format, await feeds.forum(siteOf(request), row)),
    });

    pages.entityDocument<{ row: TopicWithAuthor; heading: TopicHeading }>(app, 'topic', `feed.${format}`, {
      // As a guest sees it, whoever asks.
      async load(id) {
        const row = await forum.getTopic(id, null);
        await feeds.guestsMayRead(row.forum_id, () => new ModelNotFoundError('Topic', id));
        return { row, heading: await presenter.heading(row) };
      },
      path: (topic) => topicFeedPath({ id: topic.row.id, title: topic.heading.title }, format),
      serve: async (request, reply, topic) => send(request, reply, format, await feeds.topic(siteOf(request), topic.row)),
    });
  }
};

/** Absolute links from BASE_URL, or from a Host the edge has accepted (docs/security.md, "HTTP edge"). */
function siteOf(request: FastifyRequest): FeedSite {
  const name = (request.siteSettings ?? request.server.site.lastKnown()).name;
  return { origin: origin(request, request.server.site.baseUrl), name };
}

function send(request: FastifyRequest, reply: FastifyReply, format: FeedFormat, feed: Feed): FastifyReply {
  return sendConditionally(request, reply, {
    body: DOCUMENTS[format](feed),
    type: `${FEED_MEDIA_TYPES[format]}; charset=utf-8`,
    lastModified: feed.updated,
    cacheControl: CACHE_CONTROL,
  });
}
