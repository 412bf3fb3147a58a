// The forum's web pages, each behind its address in the page registry
// (urls/semantic-routes.ts), which also points the legacy URLs at them.
import { topicMergePage, topicSplitPage } from './split-merge-pages.ts';
import { reportPage } from './report-page.ts';
import type { FastifyPluginAsync } from 'fastify';
import type { ForumPageDeps } from './deps.ts';
import { forumPage } from './forum-page.ts';
import { homePage } from './home-page.ts';
import { profileEmailPage } from './profile-email-page.ts';
import { profilePage } from './profile-page.ts';
import { SEARCH_PATH, searchPage } from './search-page.ts';
import { membersPage } from './members-page.ts';
import { membersPath } from '../../urls/paths.ts';
import { topicPage, topicUnreadPage } from './topic-page.ts';
import { watchlistPage } from './watchlist-page.ts';

export type { ForumPageDeps };

export const forumPages: FastifyPluginAsync<ForumPageDeps> = async (app, deps) => {
  const { pages } = deps;
  pages.fixed(app, '/', homePage(deps));
  pages.entity(app, 'forum', forumPage(deps));
  pages.entity(app, 'topic', topicPage(deps));
  pages.entity(app, 'topic-unread', topicUnreadPage(deps));
  pages.entity(app, 'topic-split', topicSplitPage(deps.forum, deps.presenter));
  pages.entity(app, 'topic-merge', topicMergePage(deps.forum, deps.presenter));
  pages.fixed(app, '/report/:id/', reportPage(deps.forum));
  pages.locatePosts(async (postId, request) => (await deps.forum.getPost(postId, request.user)).topic_id);
  pages.entity(app, 'profile', profilePage(deps));
  pages.entity(app, 'profile-email', profileEmailPage(deps));
  pages.fixed(app, '/profile/watchlist/', watchlistPage(deps));
  pages.fixed(app, SEARCH_PATH, searchPage(deps));
  pages.fixed(app, membersPath(), membersPage(deps));
};
