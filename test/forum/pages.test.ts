import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import {
  asAuthUser, canonicalOf, createForum, createRule, createTopic, lastMailTo, loggedIn, mainText, mailsTo, reply, type Member,
} from '../helpers/forum.ts';

describeEachDatabase('forum pages', (db) => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let moderator: Member;
  let forum: ForumRow;

  before(async () => {
    t = await db.start();
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
      assert.ok(page.body.indexOf(`/forum/alpha-forum.${early.id}/`) < page.body.indexOf(`/forum/zeta-forum.${late.id}/`));
      assert.match(page.body, new RegExp(`<a href="/forum/general-talk.${forum.id}/">General Talk</a><p class="muted">Anything &lt;goes&gt;</p>`));
    });
  });

  describe('/forum/{slug}.{id}/', () => {
    it('lists topics, latest activity first, with author, counts and links to the topic pages', async () => {
      const local = await createForum(t, 'Ordering');
      const older = await createTopic(t, alice.user, local, 'Older topic');
      const newer = await createTopic(t, bob.user, local, 'Newer topic');
      await reply(t, bob.user, older, 'Bumps the older topic to the top');
      const page = await guest().get(`/forum/ordering.${local.id}/`);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>Ordering<\/h1>/);
      assert.ok(page.body.indexOf(`/topic/older-topic.${older.id}/`) < page.body.indexOf(`/topic/newer-topic.${newer.id}/`));
      assert.match(mainText(page.body), /Older topic Alice Pages 2 0/);
    });

    it('escapes topic titles and shows them with replacement rules applied', async () => {
      await createRule(t, 'frakforum', 'replace', ['topics'], 'frellforum');
      const local = await createForum(t, 'Escaping');
      await createTopic(t, alice.user, local, '<script>alert(1)</script> frakforum');
      const page = await guest().get(`/forum/escaping.${local.id}/`);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; frellforum/);
      assert.doesNotMatch(page.body, /<script>alert/);
    });

    it('pages through 50 topics a page; page 1 is the bare address and a page past the end is a 404', async () => {
      const local = await createForum(t, 'Busy');
      for (let i = 1; i <= 51; i++) await createTopic(t, alice.user, local, `Topic number ${i}`);
      const first = await guest().get(`/forum/busy.${local.id}/`);
      assert.equal((first.body.match(/<tr>\n<td><a href="\/topic\//g) ?? []).length, 50);
      assert.match(first.body, new RegExp(`<a href="/forum/busy.${local.id}/\\?page=2" rel="next">Next</a>`));
      const second = await guest().get(`/forum/busy.${local.id}/?page=2`);
      assert.equal(canonicalOf(second.body), `http://localhost/forum/busy.${local.id}/?page=2`);
      assert.match(second.body, /Topic number 1</);
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
        assert.match(page.body, /Held topic<\/a> <span class="badge">Waiting for moderation<\/span>/);
      }
    });

    it('offers guests a login link instead of the new-topic form', async () => {
      const page = await guest().get(`/forum/general-talk.${forum.id}/`);
      assert.doesNotMatch(page.body, /name="title"/);
      assert.match(page.body, new RegExp(`<a href="/login/\\?next=%2Fforum%2Fgeneral-talk.${forum.id}%2F">Log in</a> to start a topic`));
    });

    it('starts a topic from the labelled form and goes to it (303)', async () => {
      const path = `/forum/general-talk.${forum.id}/`;
      const page = await alice.browser.get(path);
      assert.match(page.body, /<label for="title">Title<\/label><input id="title" name="title" type="text"/);
      assert.match(page.body, /<label for="body">Message<\/label><textarea id="body" name="body"/);
      const response = await alice.browser.post(path, { title: 'Started on the page', body: 'Hello from the form' });
      assert.equal(response.status, 303);
      const topic = await alice.browser.get(response.location!);
      assert.match(response.location!, /^\/topic\/started-on-the-page\.\d+\/$/);
      assert.match(topic.body, /<h1>Started on the page<\/h1>/);
      assert.match(topic.body, /<p>Hello from the form<\/p>/);
    });

    it('shows the form again with the API’s messages next to the fields (422), and writes nothing', async () => {
      const path = `/forum/general-talk.${forum.id}/`;
      const before = (await t.services.forum.getForum(forum.id)).topics_count;
      await alice.browser.get(path);
      const response = await alice.browser.post(path, { title: '   ', body: 'Kept text' });
      assert.equal(response.status, 422);
      assert.match(response.body, /<input id="title" name="title" type="text" value="   " required maxlength="255" aria-describedby="title-error" aria-invalid="true"><p class="field-error" id="title-error">The title field is required.<\/p>/);
      assert.match(response.body, /<textarea id="body" name="body"[^>]*>Kept text<\/textarea>/);
      assert.equal((await t.services.forum.getForum(forum.id)).topics_count, before);
    });

    it('refuses blocked words in the title with the word-filter message (422)', async () => {
      await createRule(t, 'forbiddentitle', 'block', ['topics']);
      const path = `/forum/general-talk.${forum.id}/`;
      await alice.browser.get(path);
      const response = await alice.browser.post(path, { title: 'A forbiddentitle here', body: 'Text' });
      assert.equal(response.status, 422);
      assert.match(response.body, /<p class="field-error" id="title-error">The title contains words that are not allowed here.<\/p>/);
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
      assert.match(page.body, new RegExp(`<ol class="breadcrumb"><li><a href="/">Forums</a></li><li><a href="/forum/general-talk.${forum.id}/">General Talk</a></li></ol>`));
      assert.match(page.body, /<div class="body"><p>First paragraph with &lt;b&gt;markup&lt;\/b&gt;.<\/p><p>Second paragraph <a href="https:\/\/example.org\/a\?b=1&amp;c=2" rel="nofollow ugc noopener">/);
      const firstAt = page.body.indexOf('id="post-');
      assert.ok(firstAt < page.body.indexOf(`id="post-${second.id}"`));
      assert.match(page.body, new RegExp(`<article class="post" id="post-${second.id}">`));
      assert.match(page.body, new RegExp(`<a class="permalink" href="/topic/reading-posts.${topic.id}/\\?post=${second.id}#post-${second.id}">`));
    });

    it('shows each author’s signature under their posts, with signature replacement rules applied', async () => {
      await createRule(t, 'darnsig', 'replace', ['signatures'], 'dangsig');
      await t.services.users.update(bob.user.id, { signature: 'Cheers, darnsig Bob' });
      await reply(t, bob.user, topic, 'Signed reply');
      const page = await guest().get(path());
      assert.match(page.body, /<footer class="signature"><p>Cheers, dangsig Bob<\/p><\/footer>/);
    });

    it('shows the title with replacement rules applied, escaped', async () => {
      await createRule(t, 'frak', 'replace', ['topics'], 'frell');
      const odd = await createTopic(t, alice.user, forum, '<i>Tags</i> & frak');
      const page = await guest().get(`/topic/i-tags-i-frell.${odd.id}/`);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>&lt;i&gt;Tags&lt;\/i&gt; &amp; frell<\/h1>/);
      assert.match(page.body, /<title>&lt;i&gt;Tags&lt;\/i&gt; &amp; frell · Forum<\/title>/);
    });

    it('pages through 50 posts a page; ?post=<id> and the legacy ?start= open the page holding the post', async () => {
      const long = await createTopic(t, alice.user, forum, 'Long thread', 'Post 1');
      const ids: number[] = [];
      for (let i = 2; i <= 52; i++) ids.push((await reply(t, bob.user, long, `Post ${i}`)).id);
      const base = `/topic/long-thread.${long.id}/`;
      const first = await guest().get(base);
      assert.equal((first.body.match(/<article class="post/g) ?? []).length, 50);
      assert.match(first.body, new RegExp(`href="${base.replace(/\./g, '\\.')}\\?page=2" rel="next"`));

      const holding = await guest().get(`${base}?post=${ids.at(-1)}`);
      assert.equal(holding.status, 200);
      assert.equal(canonicalOf(holding.body), `http://localhost${base}?page=2`);
      assert.match(holding.body, new RegExp(`id="post-${ids.at(-1)}"`));
      assert.equal((holding.body.match(/<article class="post/g) ?? []).length, 2);

      const early = await guest().get(`${base}?post=${ids[0]}`);
      assert.match(early.body, new RegExp(`id="post-${ids[0]}"`));
      assert.equal(canonicalOf(early.body), `http://localhost${base}`);

      const started = await guest().get(`${base}?start=50`);
      assert.match(started.body, new RegExp(`id="post-${ids.at(-1)}"`));
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
        assert.match(page.body, new RegExp(`<article class="post pending" id="post-${held.id}">[\\s\\S]*?Waiting for moderation`));
      }
      for (const viewer of [guest(), alice.browser]) assert.doesNotMatch((await viewer.get(path())).body, /holdreply/);
    });

    it('lets members reply with the form: 303 to the new post', async () => {
      const page = await bob.browser.get(path());
      assert.match(page.body, /<label for="body">Your reply<\/label>/);
      const response = await bob.browser.post(path(), { action: 'reply', body: 'Replying on the page' });
      assert.equal(response.status, 303);
      const match = new RegExp(`^/topic/reading-posts\\.${topic.id}/\\?post=(\\d+)#post-(\\d+)$`).exec(response.location!);
      assert.ok(match, response.location);
      const shown = await bob.browser.get(response.location!);
      assert.match(shown.body, new RegExp(`<article class="post" id="post-${match[1]}">[\\s\\S]*?Replying on the page`));
    });

    it('shows the reply form again on bad input (422) and writes nothing', async () => {
      const before = (await t.services.forum.getTopic(topic.id, null)).posts_count;
      await createRule(t, 'blockedreply', 'block', ['posts']);
      await bob.browser.get(path());
      const blank = await bob.browser.post(path(), { action: 'reply', body: '  ' });
      assert.equal(blank.status, 422);
      assert.match(blank.body, /<p class="field-error" id="body-error">The body field is required.<\/p>/);
      const blocked = await bob.browser.post(path(), { action: 'reply', body: 'A blockedreply word' });
      assert.equal(blocked.status, 422);
      assert.match(blocked.body, /The body contains words that are not allowed here./);
      assert.match(blocked.body, />A blockedreply word<\/textarea>/);
      assert.equal((await t.services.forum.getTopic(topic.id, null)).posts_count, before);
    });

    it('has no reply form for guests, only a login link that comes back here, and sets no cookie', async () => {
      const page = await guest().get(path());
      assert.doesNotMatch(page.body, /name="body"/);
      assert.deepEqual(page.setCookies, []);
      assert.match(page.body, new RegExp(`<a href="/login/\\?next=%2Ftopic%2Freading-posts.${topic.id}%2F">Log in</a> to reply`));
    });

    it('watch and unwatch: the button toggles, the watchlist follows, and replies are mailed to watchers', async () => {
      const watched = await createTopic(t, alice.user, forum, 'Watch me');
      const at = `/topic/watch-me.${watched.id}/`;
      const page = await bob.browser.get(at);
      assert.match(page.body, /<input type="hidden" name="action" value="watch"><button type="submit" class="secondary">Watch this topic<\/button>/);
      const watch = await bob.browser.post(at, { action: 'watch' });
      assert.equal(watch.status, 303);
      assert.equal(watch.location, at);
      assert.match((await bob.browser.get(at)).body, /Stop watching this topic/);
      assert.match((await bob.browser.get('/profile/watchlist/')).body, new RegExp(`href="${at}">Watch me</a>`));

      await reply(t, alice.user, watched, 'News for watchers');
      const mail = await lastMailTo(t, bob.user.email);
      assert.equal(mail.subject, 'New reply in "Watch me"');

      await bob.browser.post(at, { action: 'unwatch' });
      assert.match((await bob.browser.get(at)).body, /Watch this topic/);
      assert.doesNotMatch((await bob.browser.get('/profile/watchlist/')).body, /Watch me/);
    });

    it('lets the author and moderators edit the title; the page moves to the new address', async () => {
      const renamed = await createTopic(t, alice.user, forum, 'Typo in titel');
      const at = `/topic/typo-in-titel.${renamed.id}/`;
      assert.doesNotMatch((await bob.browser.get(at)).body, /Edit the title/);
      const page = await alice.browser.get(at);
      assert.match(page.body, /<label for="rename-title">New title<\/label><input id="rename-title" name="title" type="text" value="Typo in titel"/);
      const response = await alice.browser.post(at, { action: 'rename', title: 'Typo in title' });
      assert.equal(response.status, 303);
      assert.equal(response.location, `/topic/typo-in-title.${renamed.id}/`);
      assert.equal((await guest().get(at)).location, `/topic/typo-in-title.${renamed.id}/`);

      await moderator.browser.get(response.location!);
      const byModerator = await moderator.browser.post(response.location!, { action: 'rename', title: 'Fixed by a moderator' });
      assert.equal(byModerator.location, `/topic/fixed-by-a-moderator.${renamed.id}/`);

      await bob.browser.get(byModerator.location!);
      const refused = await bob.browser.post(byModerator.location!, { action: 'rename', title: 'Hijacked' });
      assert.equal(refused.status, 403);
      assert.equal((await t.services.forum.getTopic(renamed.id, null)).title, 'Fixed by a moderator');
    });

    it('shows a blank new title again with the message (422)', async () => {
      await alice.browser.get(path());
      const response = await alice.browser.post(path(), { action: 'rename', title: '' });
      assert.equal(response.status, 422);
      assert.match(response.body, /<details class="edit-title" open>/);
      assert.match(response.body, /<p class="field-error" id="rename-title-error">The title field is required.<\/p>/);
    });

    it('answers an unknown form action with 400', async () => {
      await bob.browser.get(path());
      assert.equal((await bob.browser.post(path(), { action: 'explode' })).status, 400);
    });

    it('counts views in memory, shows them at once, and writes them in one batch', async () => {
      const counted = await createTopic(t, alice.user, forum, 'Counted');
      const at = `/topic/counted.${counted.id}/`;
      await t.services.topicViews.flush();
      for (let i = 0; i < 3; i++) await guest().get(at);
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 0, 'not written per view');
      assert.match((await guest().get(at)).body, /1 post · 4 views/);
      await t.services.topicViews.flush();
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 4);
      assert.match((await guest().get(at)).body, /1 post · 5 views/);
      await t.app.inject({ method: 'HEAD', url: at });
      await t.services.topicViews.flush();
      assert.equal((await t.services.forum.getTopic(counted.id, null)).views_count, 5, 'HEAD is not a view');
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
    assert.match(page.body, /<span class="muted">Deleted user<\/span>/);
  });
});
