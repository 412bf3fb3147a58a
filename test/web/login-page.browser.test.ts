import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';

describe('login page in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    app = await startBrowserApp();
    ({ t, browser, base } = app);
  });
  after(() => app?.close());

  it('has no serious accessibility violations', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/login/`);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.close();
  });

  it('logs in with the keyboard and comes back to the page that asked', async () => {
    await createUser(t, { name: 'Keyboard Kay' });
    const page = await browser.newPage();
    await page.goto(`${base}/login/?next=${encodeURIComponent('/api/user')}`);
    await page.getByLabel('User name').fill('Keyboard Kay');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/api/user`);
    assert.match((await page.textContent('body')) ?? '', /"name":"Keyboard Kay"/);
    await page.close();
  });
});
