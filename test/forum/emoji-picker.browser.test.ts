// The emoji picker of the post forms in Chromium: opened under the reply
// form, it lists the catalog, searches it, and puts the chosen emoji's
// shortcode at the cursor; the posted reply shows the emoji. Axe-clean with
// the results on the page. Without JavaScript the form has no picker and
// works as before (the page tests post without it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createUser } from '../helpers/auth.ts';
import { createForum, createTopic } from '../helpers/forum.ts';

describe('the emoji picker in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let member: BrowserContext;
  let path: string;

  before(async () => {
    app = await startBrowserApp();
    member = await signedInContext(app, 'picker');
    const emojis = app.t.services.emoji.emojis;
    await emojis.create({ title: 'Thumbs up', emoji_text: '👍', emoji_shortcode: ':thumbsup_pick:', display_order: 0 });
    await emojis.create({ title: 'Smiling face', emoji_text: '😄', emoji_shortcode: ':smile_pick:', display_order: 1 });
    const author = await createUser(app.t, { name: 'opener' });
    const topic = await createTopic(app.t, author, await createForum(app.t, 'Pictures'), 'Say it with emoji', 'What do you think?');
    path = `/topic/say-it-with-emoji.${topic.id}/`;
  });
  after(async () => {
    await member?.close();
    await app?.close();
  });

  it('searches the catalog and inserts the chosen shortcode where the cursor is', async () => {
    const page = await member.newPage();
    await page.goto(`${app.base}${path}`);
    const body = page.getByLabel('Your reply');
    await body.fill('Great idea');
    await page.getByText('Insert an emoji').click();
    // Before anything is typed: the catalog's first emojis.
    await page.locator('.emoji-results button').first().waitFor();
    assert.equal(await page.locator('.emoji-results button').count(), 2);

    await page.getByLabel('Find an emoji').fill('smil');
    await page.getByRole('status').filter({ hasText: '1 emoji shown.' }).waitFor();
    await page.getByRole('button', { name: /Smiling face :smile_pick:/ }).click();
    assert.equal(await body.inputValue(), 'Great idea :smile_pick:');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByLabel('Find an emoji').fill('nothing-like-this');
    await page.getByRole('status').filter({ hasText: 'No emoji found.' }).waitFor();

    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.waitForURL(/#post-\d+$/);
    const emoji = page.locator('article.post').last().locator('.emoji');
    assert.equal(await emoji.textContent(), '😄');
    await page.close();
  });
});
