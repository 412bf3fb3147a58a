import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { createUser } from '../helpers/auth.ts';
import { browserSkipReason, seriousAccessibilityViolations, waitForExpression } from '../helpers/chromium.ts';
import { makeAlias, makeCategory, makeEmoji } from '../helpers/emoji.ts';
import { decodePng, png, type Rgba } from '../helpers/images.ts';
import { topicPath } from '../../src/urls/paths.ts';

const RED: Rgba = [220, 30, 30, 255];
const GREEN: Rgba = [30, 180, 60, 255];
const BLUE: Rgba = [20, 60, 220, 255];

describe('admin emoji pages in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: BrowserContext;

  before(async () => {
    app = await startBrowserApp();
    ({ t, browser, base } = app);
    admin = await signedInContext(app, 'Emoji Admin', 'admin');
  });
  after(() => app?.close());

  async function open(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    return page;
  }

  function near(actual: Rgba, expected: Rgba): boolean {
    return actual.slice(0, 3).every((value, i) => Math.abs(value - expected[i]!) <= 8);
  }

  it('creates a sprite emoji: the live preview shows the sprite cut from its sheet', async () => {
    // A sheet of two 16×16 cells: red, then green.
    const sheet = png(32, 16, (x) => (x < 16 ? RED : GREEN));
    const page = await open(admin, '/admin/emoji-images/');
    await page.getByLabel('Upload a sprite sheet').setInputFiles({ name: 'faces.png', mimeType: 'image/png', buffer: sheet });
    await page.locator('#sprites').getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(`${base}/admin/emoji-images/#sprites`);
    assert.match((await page.locator('#admin-live').textContent()) ?? '', /Sprite sheet uploaded: [0-9a-f]{32}\.png \(32×16/);

    await page
      .locator('#sprites')
      .getByRole('link', { name: /^New emoji/ })
      .click();
    await page.waitForURL(/\/admin\/emojis\/new\/\?kind=sprite/);
    assert.equal(await page.getByRole('radio', { name: 'CSS sprite' }).isChecked(), true);
    assert.equal(await page.getByRole('textbox', { name: 'Emoji text' }).isVisible(), false, 'only the chosen kind’s fields are shown');
    await page.getByRole('textbox', { name: 'Title (required)' }).fill('Green face');
    await page.getByRole('textbox', { name: 'Shortcode (required)' }).fill(':green_face:');
    await page.getByLabel('X (px from the left)').fill('16');
    await page.getByLabel('Y (px from the top)').fill('0');
    await page.getByLabel('Width (px)').fill('16');
    await page.getByLabel('Height (px)').fill('16');

    // Each change asks for a new preview; wait until the last answer is in before looking at it.
    await waitForExpression(
      page,
      `(() => {
      const sprite = document.querySelector('#emoji-preview .sprite');
      return sprite !== null && getComputedStyle(sprite).height === '16px' && getComputedStyle(sprite).backgroundPosition === '-16px 0px';
    })()`,
    );
    await page.waitForLoadState('networkidle');
    const sprite = page.locator('#emoji-preview .sprite');
    await sprite.waitFor();
    assert.equal(await sprite.getAttribute('aria-label'), 'Green face');
    const shot = decodePng(await sprite.screenshot());
    assert.equal(shot.width, 16);
    assert.ok(near(shot.pixel(8, 8), GREEN), `the green cell is shown, got ${shot.pixel(8, 8).join(',')}`);

    await page.getByRole('button', { name: 'Create emoji' }).click();
    await page.waitForURL(/\/admin\/emojis\/\d+\/$/);
    const stored = (await t.services.emoji.catalog.snapshot()).emojiByCode(':green_face:')!;
    assert.deepEqual([stored.sprite_x, stored.sprite_y, stored.sprite_width, stored.sprite_height], [16, 0, 16, 16]);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.close();
  });

  it('uploads an image emoji in its form and the image shows in a post', async () => {
    const image = png(24, 24, () => BLUE);
    const page = await open(admin, '/admin/emojis/new/');
    await page.getByRole('textbox', { name: 'Title (required)' }).fill('Blue square');
    await page.getByRole('textbox', { name: 'Shortcode (required)' }).fill(':blue_square:');
    await page.getByRole('radio', { name: 'Custom image' }).check();
    await page.getByLabel('Image file').setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: image });
    await page.locator('#emoji-image_file-preview img').waitFor();
    await page.getByRole('button', { name: 'Create emoji' }).click();
    await page.waitForURL(/\/admin\/emojis\/\d+\/$/);
    const stored = (await t.services.emoji.catalog.snapshot()).emojiByCode(':blue_square:')!;
    assert.match(stored.image_url ?? '', /^\/emojis\/custom\/[0-9a-f]{32}\.png$/);
    const preview = page.locator('#emoji-preview img.emoji');
    assert.equal(await preview.getAttribute('src'), stored.image_url);
    await page.close();

    const author = await createUser(t, { name: 'Emoji Poster' });
    const forum = await t.services.forum.createForum({ name: 'Emoji forum' });
    const topic = await t.services.forum.createTopic(
      { id: author.id, name: author.username, email: author.email, role: 'user' },
      { forum_id: forum.id, title: 'Colours', body: 'Look at this :blue_square: square' },
    );
    const guest = await browser.newContext();
    const topicPage = await guest.newPage();
    await topicPage.goto(`${base}${topicPath({ id: topic.id, title: topic.title })}`);
    const shown = topicPage.locator('img.emoji[alt=":blue_square:"]');
    await shown.waitFor();
    assert.equal(await shown.getAttribute('src'), stored.image_url);
    // decode() waits for the file (attached is not loaded) and rejects if it is not an image.
    const width = await shown.evaluate(async (element) => {
      const img = element as unknown as { decode(): Promise<void>; naturalWidth: number };
      await img.decode();
      return img.naturalWidth;
    });
    assert.equal(width, 24, 'the image file is served and decoded');
    await guest.close();
  });

  it('adds and removes an alias inline, without leaving the page', async () => {
    const emoji = await makeEmoji(t, { emoji_shortcode: ':wave_hand:', title: 'Wave', emoji_text: '👋' });
    const page = await open(admin, `/admin/emojis/${emoji.id}/`);
    await page.evaluate('window.stillThisPage = true');
    await page.getByLabel('New alias').fill(':hello_wave:');
    await page.getByRole('button', { name: 'Add alias' }).click();
    await page.locator('#alias-list code', { hasText: ':hello_wave:' }).waitFor();
    assert.equal(await page.getByLabel('New alias').inputValue(), '');
    assert.match((await page.locator('#admin-live').textContent()) ?? '', /Alias :hello_wave: added to :wave_hand:\./);
    assert.equal((await t.services.emoji.catalog.snapshot()).emojiByCode(':hello_wave:')?.id, emoji.id);

    await page.getByLabel('New alias').fill(':wave_hand:');
    await page.getByRole('button', { name: 'Add alias' }).click();
    await page.locator('#alias-alias-error').waitFor();
    assert.match((await page.locator('#alias-alias-error').textContent()) ?? '', /taken/);

    await page.getByRole('button', { name: 'Remove alias :hello_wave:' }).click();
    await page.getByText('No aliases yet.').waitFor();
    assert.equal(await page.evaluate('window.stillThisPage'), true, 'htmx swapped the section in place');
    assert.equal((await t.services.emoji.catalog.snapshot()).emojiByCode(':hello_wave:'), undefined);
    await page.close();
  });

  it('does not let a moderator open the emoji editor (403 page)', async () => {
    const moderator = await signedInContext(app, 'Emoji Moderator', 'moderator');
    const emoji = await makeEmoji(t);
    for (const path of ['/admin/emojis/new/', `/admin/emojis/${emoji.id}/`]) {
      const page = await moderator.newPage();
      const response = await page.goto(`${base}${path}`);
      assert.equal(response?.status(), 403, path);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Forbidden');
      assert.equal(await page.locator('form.emoji-form').count(), 0);
      assert.deepEqual(await seriousAccessibilityViolations(page), []);
      await page.close();
    }
    await moderator.close();
  });

  it('has no serious accessibility violations on the emoji pages', async () => {
    const category = await makeCategory(t, { title: 'Axe category' });
    const emoji = await makeEmoji(t, { emoji_category_id: category.id });
    await makeAlias(t, emoji);
    for (const path of [
      '/admin/emojis/',
      '/admin/emojis/new/',
      `/admin/emojis/${emoji.id}/`,
      `/admin/emojis/${emoji.id}/delete/`,
      '/admin/emoji-categories/',
      '/admin/emoji-images/',
    ]) {
      const page = await open(admin, path);
      assert.deepEqual(await seriousAccessibilityViolations(page), [], path);
      await page.close();
    }
    // A refused form, with every kind of error shown.
    const page = await open(admin, '/admin/emojis/new/');
    await page.getByRole('radio', { name: 'CSS sprite' }).check();
    await page.getByRole('textbox', { name: 'Shortcode (required)' }).fill('bad code');
    await page.getByRole('button', { name: 'Create emoji' }).click();
    await page.locator('#emoji-emoji_shortcode-error').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Shortcode (required)' }).getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.close();
  });
});
