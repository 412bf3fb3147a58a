// Quoting and previewing as a person does in Chromium: "Quote" under a post,
// the form filled, a line added, "Preview" showing the quote rendered, then
// "Post reply". Axe-clean with the preview on the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createUser } from '../helpers/auth.ts';
import { createForum, createRule, createTopic } from '../helpers/forum.ts';

describe('quote and preview in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let member: BrowserContext;
  let path: string;

  before(async () => {
    app = await startBrowserApp();
    member = await signedInContext(app, 'quoter');
    const author = await createUser(app.t, { name: 'sayer' });
    const topic = await createTopic(app.t, author, await createForum(app.t, 'Talk'), 'Worth quoting', 'Seed what you take.');
    path = `/topic/worth-quoting.${topic.id}/`;
  });
  after(async () => {
    await member?.close();
    await app?.close();
  });

  it('quotes a post, previews the reply and posts it', async () => {
    const page = await member.newPage();
    await page.goto(`${app.base}${path}`);
    await page.getByRole('link', { name: /^Quote post/ }).click();
    const body = page.getByLabel('Your reply');
    assert.equal(await body.inputValue(), '[quote="sayer"]Seed what you take.[/quote]\n');
    await body.press('End');
    await body.pressSequentially('Agreed!');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('section.preview').waitFor();
    assert.match((await page.locator('section.preview blockquote').textContent()) ?? '', /Seed what you take\./);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.waitForURL(/#post-\d+$/);
    assert.equal(await page.locator('article.post blockquote').count(), 1);
    await page.close();
  });

  it('brings a refusal into view, focused, on a phone where the form is far below the top', async () => {
    const page = await member.newPage();
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto(`${app.base}${path}`);
    await createRule(app.t, 'forbiddenword', 'block', ['posts']);
    await page.getByLabel('Your reply').fill('A reply with a forbiddenword in it');
    await page.getByRole('button', { name: 'Post reply' }).click();
    const notice = page.locator('.notice.error').first();
    await notice.waitFor();
    assert.equal(await notice.evaluate((element) => element === element.ownerDocument.activeElement), true, 'the notice has the focus');
    const box = await notice.boundingBox();
    assert.ok(box !== null && box.y >= 0 && box.y < 700, `the notice is on screen (y ${box?.y})`);
    assert.ok(Number(await page.evaluate('window.scrollY')) > 0, 'the page scrolled to it');
    await page.close();
  });
});
