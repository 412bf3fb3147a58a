// Every capability's service, built once over the shared database. Routes
// and tests use these same instances.
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { CredentialsRepository } from './auth/credentials-repository.ts';
import type { LimiterFactory } from './auth/limiters.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { AuthService } from './auth/service.ts';
import { createEmojiServices, type EmojiServices } from './emoji/services.ts';
import { UsersRepository } from './users/repository.ts';
import { UsersService } from './users/service.ts';
import { WordFiltersRepository } from './word-filters/repository.ts';
import { WordFiltersService } from './word-filters/service.ts';

export interface Services {
  users: UsersService;
  auth: AuthService;
  wordFilters: WordFiltersService;
  emoji: EmojiServices;
}

export function createServices(database: DatabaseHandle, config: Config, limiters: LimiterFactory): Services {
  const usersRepository = new UsersRepository(database.db, database.dialect);
  const users = new UsersService(database.db, usersRepository);
  const auth = new AuthService(usersRepository, new CredentialsRepository(database.db), new LoginThrottle(limiters), config.tokenTtlDays);
  const wordFilters = new WordFiltersService(database.db, database.dialect, new WordFiltersRepository(database.db, database.dialect), database.changes);
  const emoji = createEmojiServices(database);
  return { users, auth, wordFilters, emoji };
}
