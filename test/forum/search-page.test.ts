// The /search/ page: a GET form that works without JavaScript, results with
// their topic, forum, author and marked snippet, errors shown in the form,
// paging, and the search link in every page's header.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { SEARCH_RESULTS_PER_PAGE } from '../../src/forum/pages/search-page.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

describeEachDatabase('search page', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let alice: Member;
  let guest: Browser;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'alice' });
    guest = new Browser(t);
    forum = await createForum(t, 'Releases <new>');
    const topic = await createTopic(t, alice.user, forum, 'Ubuntu 26.04 ISO', 'The [b]ubuntu[/b] desktop image, checked & seeded.');
    await reply(t, alice.user, topic, 'Mirror of the ubuntu server image.');
  });
  after(() => t.close());

  it('is linked from every page header and shows an empty form first', async () => {
    const home = dom(await guest.get('/'));
    assert.ok(home.links('header nav').some((link) => link.href === '/search/'));
    const page = await guest.get('/search/');
    assert.equal(page.status, 200);
    const form = dom(page).one('form[role=search]');
    assert.equal(form.getAttribute('method'), 'get');
    assert.equal(dom(page).has('.search-results'), false);
    assert.equal(dom(page).find('meta[name=robots]'), null);
  });

  it('lists results with topic link, forum, author and a snippet with the words marked', async () => {
    const page = await guest.get('/search/?search=ubuntu+image');
    assert.equal(page.status, 200);
    const view = dom(page);
    const items = view.all('.search-results > li');
    assert.equal(items.length, 2);
    const first = dom(items[0]!);
    assert.match(first.attr('h2 a', 'href') ?? '', /^\/topic\/ubuntu-26-04-iso\.\d+\/\?post=\d+#post-\d+$/);
    assert.equal(first.text('h2'), 'Ubuntu 26.04 ISO');
    assert.equal(first.linkText(`/forum/releases-new.${forum.id}/`), 'Releases <new>');
    assert.equal(first.text('.meta a[href^="/profile/"]'), 'alice');
    assert.deepEqual(first.texts('.snippet mark'), ['ubuntu', 'image']);
    assert.equal(first.text('.snippet'), 'The ubuntu desktop image, checked & seeded.');
    assert.match(view.text('[role=status]'), /^2 posts found$/);
    assert.equal(view.fields('form[role=search]')['search'], 'ubuntu image', 'the form keeps the words');
    assert.equal(view.attr('meta[name=robots]', 'content'), 'noindex');
  });

  it('says so when nothing is found', async () => {
    const page = await guest.get('/search/?search=nonexistentword');
    assert.equal(page.status, 200);
    assert.match(dom(page).text(), /Nothing was found/);
  });

  it('shows refused fields in the form with status 422, never a 500', async () => {
    for (const url of [
      '/search/?search=%21%21%21',
      '/search/?search=x&author=nobody',
      '/search/?search=x&from=2026-13-01',
      '/search/?search=x&forum_id=abc',
      '/search/?search=x&sort=%00',
    ]) {
      const page = await guest.get(url);
      assert.equal(page.status, 422, url);
      assert.ok(dom(page).has('[role=alert], .notice'), url);
    }
    assert.equal((await guest.get('/search/?search=x&page=0')).status, 404);
    assert.equal((await guest.get('/search/?search=ubuntu&page=5')).status, 404);
  });

  it('pages through many results, keeping the query in the page links', async () => {
    const topic = await createTopic(t, alice.user, forum, 'Many', 'pageword');
    for (let n = 0; n < SEARCH_RESULTS_PER_PAGE; n++) await reply(t, alice.user, topic, `pageword ${n}`);
    const second = await guest.get('/search/?search=pageword&sort=date&page=2');
    assert.equal(second.status, 200);
    const view = dom(second);
    assert.equal(view.all('.search-results > li').length, 1);
    assert.equal(view.attr('.search-results', 'start'), String(SEARCH_RESULTS_PER_PAGE + 1));
    assert.ok(view.hrefs().includes('/search/?search=pageword&sort=date'), 'a link back to the first page keeps the query');
  });

  it('shows a member their own post awaiting approval, marked so, and guests nothing of it', async () => {
    await createRule(t, 'holdthisword', 'moderate', ['posts']);
    const topic = await createTopic(t, alice.user, forum, 'Open topic', 'visible');
    await reply(t, alice.user, topic, 'pendingword holdthisword');
    assert.equal(dom(await guest.get('/search/?search=pendingword')).has('.search-results'), false);
    const own = dom(await alice.browser.get('/search/?search=pendingword'));
    assert.equal(own.all('.search-results > li').length, 1);
    assert.equal(own.text('.search-results .badge'), 'awaiting approval');
  });
});
