import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/clock.ts';
import {
  asAuthUser,
  canonicalOf,
  createForum,
  createRule,
  createTopic,
  lastMailTo,
  loggedIn,
  mainText,
  mailsTo,
  reply,
  type Member,
} from '../helpers/forum.ts';
import { dom, textOf } from '../helpers/dom.ts';

describeEachDatabase('forum pages', (db) => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let moderator: Member;
  let forum: ForumRow;
  const clock = new TestClock();

  before(async () => {
    t = await db.start({ clock });
    alice = await loggedIn(t, { name: 'Alice Pages' });
    bob = await loggedIn(t, { name: 'Bob Pages' });
    moderator = await loggedIn(t, { name: 'Mo Pages', role: 'moderator' });
    forum = await createForum(t, 'General Talk', 'Anything <goes>');
  });
  after(() => t.close());

  const guest = () => new Browser(t);

  describe('/ (the forums)', () => {
    it('lists every forum in display order with its counts and a link to its page', async () => {
      const late = await t.services.forum.createForum({ name: 'Zeta Forum', display_order: 9 });
      const early = await t.services.forum.createForum({ name: 'Alpha Forum', display_order: 0 });
      const page = await guest().get('/');
      assert.equal(page.status, 200);
      assert.equal(canonicalOf(page.body), 'http://localhost/');
      const forums = dom(page);
      assert.ok(forums.positionOfLink(`/forum/alpha-forum.${early.id}/`) < forums.positionOfLink(`/forum/zeta-forum.${late.id}/`));
      const general = forums.one(`a[href="/forum/general-talk.${forum.id}/"]`);
      assert.equal(textOf(general), 'General Talk');
      assert.equal(general.nextElementSibling?.getAttribute('class'), 'muted');
      assert.equal(general.nextElementSibling?.text, 'Anything <goes>', 'the description, escaped');
    });
  });

  describe('/forum/{slug}.{id}/', () => {
    it('lists topics, latest activity first, with author, counts and links to the topic pages', async () => {
      const local = await createForum(t, 'Ordering');
      const older = await createTopic(t, alice.user, local, 'Older topic');
      clock.advance(1000);
      const newer = await createTopic(t, bob.user, local, 'Newer topic');
      clock.advance(1000);
      await reply(t, bob.user, older, 'Bumps the older topic to the top');
      const page = await guest().get(`/forum/ordering.${local.id}/`);
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Ordering');
      assert.ok(dom(page).positionOfLink(`/topic/older-topic.${older.id}/`) < dom(page).positionOfLink(`/topic/newer-topic.${newer.id}/`));
      assert.match(mainText(page.body), /Older topic Alice Pages 2 0/);
    });

    it('escapes topic titles and shows them with replacement rules applied', async () => {
      await createRule(t, 'frakforum', 'replace', ['topics'], 'frellforum');
      const local = await createForum(t, 'Escaping');
      await createTopic(t, alice.user, local, '<script>alert(1)</script> frakforum');
      const page = await guest().get(`/forum/escaping.${local.id}/`);
      assert.ok(
        dom(page)
          .links()
          .some((link) => link.text === '<script>alert(1)</script> frellforum'),
        'the title as text',
      );
      assert.ok(
        dom(page)
          .all('script')
          .every((script) => !script.text.includes('alert')),
        'not as a script',
      );
    });

    it('pages through 50 topics a page; page 1 is the bare address and a page past the end is a 404', async () => {
      const local = await createForum(t, 'Busy');
      for (let i = 1; i <= 51; i++) await createTopic(t, alice.user, local, `Topic number ${i}`);
      const first = await guest().get(`/forum/busy.${local.id}/`);
      assert.equal(dom(first).count('tr > td:first-child > a[href^="/topic/"]:first-child'), 50);
      assert.equal(dom(first).attr('a[rel="next"]', 'href'), `/forum/busy.${local.id}/?page=2`);
      assert.equal(dom(first).text('a[rel="next"]'), 'Next');
      const second = await guest().get(`/forum/busy.${local.id}/?page=2`);
      assert.equal(canonicalOf(second.body), `http://localhost/forum/busy.${local.id}/?page=2`);
      assert.ok(
        dom(second)
          .links()
          .some((link) => link.text === 'Topic number 1'),
      );
      assert.equal((await guest().get(`/forum/busy.${local.id}/?page=3`)).status, 404);
      assert.equal((await guest().get(`/forum/busy.${local.id}/?page=abc`)).status, 404);
    });

    it('shows a topic waiting for moderation only to its author and the moderators, marked', async () => {
      await createRule(t, 'holdforum', 'moderate', ['posts']);
      const local = await createForum(t, 'Moderated');
      await createTopic(t, alice.user, local, 'Held topic', 'Please holdforum this');
      const path = `/forum/moderated.${local.id}/`;
      assert.doesNotMatch((await guest().get(path)).body, /Held topic/);
      assert.doesNotMatch((await bob.browser.get(path)).body, /Held topic/);
      for (const viewer of [alice, moderator]) {
        const page = await viewer.browser.get(path);
        const held = dom(page)
          .all('a')
          .find((link) => textOf(link) === 'Held topic');
        assert.ok(held, 'listed');
        assert.equal(held.nextElementSibling?.getAttribute('class'), 'badge');
        assert.equal(held.nextElementSibling?.text, 'Waiting for moderation');
      }
    });

    it('offers guests a login link instead of the new-topic form', async () => {
      const page = await guest().get(`/forum/general-talk.${forum.id}/`);
      assert.equal(dom(page).count('[name="title"]'), 0);
      const invitation = dom(page).containing('p', 'Log in to start a topic');
      assert.deepEqual(dom(invitation).links(), [{ href: `/login/?next=%2Fforum%2Fgeneral-talk.${forum.id}%2F`, text: 'Log in' }]);
    });

    it('offers "Start a new topic" at the top of the page, and the forum’s feeds as visible links', async () => {
      const page = await alice.browser.get(`/forum/general-talk.${forum.id}/`);
      const top = dom(page).one('main > .actions');
      assert.equal(dom(top).one('a.button').getAttribute('href'), '#new-topic');
      assert.ok(dom(page).has('section h2#new-topic'));
      assert.deepEqual(
        dom(top)
          .all('.feeds a')
          .map((link) => link.getAttribute('href')),
        [`/forum/general-talk.${forum.id}/feed.atom`, `/forum/general-talk.${forum.id}/feed.rss`],
      );
      assert.deepEqual(
        dom(await guest().get('/'))
          .all('main > .actions .feeds a')
          .map((link) => link.getAttribute('href')),
        ['/feed.atom', '/feed.rss'],
      );
    });

    it('starts a topic from the labelled form and goes to it (303)', async () => {
      const path = `/forum/general-talk.${forum.id}/`;
      const page = await alice.browser.get(path);
      for (const [id, label, tag] of [
        ['title', 'Title', 'INPUT'],
        ['body', 'Message', 'TEXTAREA'],
      ] as const) {
        const labelled = dom(page).one(`label[for="${id}"]`);
        assert.equal(textOf(labelled), label);
        assert.equal(labelled.nextElementSibling?.tagName, tag);
        assert.equal(labelled.nextElementSibling?.id, id);
        assert.equal(labelled.nextElementSibling?.getAttribute('name'), id);
      }
      assert.equal(dom(page).attr('input#title', 'type'), 'text');
      const response = await alice.browser.post(path, { title: 'Started on the page', body: 'Hello from the form' });
      assert.equal(response.status, 303);
      const topic = await alice.browser.get(response.location!);
      assert.match(response.location!, /^\/topic\/started-on-the-page\.\d+\/$/);
      assert.equal(dom(topic).text('h1'), 'Started on the page');
      assert.ok(dom(topic).texts('article.post .body > p').includes('Hello from the form'));
    });

    it('shows the form again with the API’s messages next to the fields (422), and writes nothing', async () => {
      const path = `/forum/general-talk.${forum.id}/`;
      const before = (await t.services.forum.getForum(forum.id)).topics_count;
      await alice.browser.get(path);
      const response = await alice.browser.post(path, { title: '   ', body: 'Kept text' });
      assert.equal(response.status, 422);
      const title = dom(response).one('input#title');
      assert.deepEqual(title.attributes, {
        id: 'title',
        name: 'title',
        type: 'text',
        value: '   ',
        required: '',
        maxlength: '255',
        autocomplete: 'off',
        'aria-describedby': 'title-error',
        'aria-invalid': 'true',
      });
      assert.equal(title.nextElementSibling?.id, 'title-error');
      assert.equal(dom(response).text('p.field-error#title-error'), 'The title field is required.');
      assert.equal(dom(response).one('textarea#body[name="body"]').text, 'Kept text');
      assert.equal((await t.services.forum.getForum(forum.id)).topics_count, before);
    });

    it('refuses blocked words in the title with the word-filter message (422)', async () => {
      await createRule(t, 'forbiddentitle', 'block', ['topics']);
      const path = `/forum/general-talk.${forum.id}/`;
      await alice.browser.get(path);
      const response = await alice.browser.post(path, { title: 'A forbiddentitle here', body: 'Text' });
      assert.equal(response.status, 422);
      assert.equal(dom(response).text('p.field-error#title-error'), 'The title contains words that are not allowed here.');
    });

    it('refuses a form without the CSRF token (403) and sends guests to log in', async () => {
      const path = `/forum/general-talk.${forum.id}/`;
      const forged = await alice.browser.post(path, { _csrf: 'forged-token-value-1234', title: 'Forged', body: 'Forged' });
      assert.equal(forged.status, 403);
      const visitor = guest();
      await visitor.get('/login/'); // a page with a form gives a guest their CSRF token
      const response = await visitor.post(path, { title: 'Guest topic', body: 'Nope' });
      assert.equal(response.status, 303);
      assert.equal(response.location, `/login/?next=${encodeURIComponent(path)}`);
    });
  });

  describe('/topic/{slug}.{id}/', () => {
    let topic: TopicWithAuthor;
    before(async () => {
      topic = await createTopic(t, alice.user, forum, 'Reading posts', 'First paragraph with <b>markup</b>.\n\nSecond paragraph https://example.org/a?b=1&c=2');
    });
    const path = () => `/topic/reading-posts.${topic.id}/`;

    it('shows the posts oldest first, each with id="post-<id>", bodies as the presenter renders them, and a breadcrumb', async () => {
      const second = await reply(t, bob.user, topic, 'A reply from Bob');
      const page = await guest().get(path());
      assert.equal(page.status, 200);
      const topicPage = dom(page);
      const crumbs = topicPage.one('ol.breadcrumb');
      assert.equal(crumbs.querySelectorAll('li').length, 2);
      assert.deepEqual(dom(crumbs).links(), [
        { href: '/', text: 'Forums' },
        { href: `/forum/general-talk.${forum.id}/`, text: 'General Talk' },
      ]);
      const opening = topicPage.one('article.post div.body');
      const paragraphs = opening.querySelectorAll(':scope > p');
      assert.equal(textOf(paragraphs[0]!), 'First paragraph with <b>markup</b>.', 'the markup shown as text');
      assert.equal(paragraphs[0]!.childNodes.length, 1, 'no element inside');
      assert.match(textOf(paragraphs[1]!), /^Second paragraph /);
      const link = paragraphs[1]!.querySelector('a')!;
      assert.deepEqual(link.attributes, { href: 'https://example.org/a?b=1&c=2', rel: 'nofollow ugc noopener' });
      const posts = topicPage.all('article[id^="post-"]');
      assert.ok(posts.findIndex((post) => post.id === `post-${second.id}`) > 0, 'the reply comes after the opening post');
      assert.equal(topicPage.attr(`article#post-${second.id}`, 'class'), 'post');
      assert.ok(topicPage.has(`a.permalink[href="/topic/reading-posts.${topic.id}/?post=${second.id}#post-${second.id}"]`));
    });

    it('shows each author’s signature under their posts, with signature replacement rules applied', async () => {
      await createRule(t, 'darnsig', 'replace', ['signatures'], 'dangsig');
      await t.services.users.update(bob.user.id, { signature: 'Cheers, darnsig Bob' });
      await reply(t, bob.user, topic, 'Signed reply');
      const page = await guest().get(path());
      assert.ok(
        dom(page)
          .all('footer.signature')
          .some((footer) => footer.childNodes.length === 1 && dom(footer).text('p') === 'Cheers, dangsig Bob'),
      );
    });

    it('shows the title with replacement rules applied, escaped', async () => {
      await createRule(t, 'frak', 'replace', ['topics'], 'frell');
      const odd = await createTopic(t, alice.user, forum, '<i>Tags</i> & frak');
      const page = await guest().get(`/topic/i-tags-i-frell.${odd.id}/`);
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), '<i>Tags</i> & frell');
      assert.equal(dom(page).count('h1 *'), 0, 'the title as text');
      assert.equal(dom(page).text('title'), '<i>Tags</i> & frell · Forum');
    });

    it('pages through 50 posts a page; ?post=<id> and the legacy ?start= open the page holding the post', async () => {
      const long = await createTopic(t, alice.user, forum, 'Long thread', 'Post 1');
      const ids: number[] = [];
      for (let i = 2; i <= 52; i++) ids.push((await reply(t, bob.user, long, `Post ${i}`)).id);
      const base = `/topic/long-thread.${long.id}/`;
      const first = await guest().get(base);
      assert.equal(dom(first).count('article.post'), 50);
      assert.equal(dom(first).attr('a[rel="next"]', 'href'), `${base}?page=2`);

      const holding = await guest().get(`${base}?post=${ids.at(-1)}`);
      assert.equal(holding.status, 200);
      assert.equal(canonicalOf(holding.body), `http://localhost${base}?page=2`);
      assert.ok(dom(holding).has(`article#post-${ids.at(-1)}`));
      assert.equal(dom(holding).count('article.post'), 2);

      const early = await guest().get(`${base}?post=${ids[0]}`);
      assert.ok(dom(early).has(`article#post-${ids[0]}`));
      assert.equal(canonicalOf(early.body), `http://localhost${base}`);

      const started = await guest().get(`${base}?start=50`);
      assert.ok(dom(started).has(`article#post-${ids.at(-1)}`));
      assert.equal((await guest().get(`${base}?page=3`)).status, 404);
      // A post that is gone still opens the topic.
      assert.equal((await guest().get(`${base}?post=99999999`)).status, 200);
    });

    it('shows posts waiting for moderation to their author and the moderators, marked, and to nobody else', async () => {
      await createRule(t, 'holdreply', 'moderate', ['posts']);
      const held = await reply(t, bob.user, topic, 'Please holdreply me');
      assert.equal(held.status, 'pending');
      for (const viewer of [bob.browser, moderator.browser]) {
        const page = await viewer.get(path());
        const post = dom(page).one(`article#post-${held.id}`);
        assert.equal(post.getAttribute('class'), 'post pending');
        assert.match(dom(post).text('p.badge'), /^Waiting for moderation/);
      }
      for (const viewer of [guest(), alice.browser]) assert.doesNotMatch((await viewer.get(path())).body, /holdreply/);
    });

    it('lets members reply with the form: 303 to the new post', async () => {
      const page = await bob.browser.get(path());
      assert.equal(dom(page).text('label[for="body"]'), 'Your reply');
      const response = await bob.browser.post(`${path()}reply/`, { body: 'Replying on the page' });
      assert.equal(response.status, 303);
      const match = new RegExp(`^/topic/reading-posts\\.${topic.id}/\\?post=(\\d+)#post-(\\d+)$`).exec(response.location!);
      assert.ok(match, response.location);
      const shown = await bob.browser.get(response.location!);
      const post = dom(shown).one(`article#post-${match[1]}`);
      assert.equal(post.getAttribute('class'), 'post');
      assert.equal(dom(post).text('.body'), 'Replying on the page');
    });

    it('shows the reply form again on bad input (422) and writes nothing', async () => {
      const before = (await t.services.forum.getTopic(topic.id, null)).posts_count;
      await createRule(t, 'blockedreply', 'block', ['posts']);
      await bob.browser.get(path());
      const blank = await bob.browser.post(`${path()}reply/`, { body: '  ' });
      assert.equal(blank.status, 422);
      assert.equal(dom(blank).text('p.field-error#body-error'), 'The body field is required.');
      const blocked = await bob.browser.post(`${path()}reply/`, { body: 'A blockedreply word' });
      assert.equal(blocked.status, 422);
      assert.match(dom(blocked).textContent, /The body contains words that are not allowed here./);
      assert.equal(dom(blocked).one('textarea[name="body"]').text, 'A blockedreply word');
      assert.equal((await t.services.forum.getTopic(topic.id, null)).posts_count, before);
    });

    it('has no reply form for guests, only a login link that comes back here, and sets no cookie', async () => {
      const page = await guest().get(path());
      assert.equal(dom(page).count('[name="body"]'), 0);
      assert.deepEqual(page.setCookies, []);
      assert.deepEqual(dom(dom(page).containing('p', 'Log in to reply')).links(), [
        { href: `/login/?next=%2Ftopic%2Freading-posts.${topic.id}%2F`, text: 'Log in' },
      ]);
    });

    it('watch and unwatch: the button toggles, the watchlist follows, and replies are mailed to watchers', async () => {
      const watched = await createTopic(t, alice.user, forum, 'Watch me');
      const at = `/topic/watch-me.${watched.id}/`;
      const page = await bob.browser.get(at);
      const watchForm = dom(page).one(`form[method="post"][action="${at}watch/"]`);
      assert.equal(dom(watchForm).text('button[type="submit"].secondary'), 'Watch this topic');
      assert.deepEqual(Object.keys(dom(page).fields(`form[action="${at}watch/"]`)), ['_csrf']);
      const watch = await bob.browser.post(`${at}watch/`, {});
      assert.equal(watch.status, 303);
      assert.equal(watch.location, at);
      assert.match(dom(await bob.browser.get(at)).textContent, /Stop watching this topic/);
      assert.equal(dom(await bob.browser.get('/profile/watchlist/')).linkText(at), 'Watch me');

      await reply(t, alice.user, watched, 'News for watchers');
      const mail = await lastMailTo(t, bob.user.email);
      assert.equal(mail.subject, 'New reply in "Watch me"');

      assert.ok(dom(await bob.browser.get(at)).has(`form[method="post"][action="${at}unwatch/"]`));
      assert.equal((await bob.browser.post(`${at}unwatch/`, {})).status, 303);
      assert.match(dom(await bob.browser.get(at)).textContent, /Watch this topic/);
      assert.doesNotMatch((await bob.browser.get('/profile/watchlist/')).body, /Watch me/);
    });

    it('lets the author and moderators edit the title; the page moves to the new address', async () => {
      const renamed = await createTopic(t, alice.user, forum, 'Typo in titel');
      const at = `/topic/typo-in-titel.${renamed.id}/`;
      assert.doesNotMatch((await bob.browser.get(at)).body, /Edit the title/);
      const page = await alice.browser.get(at);
      const renameLabel = dom(page).one('label[for="rename-title"]');
      assert.equal(textOf(renameLabel), 'New title');
      assert.equal(renameLabel.nextElementSibling?.id, 'rename-title');
      assert.equal(dom(page).attr('input#rename-title[name="title"][type="text"]', 'value'), 'Typo in titel');
      const response = await alice.browser.post(`${at}rename/`, { title: 'Typo in title' });
      assert.equal(response.status, 303);
      assert.equal(response.location, `/topic/typo-in-title.${renamed.id}/`);
      assert.equal((await guest().get(at)).location, `/topic/typo-in-title.${renamed.id}/`);

      await moderator.browser.get(response.location!);
      const byModerator = await moderator.browser.post(`${response.location!}rename/`, { title: 'Fixed by a moderator' });
      assert.equal(byModerator.location, `/topic/fixed-by-a-moderator.${renamed.id}/`);

      await bob.browser.get(byModerator.location!);
      const refused = await bob.browser.post(`${byModerator.location!}rename/`, { title: 'Hijacked' });
      assert.equal(refused.status, 403);
      assert.equal((await t.services.forum.getTopic(renamed.id, null)).title, 'Fixed by a moderator');
    });

    it('shows a blank new title again with the message (422)', async () => {
      await alice.browser.get(path());
      const response = await alice.browser.post(`${path()}rename/`, { title: '' });
      assert.equal(response.status, 422);
      assert.ok(dom(response).one('details.edit-title').hasAttribute('open'));
      assert.equal(dom(response).text('p.field-error#rename-title-error'), 'The title field is required.');
    });

    it('answers a post to the page itself that is no former text form with the 400 page', async () => {
      await bob.browser.get(path());
      for (const action of ['explode', 'watch', 'unwatch']) {
        const response = await bob.browser.post(path(), { action });
        assert.equal(response.status, 400, action);
        assert.match(dom(response).textContent, /came from an older version of the page/);
      }
      assert.equal(await t.services.forum.isWatching({ id: bob.user.id, name: bob.user.username, email: bob.user.email, role: 'user' }, topic.id), false);
    });

    it('counts each reader’s views in memory, once per reader however often they reload, shows them at once, and writes them in one batch', async () => {
      const counted = await createTopic(t, alice.user, forum, 'Counted');
      const at = `/topic/counted.${counted.id}/`;
      await t.services.topicViews.flush();
      await alice.browser.get(at);
      await bob.browser.get(at);
      for (let i = 0; i < 3; i++) await guest().get(at);
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 0, 'not written per view');
      assert.match(dom(await guest().get(at)).textContent, /1 post · 3 views/, 'two members and one guest (all guests here come from one address)');
      await t.services.topicViews.flush();
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 3);
      assert.match(dom(await bob.browser.get(at)).textContent, /1 post · 3 views/, 'a reload is no new view');
      await t.app.inject({ method: 'HEAD', url: at });
      await t.services.topicViews.flush();
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 3, 'HEAD is not a view');
    });
  });

  it('mails nobody about a reply by the watcher themself', async () => {
    const topic = await createTopic(t, alice.user, forum, 'Self watch');
    await t.services.forum.watch(asAuthUser(alice.user), topic.id);
    const before = (await mailsTo(t, alice.user.email)).length;
    await reply(t, alice.user, topic, 'My own reply');
    assert.equal((await mailsTo(t, alice.user.email)).length, before);
  });

  it('keeps pages of deleted users’ posts readable', async () => {
    const leaver = await createUser(t, { name: 'Leaving Lou' });
    const topic = await createTopic(t, leaver, forum, 'Orphaned');
    await t.services.users.delete(leaver.id);
    const page = await guest().get(`/topic/orphaned.${topic.id}/`);
    assert.equal(page.status, 200);
    assert.ok(dom(page).texts('span.muted').includes('Deleted user'));
  });
});
