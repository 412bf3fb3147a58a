// Builds the real app on a fresh database for a test, and runs a suite once
// per configured database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pino, { type Logger } from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
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
  /** The app's clock (default: the system clock); a TestClock lets a test set the time. */
  clock?: Clock;
}

/** Configuration as a test wants it: quiet, empty catalog, generous limits unless overridden. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    EMOJI_CATALOG: 'none',
    RATE_LIMIT_GUEST: '100000',
    RATE_LIMIT_AUTHENTICATED: '100000',
    // The lowest accepted cost: hashing at the production cost made the suite slow.
    PASSWORD_HASH_COST: '10',
    // Tests name this host to see absolute links built from the request.
    ALLOWED_HOSTS: 'forum.test,one.test,two.test',
    // Tests post quickly; the flood-control tests turn it on.
    FLOOD_INTERVAL_SECONDS: '0',
    ...env,
  });
}

export async function startTestApp(kind: DatabaseKind, options: StartOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase(kind, { sqliteFile: options.sqliteFile ?? false, migrated: true });
  // Uploads go to a fresh folder per app, never into the working tree.
  const uploads = mkdtempSync(join(tmpdir(), 'forum-uploads-'));
  const config = testConfig(testDatabase, { UPLOAD_DIR: uploads, ...options.env });
  let built: BuiltApp;
  try {
    built = await buildApp(config, {
      logger: options.logger ?? pino({ level: config.logLevel }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
  } catch (error) {
    await testDatabase.drop();
    rmSync(uploads, { recursive: true, force: true });
    throw error;
  }
  return {
    ...built,
    config,
    testDatabase,
    async close() {
      await built.app.close();
      await testDatabase.drop();
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}

export interface DatabaseSuite {
  kind: DatabaseKind;
  start(options?: StartOptions): Promise<TestApp>;
}

/** `describe` once per database: "[sqlite] title", "[postgres] title". */
export function describeEachDatabase(title: string, suite: (db: DatabaseSuite) => void): void {
  for (const kind of databaseKinds()) describeOnDatabase(kind, title, suite);
}

/**
 * `describe` on one database, skipped when it is not configured: for a long
 * suite split into a file per database, so the runner can run the two at
 * once rather than one after the other in one file (issue 34).
 */
export function describeOnDatabase(kind: DatabaseKind, title: string, suite: (db: DatabaseSuite) => void): void {
  const skip = databaseKinds().includes(kind) ? false : `${kind} is not configured (TEST_DATABASE_URL)`;
  describe(`[${kind}] ${title}`, { skip }, () => suite({ kind, start: (options) => startTestApp(kind, options) }));
}
