import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PageCache } from '../../src/forum/page-cache.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { html } from '../../src/web/html.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { makeEmoji, uniqueCode } from '../helpers/emoji.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

/** A page without what changes on every view by design (the topic's own view count) and the per-request CSRF token. */
function stable(body: string): string {
  return body
    .replace(/\d+ views?</g, 'N views<')
    .replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf" value=""')
    .replace(/<meta name="csrf-token" content="[^"]*"/g, '<meta name="csrf-token" content=""');
}

describeEachDatabase('forum page cache', (db) => {
  let t: TestApp;
  let alice: Member;
  let moderator: Member;
  let forum: ForumRow;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'Alice Cache' });
    moderator = await loggedIn(t, { name: 'Mo Cache', role: 'moderator' });
    forum = await createForum(t, 'Cached Talk');
  });
  after(() => t.close());

  const guest = () => new Browser(t);
  const topicUrl = (topic: { id: number }) => `/topic/-.${topic.id}/`;
  const forumUrl = (row: { id: number }) => `/forum/-.${row.id}/`;
  /** Follows the redirect to the canonical address. */
  async function view(browser: Browser, url: string) {
    let page = await browser.get(url);
    if (page.status === 301) page = await browser.get(page.location!);
    assert.equal(page.status, 200);
    return page.body;
  }
  /**
   * A guest view that the cache answered: it held the page's fragment before.
   * A write may empty the cache between two views (the view counts' flush,
   * every 10 s; on PostgreSQL an earlier write, heard when its connection
   * goes back to the pool), so this views until a view's fragment is kept.
   */
  async function cachedGuestView(url: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      await view(guest(), url);
      if (t.services.pageCache.size > 0) return view(guest(), url);
    }
    return assert.fail('no view kept the page in the cache');
  }

  describe('serving from the cache', () => {
    it('serves topic and forum pages byte for byte as rendered without the cache, to guests and members', async () => {
      const topic = await createTopic(t, alice.user, forum, 'Identical pages', 'First :) body https://example.org/x');
      for (let i = 0; i < 3; i++) await reply(t, alice.user, topic, `Reply ${i} with <b>markup</b>`);
      for (const browser of [guest(), alice.browser, moderator.browser]) {
        for (const url of [topicUrl(topic), forumUrl(forum)]) {
          t.services.pageCache.clear();
          const fresh = await view(browser, url);
          const sizeAfterFill = t.services.pageCache.size;
          assert.ok(sizeAfterFill > 0);
          const cached = await view(browser, url);
          assert.equal(t.services.pageCache.size, sizeAfterFill, 'the second view found the fragment');
          assert.equal(stable(cached), stable(fresh));
        }
      }
    });

    it('shows a topic view on the forum page at once, though its table is cached', async () => {
      const local = await createForum(t, 'Views');
      const topic = await createTopic(t, alice.user, local, 'Viewed topic');
      const before = await cachedGuestView(forumUrl(local));
      assert.match(before, /data-label="Views">0<\/td>/);
      await view(guest(), topicUrl(topic));
      await view(alice.browser, topicUrl(topic));
      assert.match(await view(guest(), forumUrl(local)), /data-label="Views">2<\/td>/);
      // Written in a batch: the count stays right across the write.
      await t.services.topicViews.flush();
      assert.match(await view(guest(), forumUrl(local)), /data-label="Views">2<\/td>/);
    });
  });

  describe('private bits', () => {
    it('never shows a member’s pending post to guests or other members, nor a guest’s list to its author', async () => {
      await createRule(t, 'holdmecache', 'moderate', ['posts']);
      const topic = await createTopic(t, alice.user, forum, 'Pending inside');
      const bob = await loggedIn(t, { name: 'Bob Cache' });
      // The guest fills first, then the author, then the moderator, then the guest and Bob again.
      await cachedGuestView(topicUrl(topic));
      await alice.browser.post(`${topicUrl(topic).replace('-', 'pending-inside')}reply/`, { body: 'please holdmecache this' });
      const author = await view(alice.browser, topicUrl(topic));
      assert.match(author, /please holdmecache this/);
      assert.match(author, /name="_csrf"/);
      assert.match(await view(moderator.browser, topicUrl(topic)), /please holdmecache this/);
      for (const page of [await cachedGuestView(topicUrl(topic)), await view(bob.browser, topicUrl(topic)), await view(bob.browser, topicUrl(topic))]) {
        assert.doesNotMatch(page, /holdmecache/);
      }
      const guestPage = await view(guest(), topicUrl(topic));
      assert.doesNotMatch(guestPage, /_csrf|Alice Cache<\/a> is|Bob Cache|Watch this topic/);
      const bobPage = await view(bob.browser, topicUrl(topic));
      assert.match(bobPage, /Watch this topic/);
      assert.doesNotMatch(bobPage, /Log in<\/a> to reply/);
    });

    it('shows "Delete" under a moderator’s own replies to that moderator only, whoever of the staff filled the cache', async () => {
      const topic = await createTopic(t, alice.user, forum, 'Staff replies');
      const own = await reply(t, moderator.user, topic, 'The moderator’s own reply');
      const other = await loggedIn(t, { name: 'Other Mo', role: 'moderator' });
      const deleteOwn = new RegExp(`form="delete-post" name="post_id" value="${own.id}"`);
      assert.match(await view(moderator.browser, topicUrl(topic)), deleteOwn);
      assert.doesNotMatch(await view(other.browser, topicUrl(topic)), deleteOwn);
      assert.doesNotMatch(await view(other.browser, topicUrl(topic)), deleteOwn);
      assert.match(await view(moderator.browser, topicUrl(topic)), deleteOwn);
    });

    it('names a forum’s moderators as they are now, though the page was cached before', async () => {
      const local = await createForum(t, 'Moderated later');
      await createTopic(t, alice.user, local, 'A topic to list');
      assert.doesNotMatch(await cachedGuestView(forumUrl(local)), /Mo Cache/);
      await t.services.forum.moderators.replace(local.id, [moderator.user.id]);
      assert.match(await cachedGuestView(forumUrl(local)), /Moderators:.*Mo Cache/s);
      await t.services.forum.moderators.replace(local.id, []);
      assert.doesNotMatch(await cachedGuestView(forumUrl(local)), /Mo Cache/);
    });

    it('keeps a member’s pending topic off the cached forum page of guests', async () => {
      await createRule(t, 'holdtopiccache', 'moderate', ['topics']);
      const local = await createForum(t, 'Pending topics');
      await createTopic(t, alice.user, local, 'Visible one');
      await cachedGuestView(forumUrl(local));
      await createTopic(t, alice.user, local, 'Secret holdtopiccache');
      assert.match(await view(alice.browser, forumUrl(local)), /Secret holdtopiccache/);
      assert.doesNotMatch(await cachedGuestView(forumUrl(local)), /holdtopiccache/);
      assert.match(await view(alice.browser, forumUrl(local)), /Secret holdtopiccache/);
    });
  });

  describe('emptied by every change that shows', () => {
    let topic: TopicWithAuthor;
    before(async () => {
      topic = await createTopic(t, alice.user, forum, 'Changing topic', 'The opening post of the changing topic.');
    });

    const changes: Array<[string, () => Promise<unknown>, RegExp, 'topic' | 'forum']> = [
      ['a new reply', async () => reply(t, moderator.user, topic, 'A brand new reply'), /A brand new reply/, 'topic'],
      [
        'an edited post',
        async () => {
          const posted = await reply(t, alice.user, topic, 'Before the edit');
          await view(guest(), topicUrl(topic));
          await t.services.forum.editPost(posted.id, asAuthUser(alice.user), 'After the edit');
        },
        /After the edit/,
        'topic',
      ],
      [
        'a renamed topic',
        async () => t.services.forum.renameTopic(topic.id, asAuthUser(moderator.user), 'Renamed changing topic'),
        /Renamed changing topic/,
        'forum',
      ],
      ['a renamed forum', async () => t.services.forum.updateForum(forum.id, { name: 'Cached Talk renamed' }), /Topics in Cached Talk renamed/, 'forum'],
      ['a renamed author', async () => t.services.users.update(alice.user.id, { username: 'Alice Renamed' }), /Alice Renamed/, 'topic'],
      ['a new signature', async () => t.services.users.update(alice.user.id, { signature: 'My fresh signature' }), /My fresh signature/, 'topic'],
      ['a new replace rule', async () => createRule(t, 'changing', 'replace', ['posts'], 'shifting'), /opening post of the shifting topic/, 'topic'],
      [
        'a new emoji',
        async () => {
          await reply(t, alice.user, topic, `Smile :${emojiCode}: here`);
          await view(guest(), topicUrl(topic));
          await makeEmoji(t, { emoji_shortcode: emojiCode, emoji_text: '🦩' });
        },
        /🦩/,
        'topic',
      ],
      ['a new topic', async () => createTopic(t, moderator.user, forum, 'Another fresh topic'), /Another fresh topic/, 'forum'],
    ];
    const emojiCode = uniqueCode('flamingo');

    for (const [what, change, shows, where] of changes) {
      it(`shows ${what} on the next view`, async () => {
        const url = where === 'topic' ? topicUrl(topic) : forumUrl(forum);
        assert.doesNotMatch(await cachedGuestView(url), shows);
        await change();
        assert.match(await view(guest(), url), shows);
      });
    }

    it('drops a deleted post, an approved post shows, a deleted user’s posts show as such', async () => {
      const doomed = await reply(t, moderator.user, topic, 'Doomed reply text');
      assert.match(await cachedGuestView(topicUrl(topic)), /Doomed reply text/);
      await t.services.forum.deletePost(doomed.id, asAuthUser(moderator.user));
      assert.doesNotMatch(await view(guest(), topicUrl(topic)), /Doomed reply text/);

      await createRule(t, 'waitcache', 'moderate', ['posts']);
      const held = await reply(t, moderator.user, topic, 'waitcache then approved');
      assert.equal(held.status, 'pending');
      assert.doesNotMatch(await cachedGuestView(topicUrl(topic)), /waitcache then approved/);
      await t.services.forum.approvePost(held.id, asAuthUser(moderator.user));
      assert.match(await view(guest(), topicUrl(topic)), /waitcache then approved/);

      const leaving = await loggedIn(t, { name: 'Leaving Member' });
      await reply(t, leaving.user, topic, 'Written by one who leaves');
      assert.match(await cachedGuestView(topicUrl(topic)), /Leaving Member/);
      await t.services.users.delete(leaving.user.id);
      const after = await view(guest(), topicUrl(topic));
      assert.doesNotMatch(after, /Leaving Member/);
      assert.match(after, /Written by one who leaves/);
    });
  });
});

describe('PageCache', () => {
  it('keeps at most its character budget, the least recently used going first', async () => {
    const cache = new PageCache(300);
    const fill = (text: string) => async () => ({ html: html`${text}`, total: 1, data: null });
    await cache.get('a', fill('a'.repeat(100)));
    await cache.get('b', fill('b'.repeat(100)));
    await cache.get('a', fill('never'));
    await cache.get('c', fill('c'.repeat(100)));
    assert.ok(cache.chars <= 300);
    assert.equal((await cache.get('a', fill('refilled'))).parts[0], 'a'.repeat(100));
    assert.equal((await cache.get('b', fill('refilled'))).parts[0], 'refilled');
    await cache.get('huge', fill('h'.repeat(1000)));
    assert.ok(cache.chars <= 300);
    assert.equal((await cache.get('huge', fill('again'))).parts[0], 'again');
  });

  it('does not keep a fill that began before it was emptied', async () => {
    const cache = new PageCache();
    let release!: () => void;
    let began!: () => void;
    const started = new Promise<void>((resolve) => (began = resolve));
    const slow = cache.get('k', async () => {
      began();
      await new Promise<void>((resolve) => (release = resolve));
      return { html: html`stale`, total: 1, data: null };
    });
    await started;
    cache.clear();
    release();
    assert.equal((await slow).parts[0], 'stale');
    assert.equal(cache.size, 0);
  });

  it('starts fills in turns, one pass of the event loop apart, so other work runs between them', async () => {
    const cache = new PageCache();
    const order: string[] = [];
    const fills = ['a', 'b', 'c'].map((key) =>
      cache.get(key, async () => {
        order.push(`fill ${key}`);
        return { html: html`${key}`, total: 1, data: null };
      }),
    );
    // Work that arrives meanwhile (an immediate queued after each start, as a request read in between would be).
    const between = (async () => {
      for (let pass = 0; pass < 6; pass++) {
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`pass ${pass}`);
      }
    })();
    await Promise.all([...fills, between]);
    const [a, b, c] = ['fill a', 'fill b', 'fill c'].map((step) => order.indexOf(step)) as [number, number, number];
    assert.ok(a < b && b < c, order.join(', '));
    for (const [from, to] of [
      [a, b],
      [b, c],
    ] as const) {
      assert.ok(
        order.slice(from, to).some((step) => step.startsWith('pass')),
        `other work ran between two fills: ${order.join(', ')}`,
      );
    }
  });

  it('fills the holes of a fragment on every use', async () => {
    const cache = new PageCache();
    const fragment = await cache.get('h', async () => ({ html: html`<td>${PageCache.hole(0)}</td><td>${PageCache.hole(1)}</td>`, total: 2, data: [5, 7] }));
    const { filled } = await import('../../src/forum/page-cache.ts');
    assert.equal(filled(fragment, (i) => fragment.data[i]! + 1).value, '<td>6</td><td>8</td>');
  });
});
