// What the forum's pages work with: the same services the JSON API uses.
import type { UsersService } from '../../users/service.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { ProfileMailService } from '../profile-mail.ts';
import type { ForumService } from '../service.ts';
import type { TopicViewCounter } from '../view-counter.ts';

export interface ForumPageDeps {
  pages: PageRoutes;
  forum: ForumService;
  presenter: ForumPresenter;
  users: UsersService;
  views: TopicViewCounter;
  profileMail: ProfileMailService;
}
