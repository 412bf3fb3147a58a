import { announceUrl, peerId, registerTorrent, trackerGet, trackerUser } from '../helpers/tracker.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { createRule } from '../word-filters/helpers.ts';
import { signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';

describeEachDatabase('admin outbox and dashboard', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let moderator: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    moderator = await signedInBrowser(t, 'moderator');
  });
  after(() => t.close());

  describe('outbox', () => {
    it('lists mail newest first, paginated, and shows a message in full (escaped)', async () => {
      for (let i = 1; i <= 3; i++) {
        await t.services.mailer.send({
          to: `reader${i}@example.test`,
          subject: `Message ${i}`,
          text: `Body ${i} <b>not bold</b>\nhttps://forum.example/activate/1/key${i}/`,
        });
      }
      const page = await admin.browser.get('/admin/outbox/?per_page=2');
      assert.equal(page.status, 200);
      const messages = (listing: { body: string }) =>
        dom(listing)
          .links()
          .filter((link) => /^\/admin\/outbox\/\d+\/$/.test(link.href));
      const subjects = messages(page).map((link) => link.text);
      assert.deepEqual(subjects, ['Message 3', 'Message 2']);
      assert.ok(dom(page).texts('span.badge.off').includes('Kept here'));
      assert.equal(dom(page).text('a[rel="next"]'), 'Next');
      const older = await admin.browser.get('/admin/outbox/?per_page=2&page=2');
      assert.deepEqual(
        messages(older).map((link) => link.text),
        ['Message 1'],
      );

      const message = await admin.browser.get(messages(older)[0]!.href);
      assert.ok(dom(message).texts('dd').includes('reader1@example.test'), 'the recipient');
      const mailBody = dom(message).one('div.mail-body');
      assert.equal(mailBody.text, 'Body 1 <b>not bold</b>\nhttps://forum.example/activate/1/key1/', 'the text as sent, line breaks kept');
      assert.equal(mailBody.childNodes.length, 1, 'shown as text, not markup');
    });

    it('is for admins only: mail carries one-time links', async () => {
      assert.equal((await moderator.browser.get('/admin/outbox/')).status, 403);
    });
  });

  describe('dashboard', () => {
    it('shows admins every section with its counts', async () => {
      const author = await createUser(t);
      const writer: AuthUser = { id: author.id, name: author.username, email: author.email, role: 'user' };
      const forum = await t.services.forum.createForum({ name: 'Dash forum' });
      await createRule(t, { pattern: 'dashheld', filter_type: 'moderate', applies_to: ['posts'] });
      await createRule(t, { pattern: 'dashoff', is_active: false });
      await t.services.forum.createTopic(writer, { forum_id: forum.id, title: 'Held topic', body: 'dashheld' });
      await createUser(t, { status: 'banned' });
      const torrent = await registerTorrent(t);
      const seeder = await trackerUser(t);
      await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0 }));

      const page = await admin.browser.get('/admin/');
      assert.equal(page.status, 200);
      const card = (id: string) => dom(dom(page).one(`li#card-${id}`));
      /** The card's figure (`<p class="count">N <span class="muted">what</span></p>`) and the line under it. */
      const figure = (id: string) => {
        const count = card(id).one('p.count');
        return {
          count: textOf(count),
          unit: dom(count).text('span.muted'),
          next: count.nextElementSibling?.tagName === 'P' ? textOf(count.nextElementSibling) : undefined,
        };
      };
      const users = (await t.services.users.list({}, 0, 1)).total;
      assert.deepEqual([figure('moderation').count, figure('moderation').unit], ['1 waiting', 'waiting']);
      assert.deepEqual(figure('word-filters'), { count: '2 rules', unit: 'rules', next: '1 active' });
      assert.deepEqual(figure('users'), { count: `${users} users`, unit: 'users', next: '1 banned' });
      assert.deepEqual([figure('forums').count, figure('forums').unit], ['2 forums', 'forums'], 'the torrent came with a forum of its own');
      assert.deepEqual(figure('torrents'), { count: '1 torrent', unit: 'torrent', next: '1 peer now: 1 seeder, 0 leechers' });
      assert.equal(card('outbox').linkText('/admin/outbox/'), 'Outbox');
      assert.deepEqual([figure('moderation-log').count, figure('moderation-log').unit], ['0 actions', 'actions']);
      const emojis = (await t.services.emoji.emojis.list({}, { offset: 0, limit: 1 }, { category: false, aliases: false })).total;
      assert.deepEqual([figure('emojis').count, figure('emojis').unit], [`${emojis} emojis`, 'emojis']);
      assert.equal(card('emoji-categories').linkText('/admin/emoji-categories/'), 'Emoji categories');
      assert.equal(card('categories').linkText('/admin/categories/'), 'Forum categories');
      const cards = dom(page)
        .all('li[id^="card-"]')
        .map((li) => li.id.slice('card-'.length));
      assert.deepEqual(cards, [
        'moderation',
        'reports',
        'torrents',
        'word-filters',
        'emojis',
        'emoji-categories',
        'emoji-images',
        'users',
        'forums',
        'categories',
        'groups',
        'ranks',
        'pages',
        'moderation-log',
        'mass-send',
        'outbox',
        'settings',
      ]);
    });

    it('shows moderators only the queue, the torrents, the word filters and the moderation log', async () => {
      const page = await moderator.browser.get('/admin/');
      const cards = dom(page)
        .all('li[id^="card-"]')
        .map((li) => li.id.slice('card-'.length));
      assert.deepEqual(cards, ['moderation', 'reports', 'torrents', 'word-filters', 'moderation-log']);
    });
  });
});
