import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { createRule } from '../word-filters/helpers.ts';
import { HTMX, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('admin area: who may open what', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let moderator: SignedInBrowser;
  let member: SignedInBrowser;
  let staffPages: string[];
  let adminPages: string[];
  let adminActions: string[];

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    moderator = await signedInBrowser(t, 'moderator');
    member = await signedInBrowser(t, 'user');
    const rule = await createRule(t, { pattern: 'access' }, admin.user.id);
    const forum = await t.services.forum.createForum({ name: 'Access forum' });
    await t.services.mailer.send({ to: 'someone@example.test', subject: 'Hello', text: 'Body' });
    const [mail] = (await t.services.outbox.list({ page: 1, perPage: 1, offset: 0 })).rows;
    const category = await t.services.emoji.categories.create({ title: 'Access category', display_order: 0 });
    const emoji = await t.services.emoji.emojis.create({ title: 'Access', emoji_shortcode: ':access_emoji:', emoji_text: '🔑', display_order: 0 });
    const alias = await t.services.emoji.aliases.create({ emoji_id: emoji.id, alias: ':access_alias:' });
    staffPages = [
      '/admin/',
      '/admin/moderation/',
      '/admin/torrents/',
      '/admin/word-filters/',
      '/admin/word-filters/tester/',
      `/admin/word-filters/${rule.id}/`,
      '/admin/moderation-log/',
    ];
    adminPages = [
      `/admin/forums/${forum.id}/permissions/`,
      '/admin/groups/',
      '/admin/word-filters/new/',
      `/admin/word-filters/${rule.id}/delete/`,
      '/admin/users/',
      `/admin/users/${member.user.id}/`,
      '/admin/forums/',
      `/admin/forums/${forum.id}/`,
      '/admin/outbox/',
      `/admin/outbox/${mail!.id}/`,
      '/admin/emoji-images/',
      '/admin/emojis/',
      '/admin/emojis/new/',
      `/admin/emojis/${emoji.id}/`,
      `/admin/emojis/${emoji.id}/delete/`,
      '/admin/emoji-categories/',
      '/admin/mass-send/',
    ];
    adminActions = [
      '/admin/word-filters/',
      `/admin/word-filters/${rule.id}/`,
      `/admin/word-filters/${rule.id}/active/`,
      `/admin/word-filters/${rule.id}/delete/`,
      `/admin/users/${member.user.id}/`,
      '/admin/forums/',
      `/admin/forums/${forum.id}/`,
      `/admin/forums/${forum.id}/order/`,
      `/admin/forums/${forum.id}/delete/`,
      '/admin/emoji-images/custom/',
      '/admin/emoji-images/sprites/',
      '/admin/emoji-images/custom/x.png/delete/',
      '/admin/emojis/',
      '/admin/emojis/preview/',
      `/admin/emojis/${emoji.id}/`,
      `/admin/emojis/${emoji.id}/delete/`,
      `/admin/emojis/${emoji.id}/aliases/`,
      `/admin/emojis/${emoji.id}/aliases/${alias.id}/delete/`,
      '/admin/emoji-categories/',
      `/admin/emoji-categories/${category.id}/`,
      `/admin/emoji-categories/${category.id}/delete/`,
      '/admin/mass-send/',
    ];
  });
  after(() => t.close());

  describe('guests', () => {
    it('are sent to /login/ from every admin page, with the page to come back to', async () => {
      for (const url of [...staffPages, ...adminPages]) {
        const response = await new Browser(t).get(url);
        assert.equal(response.status, 303, url);
        assert.equal(response.location, `/login/?next=${encodeURIComponent(url)}`, url);
      }
    });

    it('come back to the admin page they asked for after logging in', async () => {
      const user = await createUser(t, { role: 'admin' });
      const browser = new Browser(t);
      const first = await browser.get('/admin/word-filters/?severity=high');
      const next = new URL(first.location!, 'http://x').searchParams.get('next')!;
      const login = await browser.logIn(user.username, TEST_PASSWORD, next);
      assert.equal(login.location, '/admin/word-filters/?severity=high');
      const page = await browser.get(login.location!);
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Word filters');
    });

    it('are redirected as a whole page when htmx asks (HX-Redirect to the login with the page they were on)', async () => {
      const response = await new Browser(t).request('GET', '/admin/moderation/', undefined, {
        ...HTMX,
        'hx-current-url': 'http://localhost/admin/moderation/?page=2',
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers['hx-redirect'], `/login/?next=${encodeURIComponent('/admin/moderation/?page=2')}`);
    });

    it('are sent to the login before anything else is judged (a malformed id too)', async () => {
      const response = await new Browser(t).get('/admin/word-filters/abc/');
      assert.equal(response.status, 303);
      assert.equal(response.location, `/login/?next=${encodeURIComponent('/admin/word-filters/abc/')}`);
    });

    it('/admin redirects to /admin/', async () => {
      const response = await new Browser(t).get('/admin');
      assert.equal(response.status, 301);
      assert.equal(response.location, '/admin/');
    });
  });

  describe('members (role user)', () => {
    it('get the 403 page on every admin page', async () => {
      for (const url of [...staffPages, ...adminPages]) {
        const response = await member.browser.get(url);
        assert.equal(response.status, 403, url);
        assert.match(String(response.headers['content-type']), /^text\/html/);
        assert.ok(response.body.startsWith('<!doctype html>'), url);
        assert.equal(dom(response).text('h1'), 'Forbidden', url);
      }
    });

    it('see no Admin link in the site menu, which staff see', async () => {
      const forbidden = await member.browser.get('/admin/');
      assert.match(dom(forbidden).textContent, /Log out/);
      assert.equal(dom(forbidden).count('a[href="/admin/"]'), 0);
      assert.equal(dom(await moderator.browser.get('/admin/')).text('li > a[href="/admin/"]:only-child'), 'Admin');
    });
  });

  describe('moderators', () => {
    it('open the dashboard, the moderation queue and the word filters (read-only) and the tester', async () => {
      for (const url of staffPages) {
        const response = await moderator.browser.get(url);
        assert.equal(response.status, 200, url);
      }
    });

    it('get the 403 page on the admin-only pages', async () => {
      for (const url of adminPages) {
        const response = await moderator.browser.get(url);
        assert.equal(response.status, 403, url);
        assert.equal(dom(response).text('h1'), 'Forbidden');
      }
    });

    it('are refused every admin-only action, even with a valid CSRF token (403)', async () => {
      await moderator.browser.get('/admin/');
      for (const url of adminActions) {
        const response = await moderator.browser.post(url, { confirmed: '1', is_active: '0', display_order: '1', name: 'x', role: 'admin', status: 'active' });
        assert.equal(response.status, 403, url);
      }
      assert.ok((await t.services.emoji.catalog.snapshot()).emojiByCode(':access_alias:'), 'the alias is still there');
      const self = await t.services.users.get(moderator.user.id);
      assert.equal(self.role, 'moderator', 'did not promote themselves');
    });

    it('see only their sections in the admin menu', async () => {
      const page = await moderator.browser.get('/admin/');
      const links = dom(page)
        .all('nav.admin-nav [href]')
        .map((link) => link.getAttribute('href'));
      assert.deepEqual(links, ['/admin/', '/admin/moderation/', '/admin/reports/', '/admin/torrents/', '/admin/word-filters/', '/admin/moderation-log/']);
    });
  });

  describe('admins', () => {
    it('open every admin page', async () => {
      for (const url of [...staffPages, ...adminPages]) {
        const response = await admin.browser.get(url);
        assert.equal(response.status, 200, url);
        assert.equal(response.headers['cache-control'], 'no-store', url);
        assert.equal(dom(response).attr('meta[name="robots"]', 'content'), 'noindex', url);
      }
    });

    it('get the 404 page for unknown or malformed ids', async () => {
      for (const url of ['/admin/word-filters/999999/', '/admin/word-filters/abc/', '/admin/users/999999/', '/admin/forums/999999/', '/admin/outbox/999999/']) {
        const response = await admin.browser.get(url);
        assert.equal(response.status, 404, url);
        assert.equal(dom(response).text('h1'), 'Not found', url);
      }
    });
  });

  describe('CSRF', () => {
    it('refuses every admin form posted without the session token (403), changing nothing', async () => {
      const before = await t.services.wordFilters.list({}, { field: 'id', direction: 'asc' }, { page: 1, perPage: 100, offset: 0 });
      for (const url of adminActions) {
        const response = await admin.browser.post(url, {
          _csrf: 'not-the-token-of-this-session',
          confirmed: '1',
          pattern: 'forged',
          pattern_type: 'exact',
          filter_type: 'block',
          applies_to: 'posts',
          name: 'Forged',
          display_order: '5',
          role: 'admin',
          status: 'banned',
        });
        assert.equal(response.status, 403, url);
        assert.match(dom(response).textContent, /CSRF token mismatch/, url);
      }
      const afterwards = await t.services.wordFilters.list({}, { field: 'id', direction: 'asc' }, { page: 1, perPage: 100, offset: 0 });
      assert.deepEqual(afterwards, before);
      assert.equal((await t.services.users.get(member.user.id)).status, 'active');
    });

    it('accepts the token in the X-CSRF-Token header, as htmx sends it', async () => {
      const page = await admin.browser.get('/admin/word-filters/');
      const token = dom(page).attr('meta[name="csrf-token"]', 'content')!;

      const rule = await createRule(t, { pattern: 'headertoken' }, admin.user.id);
      const response = await admin.browser.request('POST', `/admin/word-filters/${rule.id}/active/`, { is_active: '0' }, { ...HTMX, 'x-csrf-token': token });
      assert.equal(response.status, 200);
      assert.equal((await t.services.wordFilters.get(rule.id)).is_active, false);
    });
  });
});
