// Every page at a phone's width (390 px) and a desktop's (1280 px), in English
// and in Russian: none scrolls sideways (the document is never wider than the
// window), none breaks a word of up to 20 letters across two lines (outside
// code blocks), and none has a serious accessibility violation. Guests',
// members' and admins' pages alike, filled with long names and titles, as a
// real forum has them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { signedInContext, startBrowserApp, type BrowserApp } from '../helpers/browser-app.ts';
import { brokenWords, browserSkipReason, seriousAccessibilityViolations } from '../helpers/chromium.ts';
import { createUser } from '../helpers/auth.ts';
import { asAuthUser, createForum, createTopic, reply } from '../helpers/forum.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const WIDTHS = [390, 1280] as const;
const LANGUAGES = ['en', 'ru'] as const;
type Language = (typeof LANGUAGES)[number];

describe('page layout at 390 px and 1280 px', { skip: browserSkipReason() }, () => {
  let app: BrowserApp;
  let base: string;
  const member = {} as Record<Language, BrowserContext>;
  const admin = {} as Record<Language, BrowserContext>;
  const guest = {} as Record<Language, BrowserContext>;
  const guestPages: string[] = [];
  const memberPages: string[] = [];
  const adminPages = [
    '/admin/',
    '/admin/moderation/',
    '/admin/reports/',
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
    '/admin/groups/',
    '/admin/ranks/',
    '/admin/pages/',
    '/admin/pages/new/',
    '/admin/mass-send/',
    '/admin/settings/',
  ];

  before(async () => {
    app = await startBrowserApp();
    ({ base } = app);
    for (const language of LANGUAGES) {
      member[language] = await signedInContext(app, `layoutmember${language}`, 'user', language);
      admin[language] = await signedInContext(app, `layoutadmin${language}`, 'admin', language);
      guest[language] = await app.browser.newContext({ locale: language });
    }
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
    adminPages.push(`/admin/forums/${forum.id}/permissions/`, `/admin/forums/${forum.id}/release-template/`);
    await t.services.groups.create({ name: 'Release team of the films and series forums', description: 'Those who check new releases.', type: 'closed' });
    const topic = await createTopic(
      t,
      author,
      forum,
      'An unusually long topic title with a VeryLongWordWithoutAnyBreaksThatCouldPushThePageWider and more',
      'Opening post with a long URL https://example.org/a/very/long/path/that/does/not/break/anywhere/at/all/unless/the/page/lets/it',
    );
    await reply(t, author, topic, '[code]a line of code that is much longer than a phone is wide, and does not wrap on its own at all[/code]');
    await t.services.tracker.torrents.upload(asAuthUser(author), topic.id, makeTorrent({ name: 'Releases.Of.Every.Kind.2026.1080p.WEB-DL.mkv' }), base);
    const messages: number[] = [];
    for (const language of LANGUAGES) {
      const memberRow = await t.database.db.selectFrom('users').selectAll().where('username', '=', `layoutmember${language}`).executeTakeFirstOrThrow();
      await t.services.forum.watch(asAuthUser(memberRow), topic.id);
      const message = await t.services.messages.send(asAuthUser(author), memberRow.username, {
        subject: 'A private message with a subject long enough to wrap on a phone',
        body: 'Hello',
      });
      messages.push(message.id);
    }
    // The forum's releases are laid out by a template: its form's long label must fit (set once its topic is made).
    await t.services.forum.releases.set(forum.id, {
      title_layout: '{title} [{quality}]',
      body_layout: '',
      fields: [
        {
          key: 'quality',
          label: 'Quality of the picture, as the encoder describes it in the release notes',
          kind: 'choice',
          required: true,
          filterable: true,
          choices: ['720p', '1080p'],
        },
        { key: 'poster', label: 'Poster', kind: 'image', required: false, filterable: false, choices: [] },
      ],
    });
    // A static page with a long title and a long word, in the footer of every page.
    const rules = await t.services.sitePages.create({
      slug: 'rules-of-the-releases-forums',
      position: 0,
      in_footer: true,
      texts: {
        en: {
          title: 'Rules of the releases forums, for uploaders and for everyone who comments',
          body: 'Name releases like Releases.Of.Every.Kind.2026.1080p.WEB-DL.mkv.',
        },
        ru: {
          title: 'Правила разделов релизов для раздающих и для всех, кто комментирует',
          body: 'Называйте релизы так: Releases.Of.Every.Kind.2026.1080p.WEB-DL.mkv.',
        },
      },
    });
    adminPages.push(`/admin/pages/${rules.id}/`);
    // A mass mail with a long subject: its page in the administration, and a member's unsubscribe page.
    const sender = await t.database.db.selectFrom('users').selectAll().where('username', '=', 'layoutadminen').executeTakeFirstOrThrow();
    const send = await t.services.massSends.create(asAuthUser(sender), {
      kind: 'mail',
      audience: { kind: 'all' },
      subject: 'News of the releases forums: new rules for uploaders, a new tracker address and more',
      body: 'Read the new [url=https://example.org/rules]rules[/url].',
    });
    await t.services.massSender.settled();
    adminPages.push(`/admin/mass-send/${send.id}/`);
    const { mass_mail_key: unsubscribeKey } = await t.database.db
      .selectFrom('users')
      .select('mass_mail_key')
      .where('id', '=', author.id)
      .executeTakeFirstOrThrow();
    const topicPath = (await t.app.inject({ method: 'GET', url: `/api/topics/${topic.id}` })).json().data.url as string;
    const forumPath = (await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}` })).json().data.url as string;
    adminPages.push(`${topicPath}split/`, `${topicPath}merge/`);
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
      '/groups/',
      '/pages/rules-of-the-releases-forums/',
      `/unsubscribe/${unsubscribeKey}/`,
      '/no-such-page/',
    );
    memberPages.push(
      '/settings/',
      '/profile/watchlist/',
      '/profile/bonus/',
      '/messages/',
      '/messages/sent/',
      '/messages/new/',
      `/messages/${messages[0]}/`,
      `/messages/${messages[1]}/`,
      '/tracker/upload/',
      '/notifications/',
      '/notifications/settings/',
      topicPath,
    );
  });
  after(async () => {
    for (const contexts of [member, admin, guest]) for (const context of Object.values(contexts)) await context.close();
    await app?.close();
  });

  /**
   * Each page at each width in each language. Accessibility is checked in
   * English only: the other language changes the words, not the structure.
   * The members' own message pages are theirs alone: another's is a 404.
   */
  async function walk(contexts: Record<Language, BrowserContext>, paths: readonly string[]): Promise<string[]> {
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      const page: Page = await contexts[language].newPage();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of paths) {
          const response = await page.goto(`${base}${path}`);
          if (response?.status() === 404 && path.startsWith('/messages/') && path !== '/messages/new/') continue;
          const where = `${path} at ${width} px in ${language}`;
          assert.equal(await page.evaluate('document.documentElement.lang'), language, `${where} is in the browser's language`);
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
          if (overflow > 0) problems.push(`${where} scrolls sideways by ${overflow} px`);
          for (const broken of await brokenWords(page)) problems.push(`${where} breaks "${broken.word}" in ${broken.element}`);
          if (language === 'en') {
            for (const violation of await seriousAccessibilityViolations(page)) problems.push(`${where}: ${violation.id} (${violation.help})`);
          }
        }
      }
      await page.close();
    }
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
    const page: Page = await member.en.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const path of memberPages) {
      const response = await page.goto(`${base}${path}`);
      if (response?.status() === 404) continue;
      assert.equal(await page.evaluate('getComputedStyle(document.documentElement).backgroundColor'), 'rgb(20, 23, 28)', 'the dark variant applies');
      for (const violation of await seriousAccessibilityViolations(page)) problems.push(`${path} in the dark: ${violation.id} (${violation.help})`);
    }
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('follows the footer’s theme switch over the system’s choice, both ways', async () => {
    const context = await app.browser.newContext();
    const page = await context.newPage();
    const background = () => page.evaluate<string>('getComputedStyle(document.body.parentElement).backgroundColor');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/members/`);
    assert.equal(await background(), 'rgb(255, 255, 255)');
    await page.locator('nav.themes a', { hasText: 'Dark' }).click();
    await page.waitForURL(`${base}/members/`);
    assert.equal(await background(), 'rgb(20, 23, 28)', 'dark on a light system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('nav.themes a', { hasText: 'Light' }).click();
    await page.waitForURL(`${base}/members/`);
    assert.equal(await background(), 'rgb(255, 255, 255)', 'light on a dark system');
    await page.locator('nav.themes a', { hasText: 'As the system' }).click();
    await page.waitForURL(`${base}/members/`);
    assert.equal(await background(), 'rgb(20, 23, 28)', 'the system’s again');
    await context.close();
  });
});
