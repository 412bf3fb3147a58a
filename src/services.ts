// Every capability's service, built once over the shared database. Routes
// and tests use these same instances.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { CredentialsRepository } from './auth/credentials-repository.ts';
import type { LimiterFactory } from './auth/limiters.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { AuthService } from './auth/service.ts';
import { ForumPresenter } from './forum/presenter.ts';
import { ForumRepository } from './forum/repository.ts';
import { ForumService } from './forum/service.ts';
import { OutboxMailer, type Mailer } from './mail/mailer.ts';
import { createEmojiServices, type EmojiServices } from './emoji/services.ts';
import { UsersRepository } from './users/repository.ts';
import { UsersService } from './users/service.ts';
import { WordFiltersRepository } from './word-filters/repository.ts';
import { WordFiltersService } from './word-filters/service.ts';

export interface Services {
  users: UsersService;
  auth: AuthService;
  wordFilters: WordFiltersService;
  mailer: Mailer;
  forum: ForumService;
  presenter: ForumPresenter;
  emoji: EmojiServices;
}

export function createServices(database: DatabaseHandle, config: Config, limiters: LimiterFactory, log: Logger): Services {
  const usersRepository = new UsersRepository(database.db, database.dialect);
  const users = new UsersService(database.db, usersRepository);
  const auth = new AuthService(usersRepository, new CredentialsRepository(database.db), new LoginThrottle(limiters), config.tokenTtlDays);
  const wordFilters = new WordFiltersService(database.db, database.dialect, new WordFiltersRepository(database.db, database.dialect), database.changes);
  const mailer = new OutboxMailer(database.db, log, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    origin: config.baseUrl ?? `http://${config.host}:${config.port}`,
  });
  const forum = new ForumService(new ForumRepository(database.db), wordFilters, mailer);
  const emoji = createEmojiServices(database);
  const presenter = new ForumPresenter(wordFilters, async () => {
    const catalog = await emoji.catalog.snapshot();
    return (code) => catalog.emojiByCode(code);
  });
  return { users, auth, wordFilters, emoji, mailer, forum, presenter };
}
