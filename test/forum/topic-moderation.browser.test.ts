// A moderator at work in a browser: opens a topic, locks and pins it from the
// panel, moves it to another forum; a member then finds it locked; the
// administrator reads all three actions in the moderation log. Axe-clean.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createUser } from '../helpers/auth.ts';
import { createForum, createTopic } from '../helpers/forum.ts';

describe('moderating a topic in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let base: string;
  let moderator: BrowserContext;
  let member: BrowserContext;
  let admin: BrowserContext;
  let topicPath: string;

  before(async () => {
    app = await startBrowserApp();
    ({ base } = app);
    moderator = await signedInContext(app, 'mona', 'moderator');
    member = await signedInContext(app, 'mark');
    admin = await signedInContext(app, 'ada', 'admin');
    const author = await createUser(app.t, { name: 'starter' });
    const forum = await createForum(app.t, 'Releases');
    await createForum(app.t, 'Archive');
    const topic = await createTopic(app.t, author, forum, 'Old release thread');
    topicPath = `/topic/old-release-thread.${topic.id}/`;
  });
  after(async () => {
    for (const context of [moderator, member, admin]) await context?.close();
    await app?.close();
  });

  it('locks, pins and moves from the panel; the member sees the lock; the admin reads the log', async () => {
    const page = await moderator.newPage();
    await page.goto(`${base}${topicPath}`);
    await page.getByText('Moderate this topic').click();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.waitForURL(`${base}${topicPath}`);
    await page.getByText('Moderate this topic').click();
    await page.getByRole('button', { name: 'Pin' }).click();
    await page.waitForURL(`${base}${topicPath}`);
    assert.deepEqual(await page.locator('main .badge').allTextContents(), ['Pinned', 'Locked']);
    await page.getByText('Moderate this topic').click();
    await page.getByLabel('Move to forum').selectOption({ label: 'Archive' });
    await page.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(`${base}${topicPath}`);
    assert.equal(await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Archive' }).count(), 1);
    await page.close();

    const reader = await member.newPage();
    await reader.goto(`${base}${topicPath}`);
    assert.equal(await reader.getByText('This topic is locked: only moderators can reply.').count(), 1);
    assert.equal(await reader.getByRole('button', { name: 'Post reply' }).count(), 0);
    assert.equal(await reader.getByText('Moderate this topic').count(), 0);
    await reader.close();

    const log = await admin.newPage();
    await log.goto(`${base}/admin/moderation-log/`);
    assert.deepEqual(await log.locator('tbody th[scope="row"]').allTextContents(), ['Moved', 'Pinned', 'Locked']);
    assert.deepEqual(await seriousAccessibilityViolations(log), []);
    await log.close();
  });
});
