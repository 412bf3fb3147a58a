// Static pages (docs/static-pages.md): rules, FAQ, about, written by admins in
// BBCode in English, Russian or both, at /pages/{slug}/, linked from the
// footer in order, listed in the sitemap, and reached from TorrentPier's
// `info.php?show=` links. Through the API (admins write, anyone reads) and
// the admin pages, which work without JavaScript; refusals change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_BODY_MAX } from '../../src/site/pages.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { fieldError } from '../admin/helpers.ts';

interface PageJson {
  id: number;
  slug: string;
  url: string;
  position: number;
  in_footer: boolean;
  texts: Record<'en' | 'ru', { title: string; body: string; body_html: string } | null>;
}

describeEachDatabase('static pages', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const make = async (body: object): Promise<PageJson> => {
    const made = await api('POST', '/api/pages', admin, body);
    assert.equal(made.statusCode, 201, made.body);
    return made.json<{ data: PageJson }>().data;
  };
  const english = () => new Browser(t, { 'accept-language': 'en' });
  const russian = () => new Browser(t, { 'accept-language': 'ru' });
  const footerLinks = async (browser: Browser) =>
    dom(await browser.get('/'))
      .all('footer nav.site-pages a')
      .map((link) => [link.getAttribute('href'), (link.textContent ?? '').trim(), link.getAttribute('lang') ?? null]);

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Page Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Page Reader' });
  });
  after(() => t.close());

  describe('through the API and on the site', () => {
    it('shows a page in the reader’s language, else in the one it is written in, and links the footer in order', async () => {
      assert.deepEqual(await footerLinks(english()), [], 'no pages: no footer links');
      const rules = await make({
        slug: 'rules',
        position: 2,
        texts: {
          en: { title: 'Rules', body: '[b]Be kind.[/b] <script>alert(1)</script>' },
          ru: { title: 'Правила', body: '[b]Будьте вежливы.[/b]' },
        },
      });
      assert.equal(rules.url, '/pages/rules/');
      assert.match(rules.texts.en!.body_html, /<strong>Be kind\.<\/strong>/);
      assert.match(rules.texts.en!.body_html, /&lt;script&gt;/, 'markup in the text is escaped');
      await make({ slug: 'faq', position: 1, texts: { ru: { title: 'Частые вопросы', body: 'Ответы.' } } });
      await make({ slug: 'hidden-note', in_footer: false, texts: { en: { title: 'Note', body: 'Not in the footer.' } } });

      const page = dom(await english().get('/pages/rules/'));
      assert.equal(page.text('main h1'), 'Rules');
      assert.equal(page.one('main article strong').textContent, 'Be kind.');
      assert.equal(page.find('main article script'), null);
      assert.equal(page.attr('link[rel="canonical"]', 'href'), 'http://localhost/pages/rules/');
      assert.equal(dom(await russian().get('/pages/rules/')).text('main h1'), 'Правила');
      const fallback = dom(await english().get('/pages/faq/'));
      assert.equal(fallback.text('main h1'), 'Частые вопросы', 'written in Russian only: shown in Russian');
      assert.equal(fallback.attr('main article', 'lang'), 'ru');

      assert.deepEqual(await footerLinks(english()), [
        ['/pages/faq/', 'Частые вопросы', 'ru'],
        ['/pages/rules/', 'Rules', null],
      ]);
      assert.deepEqual(await footerLinks(russian()), [
        ['/pages/faq/', 'Частые вопросы', null],
        ['/pages/rules/', 'Правила', null],
      ]);
      assert.equal((await english().get('/pages/hidden-note/')).status, 200, 'out of the footer, still at its address');

      const listed = (await api('GET', '/api/pages', null)).json<{ data: PageJson[] }>().data;
      assert.deepEqual(
        listed.map((one) => one.slug),
        ['hidden-note', 'faq', 'rules'],
        'by position, then slug',
      );
      assert.equal((await api('GET', `/api/pages/${rules.id}`, null)).json<{ data: PageJson }>().data.texts.ru!.title, 'Правила');
    });

    it('lists the pages in the sitemap and answers TorrentPier’s info.php links with a redirect', async () => {
      const sitemap = await t.app.inject({ method: 'GET', url: '/sitemaps/forums.xml', headers: { host: 'localhost' } });
      assert.match(sitemap.body, /<loc>http:\/\/localhost\/pages\/rules\/<\/loc>/);
      assert.match(sitemap.body, /<loc>http:\/\/localhost\/pages\/hidden-note\/<\/loc>/);
      await make({ slug: 'user-agreement', texts: { en: { title: 'User agreement', body: 'Terms.' } } });
      const legacy = await english().get('/info.php?show=user_agreement');
      assert.equal(legacy.status, 301);
      assert.equal(legacy.headers['location'], '/pages/user-agreement/');
      const unknown = await english().get('/info.php?show=nothing_here');
      assert.equal(unknown.headers['location'], '/pages/nothing-here/', 'the address is mapped whatever exists; the page answers 404');
      assert.equal((await english().get('/pages/nothing-here/')).status, 404);
      assert.equal((await english().get('/info.php?show=../admin')).status, 404);
      assert.equal((await english().get('/pages/no-such-page/')).status, 404);
      assert.equal((await english().get('/pages/Rules/')).status, 404);
    });

    it('replaces a page whole (a language left out loses its text; a new slug moves it) and deletes it', async () => {
      const made = await make({ slug: 'about', texts: { en: { title: 'About', body: 'Us.' }, ru: { title: 'О нас', body: 'Мы.' } } });
      const replaced = await api('PUT', `/api/pages/${made.id}`, admin, { slug: 'about-us', texts: { en: { title: 'About us', body: 'We.' } } });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.equal(replaced.json<{ data: PageJson }>().data.texts.ru, null);
      assert.equal((await english().get('/pages/about/')).status, 404);
      assert.equal(dom(await russian().get('/pages/about-us/')).text('main h1'), 'About us');
      assert.equal((await api('DELETE', `/api/pages/${made.id}`, admin)).statusCode, 204);
      assert.equal((await english().get('/pages/about-us/')).status, 404);
      assert.equal((await api('DELETE', `/api/pages/${made.id}`, admin)).statusCode, 404);
      assert.equal((await api('GET', `/api/pages/${made.id}`, null)).statusCode, 404);
    });

    it('refuses members, guests, bad addresses, a taken one, no text, blank titles, huge and unstorable texts, changing nothing', async () => {
      const rules = (await t.services.sitePages.bySlug('rules'))!;
      const text = { en: { title: 'T', body: 'B' } };
      const unchanged = async (request: () => Promise<{ statusCode: number; body: string }>, status: number) => {
        await api('GET', '/api/user', member);
        await api('GET', '/api/user', admin);
        const before = await snapshotTables(t);
        const answer = await request();
        assert.equal(answer.statusCode, status, answer.body);
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      };
      await unchanged(() => api('POST', '/api/pages', member, { slug: 'mine', texts: text }), 403);
      await unchanged(() => api('POST', '/api/pages', null, { slug: 'mine', texts: text }), 401);
      await unchanged(() => api('DELETE', `/api/pages/${rules.id}`, member), 403);
      for (const slug of ['Rules', 'a--b', '-x', 'x-', 'a b', 'правила', '', 'x'.repeat(65)]) {
        await unchanged(() => api('POST', '/api/pages', admin, { slug, texts: text }), 422);
      }
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'rules', texts: text }), 422);
      const faq = (await t.services.sitePages.bySlug('faq'))!;
      await unchanged(() => api('PUT', `/api/pages/${faq.id}`, admin, { slug: 'rules', texts: text }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'empty', texts: {} }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'empty', texts: { en: null, ru: null } }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'blank', texts: { en: { title: '   ', body: 'B' } } }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'huge', texts: { en: { title: 'T', body: 'x'.repeat(PAGE_BODY_MAX + 1) } } }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'nul', texts: { en: { title: 'T', body: 'a\u0000b' } } }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'lone', texts: { en: { title: '\ud800', body: 'B' } } }), 422);
      await unchanged(() => api('POST', '/api/pages', admin, { slug: 'far', position: 10 ** 12, texts: text }), 422);
      await unchanged(() => api('PUT', '/api/pages/99999999', admin, { slug: 'ghost', texts: text }), 404);
    });
  });

  describe('on the admin pages', () => {
    it('writes a page in both languages, shows refusals in the form, edits it and deletes it after asking', async () => {
      assert.equal((await admin.browser.get('/admin/pages/new/')).status, 200);
      const refused = await admin.browser.post('/admin/pages/', {
        slug: 'Bad Slug',
        position: '0',
        in_footer: '1',
        title_en: 'Donate',
        body_en: 'How to help.',
        title_ru: '',
        body_ru: '',
      });
      assert.equal(refused.status, 422);
      assert.match(fieldError(refused.body, 'page', 'slug') ?? '', /lowercase letters and digits/);
      assert.equal(dom(refused).one('input[name="title_en"]').getAttribute('value'), 'Donate', 'what was typed is kept');
      const untitled = await admin.browser.post('/admin/pages/', {
        slug: 'donate',
        position: '0',
        title_en: '',
        body_en: 'Text without a title.',
        title_ru: '',
        body_ru: '',
      });
      assert.equal(untitled.status, 422);
      assert.match(fieldError(untitled.body, 'page', 'title_en') ?? '', /title/);
      const invisible = await admin.browser.post('/admin/pages/', {
        slug: 'donate',
        position: '0',
        title_en: '\u200b',
        body_en: 'Text.',
        title_ru: '',
        body_ru: '',
      });
      assert.equal(invisible.status, 422, 'a title needs a visible character');
      const nul = await admin.browser.post('/admin/pages/', {
        slug: 'donate',
        position: '0',
        title_en: 'Donate',
        body_en: 'a\u0000b',
        title_ru: '',
        body_ru: '',
      });
      assert.equal(nul.status, 422);

      const made = await admin.browser.post('/admin/pages/', {
        slug: 'donate',
        position: '5',
        in_footer: '1',
        title_en: 'Donate',
        body_en: 'How to [i]help[/i].',
        title_ru: 'Поддержать',
        body_ru: 'Как помочь.',
      });
      assert.equal(made.status, 303);
      const page = (await t.services.sitePages.bySlug('donate'))!;
      assert.equal(page.texts.ru?.title, 'Поддержать');
      const list = dom(await admin.browser.get('/admin/pages/'));
      assert.match(list.text(), /\/pages\/donate\//);

      const editForm = dom(await admin.browser.get(`/admin/pages/${page.id}/`));
      assert.equal(editForm.one('textarea[name="body_en"]').textContent, 'How to [i]help[/i].');
      const edited = await admin.browser.post(`/admin/pages/${page.id}/`, {
        slug: 'donate',
        position: '5',
        title_en: 'Donate',
        body_en: 'How to help.',
        title_ru: '',
        body_ru: '',
      });
      assert.equal(edited.status, 303);
      const saved = (await t.services.sitePages.get(page.id))!;
      assert.equal(saved.inFooter, false, 'the unticked box takes it out of the footer');
      assert.equal(saved.texts.ru, undefined, 'both Russian fields blank: no Russian text');

      const asked = await admin.browser.post(`/admin/pages/${page.id}/delete/`, {});
      assert.equal(asked.status, 200);
      assert.match(dom(asked).text(), /Delete the page \/pages\/donate\/\?/);
      assert.ok(await t.services.sitePages.bySlug('donate'), 'asking deletes nothing');
      assert.equal((await admin.browser.post(`/admin/pages/${page.id}/delete/`, { confirmed: '1' })).status, 303);
      assert.equal(await t.services.sitePages.bySlug('donate'), undefined);
      assert.equal((await member.browser.get('/admin/pages/')).status, 403);
    });
  });
});
