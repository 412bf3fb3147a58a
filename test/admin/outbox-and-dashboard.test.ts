import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { createRule } from '../word-filters/helpers.ts';
import { signedInBrowser, type SignedInBrowser } from './helpers.ts';

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
        await t.services.mailer.send({ to: `reader${i}@example.test`, subject: `Message ${i}`, text: `Body ${i} <b>not bold</b>\nhttps://forum.example/activate/1/key${i}/` });
      }
      const page = await admin.browser.get('/admin/outbox/?per_page=2');
      assert.equal(page.status, 200);
      const subjects = [...page.body.matchAll(/<a href="\/admin\/outbox\/\d+\/">(Message \d)<\/a>/g)].map((m) => m[1]);
      assert.deepEqual(subjects, ['Message 3', 'Message 2']);
      assert.match(page.body, /<span class="badge off">Kept here<\/span>/);
      assert.match(page.body, /rel="next">Next<\/a>/);
      const older = await admin.browser.get('/admin/outbox/?per_page=2&page=2');
      assert.deepEqual([...older.body.matchAll(/<a href="\/admin\/outbox\/\d+\/">(Message \d)<\/a>/g)].map((m) => m[1]), ['Message 1']);

      const id = /<a href="\/admin\/outbox\/(\d+)\/">Message 1<\/a>/.exec(older.body)![1];
      const message = await admin.browser.get(`/admin/outbox/${id}/`);
      assert.match(message.body, /<dd>reader1@example.test<\/dd>/);
      assert.match(message.body, /<div class="mail-body">Body 1 &lt;b&gt;not bold&lt;\/b&gt;\nhttps:\/\/forum.example\/activate\/1\/key1\/<\/div>/);
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

      const page = await admin.browser.get('/admin/');
      assert.equal(page.status, 200);
      const card = (id: string) => new RegExp(`<li id="card-${id}">[\\s\\S]*?</li>`).exec(page.body)?.[0] ?? '';
      const users = (await t.services.users.list({}, 0, 1)).total;
      assert.match(card('moderation'), /<p class="count">1 <span class="muted">waiting<\/span><\/p>/);
      assert.match(card('word-filters'), /<p class="count">2 <span class="muted">rules<\/span><\/p><p>1 active<\/p>/);
      assert.match(card('users'), new RegExp(`<p class="count">${users} <span class="muted">users</span></p><p>1 banned</p>`));
      assert.match(card('forums'), /<p class="count">1 <span class="muted">forums<\/span><\/p>/);
      assert.match(card('outbox'), /<a href="\/admin\/outbox\/">Outbox<\/a>/);
      const emojis = (await t.services.emoji.emojis.list({}, { offset: 0, limit: 1 }, { category: false, aliases: false })).total;
      assert.match(card('emojis'), new RegExp(`<p class="count">${emojis} <span class="muted">emojis</span></p>`));
      assert.match(card('emoji-categories'), /<a href="\/admin\/emoji-categories\/">Emoji categories<\/a>/);
      const cards = [...page.body.matchAll(/<li id="card-([\w-]+)">/g)].map((m) => m[1]);
      assert.deepEqual(cards, ['moderation', 'word-filters', 'emojis', 'emoji-categories', 'emoji-images', 'users', 'forums', 'outbox']);
    });

    it('shows moderators only the queue and the word filters', async () => {
      const page = await moderator.browser.get('/admin/');
      const cards = [...page.body.matchAll(/<li id="card-([\w-]+)">/g)].map((m) => m[1]);
      assert.deepEqual(cards, ['moderation', 'word-filters']);
    });
  });
});
