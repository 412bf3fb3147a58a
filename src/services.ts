// Every capability's service, built once over the shared database. Routes
// and tests use these same instances.
import type { Logger } from 'pino';
import { AccountKeysRepository } from './accounts/keys-repository.ts';
import { ACCOUNT_MAILS_PER_HOUR, AccountsService } from './accounts/service.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { CredentialsRepository } from './auth/credentials-repository.ts';
import type { LimiterFactory } from './auth/limiters.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { AuthService } from './auth/service.ts';
import { ForumPresenter } from './forum/presenter.ts';
import { ForumRepository } from './forum/repository.ts';
import { PROFILE_MAILS_PER_HOUR, ProfileMailService } from './forum/profile-mail.ts';
import { ForumService } from './forum/service.ts';
import { TopicViewCounter } from './forum/view-counter.ts';
import { MailBudget } from './mail/budget.ts';
import { OutboxMailer, type Mailer } from './mail/mailer.ts';
import { CATALOG_TOPIC } from './emoji/catalog.ts';
import { createEmojiServices, type EmojiServices } from './emoji/services.ts';
import { ImageStore } from './emoji/images/store.ts';
import { Outbox } from './mail/outbox.ts';
import { UsersRepository } from './users/repository.ts';
import { UsersService } from './users/service.ts';
import { WordFiltersRepository } from './word-filters/repository.ts';
import { WORD_FILTERS_TOPIC } from './word-filters/checker.ts';
import { WordFiltersService } from './word-filters/service.ts';

export interface Services {
  users: UsersService;
  auth: AuthService;
  wordFilters: WordFiltersService;
  mailer: Mailer;
  outbox: Outbox;
  /** Uploaded emoji images and sprite sheets. */
  images: ImageStore;
  forum: ForumService;
  presenter: ForumPresenter;
  emoji: EmojiServices;
  topicViews: TopicViewCounter;
  profileMail: ProfileMailService;
  accounts: AccountsService;
}

export function createServices(database: DatabaseHandle, config: Config, limiters: LimiterFactory, log: Logger): Services {
  const usersRepository = new UsersRepository(database.db, database.dialect);
  const wordFilters = new WordFiltersService(database.db, database.dialect, new WordFiltersRepository(database.db, database.dialect), database.changes);
  const users = new UsersService(database.db, usersRepository, wordFilters);
  const auth = new AuthService(usersRepository, new CredentialsRepository(database.db), new LoginThrottle(limiters), config.tokenTtlDays);
  const mailer = new OutboxMailer(database.db, log, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    origin: config.baseUrl ?? `http://${config.host}:${config.port}`,
  });
  const forumRepository = new ForumRepository(database.db);
  const forum = new ForumService(forumRepository, wordFilters, mailer);
  const topicViews = new TopicViewCounter(forumRepository);
  const profileMail = new ProfileMailService(wordFilters, mailer, new MailBudget(limiters.create('mail_member', PROFILE_MAILS_PER_HOUR, 60 * 60)));
  const emoji = createEmojiServices(database);
  const presenter = new ForumPresenter(wordFilters, async () => {
    const catalog = await emoji.catalog.snapshot();
    return (code) => catalog.emojiByCode(code);
  });
  // Rendered text depends on the rules and on the emoji catalog: a change to either empties the presenter's cache.
  database.changes.subscribe(WORD_FILTERS_TOPIC, () => presenter.invalidate());
  database.changes.subscribe(CATALOG_TOPIC, () => presenter.invalidate());
  const accounts = new AccountsService(users, new AccountKeysRepository(database.db), mailer, new MailBudget(limiters.create('mail_address', ACCOUNT_MAILS_PER_HOUR, 60 * 60)));
  return { users, auth, wordFilters, emoji, mailer, outbox: new Outbox(database.db), images: new ImageStore(config.uploadDir), forum, presenter, topicViews, profileMail, accounts };
}
