// One app on a real port and one Chromium for a browser suite, and browser
// contexts signed in through the login form, as a person signs in.
import type { Browser, BrowserContext } from 'playwright-core';
import type { Role } from '../../src/db/schema.ts';
import { startTestApp, type StartOptions, type TestApp } from './app.ts';
import { TEST_PASSWORD, createUser } from './auth.ts';
import { launchChromium } from './chromium.ts';

export interface BrowserApp {
  t: TestApp;
  browser: Browser;
  /** The app's origin, such as http://127.0.0.1:41234 */
  base: string;
  close(): Promise<void>;
}

/** Starts the app on SQLite (browser suites need one database, not both) and listens on a free port. */
export async function startBrowserApp(options: StartOptions = {}): Promise<BrowserApp> {
  const t = await startTestApp('sqlite', options);
  try {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await launchChromium();
    return {
      t,
      browser,
      base,
      close: async () => {
        await browser.close();
        await t.close();
      },
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/**
 * A new user of that role, and a browser context where they have logged in
 * with the form. `locale`: the browser's language (its Accept-Language), which
 * the pages follow for a member who has not chosen one in Settings.
 */
export async function signedInContext(app: BrowserApp, name: string, role: Role = 'user', locale?: string): Promise<BrowserContext> {
  await createUser(app.t, { name, role });
  const context = await app.browser.newContext(locale === undefined ? {} : { locale });
  const page = await context.newPage();
  await page.goto(`${app.base}/login/`);
  // By the fields' ids: their labels are in the browser's language.
  await page.locator('#username').fill(name);
  await page.locator('#password').fill(TEST_PASSWORD);
  await page.locator('form.stacked button[type=submit]').click();
  await page.waitForURL(`${app.base}/`);
  await page.close();
  return context;
}
