// Private messages as two people use them in a browser: one writes from the
// other's profile, the other sees the count in the header, opens the Inbox
// and the message, replies with the form, and the first finds the answer;
// then deletes it. The pages are axe-clean along the way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';

describe('private messages in a browser', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let base: string;
  let anna: BrowserContext;
  let boris: BrowserContext;

  before(async () => {
    app = await startBrowserApp();
    ({ base } = app);
    anna = await signedInContext(app, 'anna');
    boris = await signedInContext(app, 'boris');
  });
  after(async () => {
    await anna?.close();
    await boris?.close();
    await app?.close();
  });

  it('writes from a profile, counts it in the header, reads and answers it, and deletes the answer', async () => {
    const { id: borisId } = await app.t.database.db.selectFrom('users').select('id').where('username', '=', 'boris').executeTakeFirstOrThrow();
    const writer = await anna.newPage();
    await writer.goto(`${base}/profile/boris.${borisId}/`);
    await writer.getByRole('link', { name: 'Send boris a private message' }).click();
    await writer.waitForURL(/\/messages\/new\/\?to=boris$/);
    assert.equal(await writer.getByLabel('To (user name)').inputValue(), 'boris');
    await writer.getByLabel('Subject').fill('Seeding tonight?');
    await writer.getByLabel('Message', { exact: true }).fill('Can you [b]seed[/b] the Debian images tonight?');
    await writer.getByRole('button', { name: 'Send' }).click();
    await writer.waitForURL(/\/messages\/\d+\/\?sent=1$/);
    assert.match((await writer.locator('main').textContent()) ?? '', /Your message was sent\./);
    assert.equal(await writer.locator('article.message strong').textContent(), 'seed');
    assert.deepEqual(await seriousAccessibilityViolations(writer), []);

    const reader = await boris.newPage();
    await reader.goto(`${base}/`);
    const header = reader.getByRole('navigation', { name: 'Main' });
    assert.equal(await header.getByRole('link', { name: 'Messages 1 unread' }).count(), 1);
    await header.getByRole('link', { name: 'Messages 1 unread' }).click();
    await reader.waitForURL(`${base}/messages/`);
    assert.deepEqual(await seriousAccessibilityViolations(reader), []);
    await reader.getByRole('link', { name: 'Seeding tonight?' }).click();
    await reader.waitForURL(/\/messages\/\d+\/$/);
    assert.equal(await header.getByRole('link', { name: 'Messages', exact: true }).count(), 1, 'opened: no longer counted');
    assert.equal(await reader.getByLabel('Subject').inputValue(), 'Re: Seeding tonight?');
    await reader.getByLabel('Your reply').fill('Yes, from 8 pm.');
    await reader.getByRole('button', { name: 'Send reply' }).click();
    await reader.waitForURL(/\/messages\/\d+\/\?sent=1$/);
    assert.deepEqual(await seriousAccessibilityViolations(reader), []);

    await writer.goto(`${base}/messages/`);
    await writer.getByRole('link', { name: 'Re: Seeding tonight?' }).click();
    assert.match((await writer.locator('article.message').textContent()) ?? '', /Yes, from 8 pm\./);
    await writer.getByRole('button', { name: 'Delete this message' }).click();
    await writer.waitForURL(`${base}/messages/?deleted=1`);
    assert.equal(await writer.getByRole('link', { name: 'Re: Seeding tonight?' }).count(), 0);
    await writer.goto(`${base}/messages/sent/`);
    assert.equal(await writer.getByRole('link', { name: 'Seeding tonight?' }).count(), 1, 'the Sent folder keeps what anna sent');
    await writer.close();
    await reader.close();
  });

  it('fits a 390 px wide screen without scrolling sideways', async () => {
    const page = await anna.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    for (const path of ['/messages/', '/messages/sent/', '/messages/new/']) {
      await page.goto(`${base}${path}`);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow} px`);
    }
    await page.close();
  });
});
