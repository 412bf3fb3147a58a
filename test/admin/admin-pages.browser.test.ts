import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AuthUser } from '../../src/auth/service.ts';
import type { TestApp } from '../helpers/app.ts';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { topicPath } from '../../src/urls/paths.ts';
import { createRule } from '../word-filters/helpers.ts';

describe('admin pages in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: BrowserContext;
  let moderator: BrowserContext;
  let author: AuthUser;
  let forumId: number;

  before(async () => {
    app = await startBrowserApp();
    ({ t, browser, base } = app);
    admin = await signedInContext(app, 'Browser Admin', 'admin');
    moderator = await signedInContext(app, 'Browser Moderator', 'moderator');
    const row = await createUser(t, { name: 'Posting Paula' });
    author = { id: row.id, name: row.username, email: row.email, role: 'user' };
    forumId = (await t.services.forum.createForum({ name: 'Browser forum', description: 'For the browser tests' })).id;
  });
  after(() => app?.close());

  async function open(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    return page;
  }

  it('sends a guest to the login and back to the admin page after logging in', async () => {
    await createUser(t, { name: 'Returning Admin', role: 'admin' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/admin/word-filters/?severity=high`);
    assert.equal(new URL(page.url()).pathname, '/login/');
    await page.getByLabel('User name').fill('Returning Admin');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin/word-filters/?severity=high`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Word filters');
    await context.close();
  });

  it('creates a regex rule and the tester highlights its match (htmx, no page load)', async () => {
    const page = await open(admin, '/admin/word-filters/new/');
    await page.getByRole('textbox', { name: 'Pattern (required)' }).fill('\\border-\\d{4}\\b');
    await page.getByLabel('Pattern type').selectOption('regex');
    await page.getByLabel('Action').selectOption('moderate');
    await page.getByLabel('Severity').selectOption('high');
    await page
      .getByRole('group', { name: /Applies to/ })
      .getByLabel('Comments')
      .check();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(`${base}/admin/word-filters/`);
    assert.match((await page.locator('#admin-live').textContent()) ?? '', /Rule #\d+ “\\border-\\d\{4\}\\b” created\./);

    await page.getByRole('link', { name: 'Test text against the rules' }).click();
    await page.waitForURL(`${base}/admin/word-filters/tester/`);
    await page.evaluate('window.stillThisPage = true');
    await page.getByLabel('Text').fill('Please check order-1234 today');
    await page.getByLabel('Written as').selectOption('posts');
    await page.getByRole('button', { name: 'Check' }).click();
    const highlighted = page.locator('[data-testid="highlighted"] mark');
    await highlighted.waitFor();
    assert.equal(await highlighted.textContent(), 'order-1234');
    assert.match((await page.locator('[data-action]').textContent()) ?? '', /^Moderate — Held for moderation/);
    assert.equal(await page.evaluate('window.stillThisPage'), true, 'htmx swapped the result in');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.close();
  });

  it('deactivates a rule inline and asks before deleting one', async () => {
    const rule = await createRule(t, { pattern: 'inlinetoggle' }, null);
    const page = await open(admin, '/admin/word-filters/?search=inlinetoggle');
    const row = page.locator(`#rule-${rule.id}`);
    await row.getByRole('button', { name: 'Deactivate rule “inlinetoggle”' }).click();
    // Exact: without it the name is matched as a substring, and "Deactivate rule …" holds "activate rule …" (any case),
    // so the wait ended before the answer came, and the rule was read while it was still active.
    await row.getByRole('button', { name: 'Activate rule “inlinetoggle”', exact: true }).waitFor();
    assert.equal((await t.services.wordFilters.get(rule.id)).is_active, false);

    page.once('dialog', (dialog) => void dialog.dismiss());
    await row.getByRole('button', { name: 'Delete rule “inlinetoggle”' }).click();
    await page.waitForTimeout(200);
    assert.equal((await t.services.wordFilters.get(rule.id)).id, rule.id, 'dismissing the dialog keeps the rule');
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Delete rule “inlinetoggle”' }).click();
    await row.waitFor({ state: 'detached' });
    await assert.rejects(t.services.wordFilters.get(rule.id));
    await page.close();
  });

  it('approves a held post: it leaves the queue and guests see it on the topic page', async () => {
    await createRule(t, { pattern: 'heldword', filter_type: 'moderate', applies_to: ['posts'] }, null);
    const topic = await t.services.forum.createTopic(author, { forum_id: forumId, title: 'Approval topic', body: 'Opening words' });
    const held = await t.services.forum.reply(topic.id, author, 'A reply with heldword in it');
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto(`${base}${topicPath({ id: topic.id, title: topic.title })}`);
    assert.equal(await guestPage.getByText('A reply with heldword in it').count(), 0, 'hidden from guests while held');

    const page = await open(moderator, '/admin/moderation/');
    const row = page.locator(`#pending-${held.id}`);
    assert.match((await row.textContent()) ?? '', /A reply with heldword in it/);
    assert.match((await row.textContent()) ?? '', /Posting Paula/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await row.getByRole('button', { name: `Approve post #${held.id}` }).click();
    await row.waitFor({ state: 'detached' });
    assert.match((await page.locator('#admin-live').textContent()) ?? '', new RegExp(`Post #${held.id} approved and published\\.`));

    await guestPage.goto(`${base}${topicPath({ id: topic.id, title: topic.title })}`);
    await guestPage.getByText('A reply with heldword in it').waitFor();
    const response = await guestPage.goto(`${base}/api/topics/${topic.id}/posts`);
    const posts = (await response!.json()).data as Array<{ id: number; body: string }>;
    assert.ok(posts.some((post) => post.id === held.id && post.body === 'A reply with heldword in it'));
    await guest.close();
    await page.close();
  });

  it('rejects a held post after the confirmation, and its author gets a mail', async () => {
    const topic = await t.services.forum.createTopic(author, { forum_id: forumId, title: 'Rejection topic', body: 'Fine opening' });
    const held = await t.services.forum.reply(topic.id, author, 'heldword again');
    const page = await open(moderator, '/admin/moderation/');
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .locator(`#pending-${held.id}`)
      .getByRole('button', { name: `Reject post #${held.id}` })
      .click();
    await page.locator(`#pending-${held.id}`).waitFor({ state: 'detached' });
    const [mail] = (await t.services.outbox.list({ page: 1, perPage: 1, offset: 0 })).rows;
    assert.equal(mail?.to_address, author.email);
    await page.close();
  });

  it('changes a user’s role inline with the keyboard', async () => {
    const target = await createUser(t, { name: 'Keyboard Target' });
    const page = await open(admin, '/admin/users/?search=keyboard');
    await page.getByLabel('Role of Keyboard Target').focus();
    await page.keyboard.press('ArrowDown'); // user → moderator
    await page.keyboard.press('Tab'); // status
    await page.keyboard.press('Tab'); // Save
    await page.keyboard.press('Enter');
    await page.locator('#admin-live').getByText('Keyboard Target is now a moderator (active).').waitFor();
    assert.equal((await t.services.users.get(target.id)).role, 'moderator');
    await page.close();
  });

  it('has no serious accessibility violations on any admin page', async () => {
    const rule = await createRule(t, { pattern: 'a11y', notes: 'Checked by axe' }, null);
    await t.services.mailer.send({ to: 'axe@example.test', subject: 'Axe mail', text: 'Hello' });
    const [mail] = (await t.services.outbox.list({ page: 1, perPage: 1, offset: 0 })).rows;
    const user = await createUser(t, { name: 'Axe User' });
    const pages: Array<[BrowserContext, string]> = [
      [admin, '/admin/'],
      [admin, '/admin/word-filters/'],
      [admin, '/admin/word-filters/new/'],
      [admin, `/admin/word-filters/${rule.id}/`],
      [admin, `/admin/word-filters/${rule.id}/delete/`],
      [admin, '/admin/word-filters/tester/'],
      [admin, '/admin/moderation/'],
      [admin, '/admin/users/'],
      [admin, `/admin/users/${user.id}/`],
      [admin, '/admin/forums/'],
      [admin, `/admin/forums/${forumId}/`],
      [admin, '/admin/outbox/'],
      [admin, `/admin/outbox/${mail!.id}/`],
      [admin, '/admin/emoji-images/'],
      [moderator, '/admin/'],
      [moderator, '/admin/word-filters/'],
      [moderator, `/admin/word-filters/${rule.id}/`],
      [moderator, '/admin/users/'],
    ];
    for (const [context, path] of pages) {
      const page = await open(context, path);
      assert.deepEqual(await seriousAccessibilityViolations(page), [], path);
      await page.close();
    }
  });

  it('shows form errors accessibly (the invalid form has no serious violations)', async () => {
    const page = await open(admin, '/admin/word-filters/new/');
    await page.getByRole('textbox', { name: 'Pattern (required)' }).fill('(');
    await page.getByLabel('Pattern type').selectOption('regex');
    await page
      .getByRole('group', { name: /Applies to/ })
      .getByLabel('Posts')
      .uncheck();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.locator('#rule-applies_to-error').waitFor();
    assert.match((await page.locator('#rule-applies_to-error').textContent()) ?? '', /The applies to field is required\./);
    assert.match((await page.getByRole('alert').textContent()) ?? '', /The applies to field is required\./);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // The engine's check of the pattern runs once the form's shape is valid, as in the API.
    await page
      .getByRole('group', { name: /Applies to/ })
      .getByLabel('Posts')
      .check();
    assert.equal(await page.getByRole('textbox', { name: 'Pattern (required)' }).inputValue(), '(', 'what was typed is kept');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.locator('#rule-pattern-error').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Pattern (required)' }).getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#rule-pattern-error').textContent()) ?? '', /not a valid regular expression/);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.close();
  });
});
