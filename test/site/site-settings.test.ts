// The site's own settings (issue 29; site/settings.ts, admin/site-settings.ts,
// site/routes.ts): an admin names the site, describes it, gives it a logo,
// sets the language guests read it in and opens or closes registration, on
// /admin/settings/ or through /api/site; every page follows at the next request.
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { loggedInWithToken, type Member, type MemberWithToken } from '../helpers/forum.ts';

const DEFAULTS = { name: 'Forum', description: '', logo_url: null, default_locale: 'en', registration_open: true };

describeEachDatabase('site settings', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Site Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Site Member' });
  });
  after(() => t.close());
  beforeEach(async () => {
    const reset = await t.app.inject({ method: 'PATCH', url: '/api/site', headers: admin.headers, payload: { ...DEFAULTS, logo_url: '' } });
    assert.equal(reset.statusCode, 200);
  });

  const settingsRow = () => t.database.db.selectFrom('site_settings').selectAll().executeTakeFirstOrThrow();
  const save = (who: Member, form: Record<string, string>) =>
    who.browser.post('/admin/settings/', { name: 'Forum', description: '', logo_url: '', default_locale: 'en', registration_open: '1', ...form });

  it('are saved on the admin page and shown on every page at once: name, description and logo', async () => {
    const page = await admin.browser.get('/admin/settings/');
    assert.equal(page.status, 200);
    assert.equal(dom(page).one('input[name="name"]').getAttribute('value'), 'Forum');

    const saved = await save(admin, { name: 'Раздача & Co', description: 'Releases, seeded for years', logo_url: '/uploads/logo.png' });
    assert.equal(saved.status, 303);
    const index = await new Browser(t).get('/');
    assert.equal(dom(index).text('title').endsWith(' · Раздача & Co'), true, dom(index).text('title'));
    assert.equal(dom(index).one('meta[name="description"]').getAttribute('content'), 'Releases, seeded for years');
    const logo = dom(index).one('header.site a.brand img.logo');
    assert.equal(logo.getAttribute('src'), '/uploads/logo.png');
    assert.equal(logo.getAttribute('alt'), 'Раздача & Co');
    const feed = await t.app.inject({ method: 'GET', url: '/feed.atom' });
    assert.equal(feed.statusCode, 200);
    assert.match(feed.body, /<title[^>]*>Раздача &amp; Co: newest topics<\/title>/);

    const api = await t.app.inject({ method: 'GET', url: '/api/site' });
    assert.deepEqual(api.json().data, {
      name: 'Раздача & Co',
      description: 'Releases, seeded for years',
      logo_url: '/uploads/logo.png',
      default_locale: 'en',
      registration_open: true,
      robots_txt: null,
    });
  });

  it('refuse a blank name, an unsafe logo address or an unknown language with 422 on the field, changing nothing', async () => {
    const before = await settingsRow();
    for (const [field, value] of [
      ['name', '   '],
      ['name', 'x'.repeat(101)],
      ['logo_url', 'javascript:alert(1)'],
      ['logo_url', '//evil.example/logo.png'],
      ['default_locale', 'de'],
    ] as const) {
      const refused = await save(admin, { [field]: value });
      assert.equal(refused.status, 422, `${field}=${value}`);
      assert.ok(dom(refused).has(`#site-settings-${field}-error, [id$="${field}-error"]`), `${field}: the error is on its field`);
      const api = await t.app.inject({ method: 'PATCH', url: '/api/site', headers: admin.headers, payload: { [field]: value } });
      assert.equal(api.statusCode, 422, `API ${field}=${value}`);
      assert.deepEqual(await settingsRow(), before, `${field}: nothing changed`);
    }
  });

  it('are an admin’s only: members and guests are refused on the page and the API, changing nothing', async () => {
    const before = await settingsRow();
    assert.equal((await member.browser.get('/admin/settings/')).status, 403);
    assert.equal((await save(member, { name: 'Taken over' })).status, 403);
    assert.equal((await t.app.inject({ method: 'PATCH', url: '/api/site', headers: member.headers, payload: { name: 'Taken over' } })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'PATCH', url: '/api/site', payload: { name: 'Taken over' } })).statusCode, 401);
    assert.deepEqual(await settingsRow(), before);
  });

  it('give guests the default language when their browser names none the site speaks; a browser’s or a member’s own choice wins', async () => {
    await save(admin, { default_locale: 'ru' });
    const lang = async (browser: Browser | Member['browser']) =>
      dom(await browser.get('/'))
        .one('html')
        .getAttribute('lang');
    assert.equal(await lang(new Browser(t)), 'ru', 'no Accept-Language');
    assert.equal(await lang(new Browser(t, { 'accept-language': 'de-DE,de;q=0.9' })), 'ru', 'a language the site does not speak');
    assert.equal(await lang(new Browser(t, { 'accept-language': 'en-GB,en;q=0.9' })), 'en', 'the browser asks for English');
    await t.database.db.updateTable('users').set({ locale: 'en' }).where('id', '=', member.user.id).execute();
    assert.equal(await lang(member.browser), 'en', 'the member chose English');
  });

  it('close registration: the page says so, a submitted form creates nothing (403), the header drops its link; reopened, all is back', async () => {
    await save(admin, { registration_open: '0' });
    const guest = new Browser(t);
    const page = await guest.get('/register/');
    assert.equal(page.status, 200);
    assert.ok(!dom(page).has('form[action="/register/"]'));
    assert.match(dom(page).text('main'), /Registration is closed/);
    assert.ok(!dom(page).has('header.site a[href="/register/"]'));
    const users = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;
    const count = await users();
    const refused = await guest.post('/register/', {
      username: 'Latecomer',
      email: 'late@example.org',
      password: 'long enough password',
      password_confirmation: 'long enough password',
    });
    assert.equal(refused.status, 403);
    assert.equal(await users(), count);

    await save(admin, { registration_open: '1' });
    const open = await new Browser(t).get('/register/');
    assert.ok(dom(open).has('form[action="/register/"]'));
    assert.ok(dom(open).has('header.site a[href="/register/"]'));
  });
});
