// Every page at a phone's width (390 px) and a desktop's (1280 px): none
// scrolls sideways (the document is never wider than the window), and none has
// a serious accessibility violation. Guests', members' and admins' pages alike,
// filled with long names and titles, as a real forum has them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createUser } from '../helpers/auth.ts';
import { asAuthUser, createForum, createTopic, reply } from '../helpers/forum.ts';

const WIDTHS = [390, 1280] as const;

describe('page layout at 390 px and 1280 px', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let base: string;
  let member: BrowserContext;
  let admin: BrowserContext;
  let guest: BrowserContext;
  const guestPages: string[] = [];
  const memberPages: string[] = [];
  const adminPages = [
    '/admin/',
    '/admin/moderation/',
    '/admin/moderation-log/',
    '/admin/torrents/',
    '/admin/word-filters/',
    '/admin/word-filters/new/',
    '/admin/word-filters/tester/',
    '/admin/emojis/',
    '/admin/emojis/new/',
    '/admin/emoji-categories/',
    '/admin/emoji-images/',
    '/admin/users/',
    '/admin/forums/',
    '/admin/categories/',
    '/admin/outbox/',
  ];

  before(async () => {
    app = await startBrowserApp();
    ({ base } = app);
    member = await signedInContext(app, 'layoutmember');
    admin = await signedInContext(app, 'layoutadmin', 'admin');
    guest = await app.browser.newContext();
    const t = app.t;
    const author = await createUser(t, { name: 'Bartholomew Longname-Writer' });
    const forum = await createForum(
      t,
      'Releases of every kind: films, series, music and software',
      'A description that goes on for a while, as descriptions do.',
    );
    // The index under a long category heading, and the forums in none after it.
    const category = await t.services.forum.categories.create({
      title: 'Films, series and documentaries from every country, in every language and every resolution',
      display_order: 0,
    });
    await t.services.forum.updateForum(forum.id, { category_id: category.id });
    await createForum(t, 'A forum in no category, listed under the neutral heading');
    const topic = await createTopic(
      t,
      author,
      forum,
      'An unusually long topic title with a VeryLongWordWithoutAnyBreaksThatCouldPushThePageWider and more',
      'Opening post with a long URL https://example.org/a/very/long/path/that/does/not/break/anywhere/at/all/unless/the/page/lets/it',
    );
    await reply(t, author, topic, '[code]a line of code that is much longer than a phone is wide, and does not wrap on its own at all[/code]');
    const memberRow = (await t.database.db.selectFrom('users').selectAll().where('username', '=', 'layoutmember').executeTakeFirstOrThrow())!;
    await t.services.forum.watch(asAuthUser(memberRow), topic.id);
    const message = await t.services.messages.send(asAuthUser(author), 'layoutmember', {
      subject: 'A private message with a subject long enough to wrap on a phone',
      body: 'Hello',
    });
    const topicPath = (await t.app.inject({ method: 'GET', url: `/api/topics/${topic.id}` })).json().data.url as string;
    const forumPath = (await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}` })).json().data.url as string;
    guestPages.push(
      '/',
      forumPath,
      topicPath,
      `/profile/bartholomew-longname-writer.${author.id}/`,
      '/search/?search=topic',
      '/members/',
      '/login/',
      '/register/',
      '/password-recovery/',
      '/tracker/',
      '/no-such-page/',
    );
    memberPages.push(
      '/settings/',
      '/profile/watchlist/',
      '/profile/bonus/',
      '/messages/',
      '/messages/sent/',
      '/messages/new/',
      `/messages/${message.id}/`,
      '/tracker/upload/',
      topicPath,
    );
  });
  after(async () => {
    for (const context of [member, admin, guest]) await context?.close();
    await app?.close();
  });

  async function walk(context: BrowserContext, paths: readonly string[]): Promise<string[]> {
    const problems: string[] = [];
    const page: Page = await context.newPage();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of paths) {
        await page.goto(`${base}${path}`);
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        if (overflow > 0) problems.push(`${path} at ${width} px scrolls sideways by ${overflow} px`);
        for (const violation of await seriousAccessibilityViolations(page)) problems.push(`${path} at ${width} px: ${violation.id} (${violation.help})`);
      }
    }
    await page.close();
    return problems;
  }

  it("fits guests' pages", async () => {
    assert.deepEqual(await walk(guest, guestPages), []);
  });

  it("fits members' pages", async () => {
    assert.deepEqual(await walk(member, memberPages), []);
  });

  it("fits the admin's pages", async () => {
    assert.deepEqual(await walk(admin, adminPages), []);
  });

  it('keeps every page axe-clean in the dark variant too (contrast of each colour pair)', async () => {
    const problems: string[] = [];
    const page: Page = await member.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const path of memberPages) {
      await page.goto(`${base}${path}`);
      assert.equal(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor'), 'rgb(20, 23, 28)', 'the dark variant applies');
      for (const violation of await seriousAccessibilityViolations(page)) problems.push(`${path} in the dark: ${violation.id} (${violation.help})`);
    }
    await page.close();
    assert.deepEqual(problems, []);
  });
});
