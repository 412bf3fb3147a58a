// The Content-Security-Policy in a real browser: our own pages, htmx on the
// admin pages, sprite emojis and Swagger UI must work without one violation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { browserSkipReason } from '../helpers/chromium.ts';
import { makeEmoji } from '../helpers/emoji.ts';
import { png } from '../helpers/images.ts';
import { topicPath } from '../../src/urls/paths.ts';

describe('Content-Security-Policy in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let browser: Browser;
  let base: string;

  before(async () => {
    app = await startBrowserApp();
    ({ t, browser, base } = app);
  });
  after(() => app?.close());

  /** A page that records every CSP violation (console reports and securitypolicyviolation events). */
  async function watchedPage(context: BrowserContext): Promise<{ page: Page; violations: string[] }> {
    const violations: string[] = [];
    await context.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));",
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
    });
    return { page, violations };
  }

  it('shows a topic with a sprite emoji, positioned on its sheet, without a violation', async () => {
    const sheet = png(32, 16, (x) => (x < 16 ? [220, 30, 30, 255] : [30, 180, 60, 255]));
    const stored = await t.services.images.save('sprites', sheet, { type: 'png', width: 32, height: 16 });
    await makeEmoji(t, {
      emoji_shortcode: ':csp_green:',
      title: 'Green',
      emoji_text: null,
      sprite_mode: true,
      sprite_params: { x: 16, y: 0, width: 16, height: 16, sheet: stored.name },
    });
    const author = await createUser(t, { name: 'Sprite Poster' });
    const forum = await t.services.forum.createForum({ name: 'CSP forum' });
    const topic = await t.services.forum.createTopic(
      { id: author.id, name: author.username, email: author.email, role: 'user' },
      { forum_id: forum.id, title: 'Sprites', body: 'A green one :csp_green: here' },
    );

    const context = await browser.newContext();
    const { page, violations } = await watchedPage(context);
    await page.goto(`${base}${topicPath({ id: topic.id, title: topic.title })}`);
    const sprite = page.locator('span.sprite[title=":csp_green:"]');
    await sprite.waitFor();
    const style = (await page.evaluate(
      '(() => { const c = getComputedStyle(document.querySelector(\'span.sprite[title=":csp_green:"]\')); return { width: c.width, position: c.backgroundPosition, image: c.backgroundImage }; })()',
    )) as { width: string; position: string; image: string };
    assert.deepEqual({ width: style.width, position: style.position }, { width: '16px', position: '-16px 0px' }, 'the style attribute applies');
    assert.ok(style.image.includes(`/emojis/sprites/${stored.name}`), style.image);
    assert.deepEqual(violations, []);
    await context.close();
  });

  it('runs htmx on an admin page (an inline action) without a violation', async () => {
    const admin = await signedInContext(app, 'CSP Admin', 'admin');
    const emoji = await makeEmoji(t, { emoji_shortcode: ':csp_wave:', title: 'Wave', emoji_text: '👋' });
    const { page, violations } = await watchedPage(admin);
    await page.goto(`${base}/admin/emojis/${emoji.id}/`);
    await page.evaluate('window.stillThisPage = true');
    await page.getByLabel('New alias').fill(':csp_hello:');
    await page.getByRole('button', { name: 'Add alias' }).click();
    await page.locator('#alias-list code', { hasText: ':csp_hello:' }).waitFor();
    assert.equal(await page.evaluate('window.stillThisPage'), true, 'htmx swapped the list in place');
    assert.equal(await page.evaluate('typeof htmx'), 'object');
    assert.deepEqual(violations, []);
    await admin.close();
  });

  it('shows the login page and logs in without a violation', async () => {
    await createUser(t, { name: 'CSP Walker' });
    const context = await browser.newContext();
    const { page, violations } = await watchedPage(context);
    await page.goto(`${base}/login/`);
    await page.getByLabel('User name').fill('CSP Walker');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/`);
    assert.deepEqual(violations, []);
    await context.close();
  });

  it('renders Swagger UI at /api/docs under its own policy, without a violation', async () => {
    const context = await browser.newContext();
    const { page, violations } = await watchedPage(context);
    await page.goto(`${base}/api/docs/`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Forum API' }).waitFor();
    await page.locator('.opblock-summary-path', { hasText: '/api/hello' }).first().waitFor();
    assert.deepEqual(violations, []);
    await context.close();
  });

  it('refuses an inline script, as the policy says', async () => {
    const context = await browser.newContext();
    const { page, violations } = await watchedPage(context);
    await page.goto(`${base}/login/`);
    await page.evaluate(
      "(() => { const script = document.createElement('script'); script.textContent = 'window.injected = true'; document.body.append(script); })()",
    );
    assert.equal(await page.evaluate('window.injected === true'), false);
    await page.waitForTimeout(100);
    assert.ok(violations.length > 0, 'the browser reported the violation');
    await context.close();
  });
});
