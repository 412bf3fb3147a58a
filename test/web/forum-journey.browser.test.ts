import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { ForumRow } from '../../src/forum/repository.ts';
import type { TestApp } from '../helpers/app.ts';
import { startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { createUser } from '../helpers/auth.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createForum, createRule, createTopic, lastMailTo, linkIn } from '../helpers/forum.ts';

describe('forum pages in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let forum: ForumRow;

  before(async () => {
    app = await startBrowserApp();
    ({ t, browser, base } = app);
    forum = await createForum(t, 'Journeys', 'Where members travel');
    await createRule(t, 'darnjourney', 'replace', ['posts'], 'dangjourney');
    await t.services.emoji.emojis.create({ title: 'Sun', emoji_text: '☀️', emoji_shortcode: ':journey_sun:', display_order: 0 });
  });
  after(() => app?.close());

  async function withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    try {
      return await work(await context.newPage());
    } finally {
      await context.close();
    }
  }

  it('register → activate from the outbox → log in → start a topic → rename it → old URL redirects → watch it', async () => {
    await withPage(async (page) => {
      // Register with the keyboard-reachable, labelled form.
      await page.goto(`${base}/`);
      await page.getByRole('link', { name: 'Register' }).click();
      await page.getByLabel('User name').fill('Journey Jo');
      await page.getByLabel('E-mail address').fill('jo@example.test');
      await page.getByLabel('Password', { exact: true }).fill('a long journey');
      await page.getByLabel('Repeat the password').fill('a long journey');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

      // The activation link, as the mail in the outbox carries it.
      const activation = linkIn(await lastMailTo(t, 'jo@example.test'), '/activate/');
      await page.goto(`${base}${activation}`);
      await page.getByRole('button', { name: 'Activate my account' }).click();
      await page.getByRole('heading', { name: 'Account activated' }).waitFor();

      // Log in and come back to the forum.
      await page.goto(`${base}/login/?next=${encodeURIComponent(`/forum/journeys.${forum.id}/`)}`);
      await page.getByLabel('User name').fill('Journey Jo');
      await page.getByLabel('Password').fill('a long journey');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/forum/journeys.${forum.id}/`);

      // Start a topic whose body has a replaced word and an emoji shortcode.
      await page.getByLabel('Title').fill('Packing list');
      await page.getByLabel('Message').fill('Bring a darnjourney umbrella :journey_sun:');
      await page.getByRole('button', { name: 'Start topic' }).click();
      await page.waitForURL(/\/topic\/packing-list\.\d+\/$/);
      const firstUrl = page.url();
      const body = page.locator('article.post .body').first();
      assert.equal((await body.textContent())?.includes('Bring a dangjourney umbrella'), true);
      assert.equal((await body.textContent())?.includes('darnjourney'), false);
      const emoji = body.locator('.emoji');
      assert.equal(await emoji.count(), 1);
      assert.equal(await emoji.first().getAttribute('title'), ':journey_sun:');
      assert.equal(await emoji.first().textContent(), '☀️');

      // Rename it: the page moves, and the old address redirects to the new one.
      await page.getByText('Edit the title').click();
      await page.getByLabel('New title').fill('Packing list for the coast');
      await page.getByRole('button', { name: 'Save title' }).click();
      await page.waitForURL(/\/topic\/packing-list-for-the-coast\.\d+\/$/);
      const renamedUrl = page.url();
      const redirected = await page.goto(firstUrl);
      assert.equal(page.url(), renamedUrl);
      assert.equal(redirected?.request().redirectedFrom()?.url(), firstUrl);

      // Watch it and find it on the watchlist.
      await page.getByRole('button', { name: 'Watch this topic' }).click();
      await page.getByRole('button', { name: 'Stop watching this topic' }).waitFor();
      await page.getByRole('link', { name: 'Watchlist' }).click();
      await page.waitForURL(`${base}/profile/watchlist/`);
      const listed = page.getByRole('link', { name: 'Packing list for the coast' });
      assert.equal(await listed.getAttribute('href'), new URL(renamedUrl).pathname);
    });
  });

  it('has no serious or critical accessibility violations on the forums, a forum, a topic and the register page', async () => {
    const member = await createUser(t, { name: 'Axe Member' });
    const topic = await createTopic(t, member, forum, 'Accessible topic', 'Readable text.\n\nWith a link https://example.org/');
    await withPage(async (page) => {
      // As a member, so the forms (new topic, reply, watch, edit title) are checked too.
      await page.goto(`${base}/login/`);
      await page.getByLabel('User name').fill('Axe Member');
      await page.getByLabel('Password').fill('correct horse battery');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/`);
      for (const path of ['/', `/forum/journeys.${forum.id}/`, `/topic/accessible-topic.${topic.id}/`, '/profile/watchlist/', '/settings/']) {
        await page.goto(`${base}${path}`);
        assert.deepEqual(await seriousAccessibilityViolations(page), [], path);
      }
    });
    await withPage(async (page) => {
      for (const path of ['/register/', `/topic/accessible-topic.${topic.id}/`, '/password-recovery/']) {
        await page.goto(`${base}${path}`);
        assert.deepEqual(await seriousAccessibilityViolations(page), [], `${path} as a guest`);
      }
    });
  });
});
