// Editing a post as its author does in Chromium: "Edit" under the post, the
// form in the reply form's place, "Save changes", the post back with its new
// text and "edited"; then a moderator opens its History. Axe-clean.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createForum, createTopic, reply } from '../helpers/forum.ts';

describe('editing a post in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let author: BrowserContext;
  let moderator: BrowserContext;
  let path: string;
  let postId: number;

  before(async () => {
    app = await startBrowserApp();
    author = await signedInContext(app, 'writer');
    moderator = await signedInContext(app, 'keeper', 'moderator');
    const row = await app.t.database.db.selectFrom('users').selectAll().where('username', '=', 'writer').executeTakeFirstOrThrow();
    const topic = await createTopic(app.t, row, await createForum(app.t, 'Edits'), 'Fix the typo');
    postId = (await reply(app.t, row, topic, 'Teh release is out')).id;
    path = `/topic/fix-the-typo.${topic.id}/`;
  });
  after(async () => {
    for (const context of [author, moderator]) await context?.close();
    await app?.close();
  });

  it('edits from the post, shows "edited", and lets a moderator read the earlier text', async () => {
    const page = await author.newPage();
    await page.goto(`${app.base}${path}`);
    await page.getByRole('link', { name: `Edit post ${postId}` }).click();
    const text = page.getByLabel('Text');
    assert.equal(await text.inputValue(), 'Teh release is out');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await text.fill('The release is out');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`#post-${postId}$`));
    const post = page.locator(`#post-${postId}`);
    assert.equal(await post.locator('.body').textContent(), 'The release is out');
    assert.match((await post.locator('.edited').textContent()) ?? '', /edited/);
    await page.close();

    const review = await moderator.newPage();
    await review.goto(`${app.base}${path}`);
    await review.getByRole('link', { name: `History of post ${postId}` }).click();
    assert.deepEqual(await review.locator('pre.revision').allTextContents(), ['Teh release is out']);
    await review.close();
  });
});
