// Every capability's service, built once over the shared database. Routes
// and tests use these same instances.
import { Presence } from './site/presence.ts';
import { BoardStats } from './site/board-stats.ts';
import { SiteSettings } from './site/settings.ts';
import type { Logger } from 'pino';
import { AccountKeysRepository } from './accounts/keys-repository.ts';
import { ACCOUNT_MAILS_PER_HOUR, AccountsService } from './accounts/service.ts';
import type { Clock } from './clock.ts';
import { mailOrigin, type Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { CredentialsRepository } from './auth/credentials-repository.ts';
import type { LimiterFactory } from './auth/limiters.ts';
import { FloodControl } from './auth/flood-control.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { PasswordHasher } from './auth/passwords.ts';
import { AuthService } from './auth/service.ts';
import { keepFresh, PageCache } from './forum/page-cache.ts';
import { PollRepository } from './forum/polls/repository.ts';
import { CategoryRepository } from './forum/category-repository.ts';
import { AccessRepository } from './forum/access-repository.ts';
import { ForumAccess } from './forum/forum-access.ts';
import { FeedSource } from './forum/feeds/source.ts';
import { Sitemaps } from './forum/sitemap.ts';
import { Ranks } from './users/ranks.ts';
import { SitePages } from './site/pages.ts';
import { NotificationStore } from './notifications/store.ts';
import { MemberBans } from './forum/member-bans.ts';
import { ModerationLog } from './forum/moderation-log.ts';
import { ForumPresenter } from './forum/presenter.ts';
import { ForumRepository } from './forum/repository.ts';
import { PROFILE_MAILS_PER_HOUR, ProfileMailService } from './forum/profile-mail.ts';
import { ForumService } from './forum/service.ts';
import { SearchBackfill } from './forum/search/backfill.ts';
import { SearchRepository } from './forum/search/repository.ts';
import { Search } from './forum/search/service.ts';
import { TopicViewCounter } from './forum/view-counter.ts';
import { GroupRepository } from './groups/repository.ts';
import { Groups } from './groups/service.ts';
import { MailBudget } from './mail/budget.ts';
import { MessagesRepository } from './messages/repository.ts';
import { MassSendRepository } from './mass-send/repository.ts';
import { MassSender } from './mass-send/sender.ts';
import { MassSends } from './mass-send/service.ts';
import { MassMailSubscriptions } from './mass-send/subscriptions.ts';
import { PrivateMessages } from './messages/service.ts';
import { OutboxMailer, type Mailer } from './mail/mailer.ts';
import { CATALOG_TOPIC } from './emoji/catalog.ts';
import { createEmojiServices, type EmojiServices } from './emoji/services.ts';
import { ImageStore } from './emoji/images/store.ts';
import { Outbox } from './mail/outbox.ts';
import { createTrackerServices, type TrackerServices } from './tracker/services.ts';
import { UsersRepository } from './users/repository.ts';
import { UsersService } from './users/service.ts';
import { Avatars } from './users/avatars/avatars.ts';
import { WordFiltersRepository } from './word-filters/repository.ts';
import { WORD_FILTERS_TOPIC } from './word-filters/checker.ts';
import { WordFiltersService } from './word-filters/service.ts';

export interface Services {
  users: UsersService;
  auth: AuthService;
  wordFilters: WordFiltersService;
  mailer: Mailer;
  outbox: Outbox;
  avatars: Avatars;
  /** Uploaded emoji images and sprite sheets. */
  images: ImageStore;
  forum: ForumService;
  presenter: ForumPresenter;
  emoji: EmojiServices;
  topicViews: TopicViewCounter;
  /** Rendered post lists and topic tables of forum pages. */
  pageCache: PageCache;
  /** Who opened a page in the last minutes (the index's "who is online"). */
  presence: Presence;
  /** The index's figures: topics, posts, members, the newest. */
  boardStats: BoardStats;
  /** What the Atom and RSS feeds list (forum/feeds/). */
  feeds: FeedSource;
  /** What the sitemaps list (forum/sitemap.ts). */
  sitemaps: Sitemaps;
  /** Search of topics and posts (forum/search/). */
  search: Search;
  /** Indexes the posts written before the search index existed, after start-up. */
  searchBackfill: SearchBackfill;
  profileMail: ProfileMailService;
  /** Bans with a reason and an end, from profiles and the API (forum/member-bans.ts). */
  bans: MemberBans;
  /** Private messages between members (messages/). */
  messages: PrivateMessages;
  accounts: AccountsService;
  tracker: TrackerServices;
  /** Groups of members, their leaders and join requests (groups/). */
  groups: Groups;
  /** The site's own settings: name, description, logo, default language, registration (site/settings.ts). */
  site: SiteSettings;
  /** Ranks shown beside posts (users/ranks.ts). */
  ranks: Ranks;
  /** Static pages: rules, FAQ, about (site/pages.ts). */
  sitePages: SitePages;
  /** The notification centre's rows and settings (notifications/store.ts). */
  notifications: NotificationStore;
  /** Administrators' messages and mail to many members (mass-send/). */
  massSends: MassSends;
  /** Sends them in the background (mass-send/sender.ts). */
  massSender: MassSender;
  /** Members' choice of getting mass mail, and the unsubscribe links (mass-send/subscriptions.ts). */
  massMail: MassMailSubscriptions;
}

export function createServices(database: DatabaseHandle, config: Config, limiters: LimiterFactory, log: Logger, clock: Clock): Services {
  const usersRepository = new UsersRepository(database.db, database.dialect);
  const wordFilters = new WordFiltersService(database.db, database.dialect, new WordFiltersRepository(database.db, database.dialect), database.changes, clock);
  const passwords = new PasswordHasher(config.passwordHashCost);
  const users = new UsersService(database.db, usersRepository, wordFilters, passwords, clock);
  const auth = new AuthService(
    usersRepository,
    new CredentialsRepository(database.db, database.dialect),
    new LoginThrottle(limiters),
    config.tokenTtlDays,
    passwords,
    clock,
  );
  const mailer = new OutboxMailer(
    database.db,
    log,
    {
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      origin: mailOrigin(config),
    },
    clock,
  );
  const forumRepository = new ForumRepository(database.db);
  const flood = new FloodControl(limiters, config.floodIntervalSeconds);
  const emoji = createEmojiServices(database, clock);
  const presenter = new ForumPresenter(wordFilters, async () => {
    const catalog = await emoji.catalog.snapshot();
    return (code) => catalog.emojiByCode(code);
  });
  const searchIndex = new SearchRepository(database.db, database.dialect);
  const moderationLog = new ModerationLog(database.db);
  const accessRepository = new AccessRepository(database.db);
  const access = new ForumAccess(accessRepository, database, (error) =>
    log.warn({ err: error }, 'could not tell other instances that forum permissions changed'),
  );
  const notifications = new NotificationStore(database.db);
  const forum = new ForumService(
    forumRepository,
    wordFilters,
    mailer,
    {
      flood,
      naming: presenter,
      changes: database.changes,
      searchIndex,
      moderationLog,
      categories: new CategoryRepository(database.db),
      access,
      accessRepository,
      polls: new PollRepository(database.db),
      notifications,
      db: database.db,
      database,
      onError: (error) => log.warn({ err: error }, 'could not tell other instances that release templates changed'),
    },
    clock,
  );
  const topicViews = new TopicViewCounter(forumRepository, clock);
  const profileMail = new ProfileMailService(wordFilters, mailer, new MailBudget(limiters.create('mail_member', PROFILE_MAILS_PER_HOUR, 60 * 60)), flood);
  // Rendered text depends on the rules and on the emoji catalog: a change to either empties the presenter's cache.
  database.changes.subscribe(WORD_FILTERS_TOPIC, () => presenter.invalidate());
  database.changes.subscribe(CATALOG_TOPIC, () => presenter.invalidate());
  const ranks = new Ranks(database.db, database, clock, (error) => log.warn({ err: error }, 'could not tell other instances that the ranks changed'));
  const sitePages = new SitePages(database.db, database, clock, (error) => log.warn({ err: error }, 'could not tell other instances that the pages changed'));
  const pageCache = new PageCache();
  keepFresh(pageCache, database, [WORD_FILTERS_TOPIC, CATALOG_TOPIC], (error) =>
    log.warn({ err: error }, 'could not tell other instances to empty their page caches'),
  );
  const accounts = new AccountsService(
    users,
    new AccountKeysRepository(database.db),
    mailer,
    new MailBudget(limiters.create('mail_address', ACCOUNT_MAILS_PER_HOUR, 60 * 60)),
    clock,
  );
  const tracker = createTrackerServices(database, config, log, forum, { notifications, mailer, naming: presenter }, clock);
  const site = new SiteSettings(database.db, database, clock, (error) =>
    log.warn({ err: error }, 'could not tell other instances that the site settings changed'),
  );
  const massSendRepository = new MassSendRepository(database.db);
  const massSender = new MassSender(massSendRepository, mailer, new MailBudget(limiters.create('mail_mass', config.massMailPerMinute, 60)), clock, {
    log,
    site: () => {
      const { name, defaultLocale } = site.lastKnown();
      return { name, defaultLocale };
    },
  });
  return {
    users,
    auth,
    wordFilters,
    emoji,
    mailer,
    outbox: new Outbox(database.db),
    images: new ImageStore(config.uploadDir),
    avatars: new Avatars(usersRepository, config.uploadDir, clock, moderationLog),
    forum,
    presenter,
    topicViews,
    pageCache,
    feeds: new FeedSource(forumRepository, presenter, access),
    sitemaps: new Sitemaps(database.db, access, presenter, sitePages, clock),
    search: new Search(searchIndex, forumRepository, presenter, access, (name) => usersRepository.findByUsername(name)),
    searchBackfill: new SearchBackfill(searchIndex),
    profileMail,
    bans: new MemberBans(users, moderationLog, clock),
    messages: new PrivateMessages(new MessagesRepository(database.db), usersRepository, wordFilters, flood, mailer, presenter, notifications, clock),
    accounts,
    tracker,
    groups: new Groups(new GroupRepository(database.db), clock),
    site,
    ranks,
    sitePages,
    notifications,
    massSends: new MassSends(massSendRepository, clock, () => massSender.wake()),
    massSender,
    massMail: new MassMailSubscriptions(massSendRepository),
    presence: new Presence(clock),
    boardStats: new BoardStats(database.db, clock),
  };
}
