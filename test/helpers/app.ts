// Builds the real app on a fresh database for a test, and runs a suite once
// per configured database.
import { describe } from 'node:test';
import pino, { type Logger } from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './databases.ts';

export interface TestApp extends BuiltApp {
  config: Config;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  sqliteFile?: boolean;
  /** Where the app logs (default: nowhere). */
  logger?: Logger;
}

/** Configuration as a test wants it: quiet, empty catalog, generous limits unless overridden. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    EMOJI_CATALOG: 'none',
    RATE_LIMIT_GUEST: '100000',
    RATE_LIMIT_AUTHENTICATED: '100000',
    ...env,
  });
}

export async function startTestApp(kind: DatabaseKind, options: StartOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase(kind, { sqliteFile: options.sqliteFile ?? false });
  const config = testConfig(testDatabase, options.env);
  let built: BuiltApp;
  try {
    built = await buildApp(config, { logger: options.logger ?? pino({ level: config.logLevel }) });
  } catch (error) {
    await testDatabase.drop();
    throw error;
  }
  return {
    ...built,
    config,
    testDatabase,
    async close() {
      await built.app.close();
      await testDatabase.drop();
    },
  };
}

export interface DatabaseSuite {
  kind: DatabaseKind;
  start(options?: StartOptions): Promise<TestApp>;
}

/** `describe` once per database: "[sqlite] title", "[postgres] title". */
export function describeEachDatabase(title: string, suite: (db: DatabaseSuite) => void): void {
  for (const kind of databaseKinds()) {
    describe(`[${kind}] ${title}`, () => suite({ kind, start: (options) => startTestApp(kind, options) }));
  }
}
