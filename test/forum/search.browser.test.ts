// Searching as a person does: the header's link, the form typed into and sent
// with Enter, a result followed to its post; the form's options; no serious
// accessibility violation on the results page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { createUser } from '../helpers/auth.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createForum, createTopic, reply } from '../helpers/forum.ts';

describe('search in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let browser: Browser;
  let base: string;
  let replyId: number;

  before(async () => {
    app = await startBrowserApp();
    ({ browser, base } = app);
    const author = await createUser(app.t, { name: 'seeder' });
    const forum = await createForum(app.t, 'Linux');
    const topic = await createTopic(app.t, author, forum, 'Debian netinst images', 'Which mirror is fastest?');
    replyId = (await reply(app.t, author, topic, 'The Zürich mirror is the fastest for me.')).id;
  });
  after(() => app?.close());

  it('finds a post from the header link with the keyboard and opens it at the post', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(`${base}/search/`);
    await page.getByLabel('Words to find').fill('zurich mirror');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\/\?search=zurich\+mirror/);
    assert.equal(await page.getByRole('status').textContent(), '1 post found');
    assert.deepEqual(await page.locator('.search-results mark').allTextContents(), ['Zürich', 'mirror']);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('link', { name: 'Debian netinst images' }).click();
    await page.waitForURL(new RegExp(`#post-${replyId}$`));
    assert.equal(await page.locator(`#post-${replyId}`).count(), 1);
    await page.close();
  });

  it('opens the options, searches titles only, and keeps the choices in the form', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/search/`);
    await page.getByText('More options').click();
    await page.getByLabel('Search in').selectOption('titles');
    await page.getByLabel('Words to find').fill('mirror');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/in=titles/);
    assert.match((await page.locator('main').textContent()) ?? '', /Nothing was found/);
    assert.equal(await page.getByLabel('Search in').inputValue(), 'titles');
    await page.close();
  });
});
