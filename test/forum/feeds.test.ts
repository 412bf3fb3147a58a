// The Atom and RSS feeds (docs/feeds.md), read the way a feed reader reads
// them: the XML must be well formed, a feed parser must find what RFC 4287
// and RSS 2.0 require, and nothing a guest cannot see may be in them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { parseAtomFeed, parseRssFeed } from 'feedsmith';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

const BASE = 'https://forum.example/board';
/** RFC 3339 as Atom wants it (we print UTC, to the second). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** RFC 822 as RSS 2.0 wants it (four-digit year, GMT). */
const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

interface Fetched {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

function wellFormed(body: string): void {
  assert.equal(XMLValidator.validate(body), true, 'well-formed XML');
  // Characters XML 1.0 cannot carry, even escaped.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  assert.doesNotMatch(body, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
}

function atom(response: Fetched) {
  assert.equal(response.status, 200);
  assert.equal(response.headers['content-type'], 'application/atom+xml; charset=utf-8');
  wellFormed(response.body);
  const feed = parseAtomFeed(response.body);
  // RFC 4287 4.1.1: id, title, updated; an author for every entry (the feed's, here).
  assert.ok(feed.id);
  assert.ok(feed.title?.value);
  assert.match(feed.updated ?? '', RFC3339);
  assert.ok(feed.authors?.[0]?.name);
  for (const entry of feed.entries ?? []) {
    assert.ok(entry.id);
    assert.ok(entry.title?.value);
    assert.match(entry.updated ?? '', RFC3339);
    assert.match(entry.published ?? '', RFC3339);
    assert.equal(entry.content?.type, 'html');
    assert.ok(entry.links?.some((link) => link.rel === 'alternate' && link.href?.startsWith(`${BASE}/`)));
  }
  return feed;
}

function rss(response: Fetched) {
  assert.equal(response.status, 200);
  assert.equal(response.headers['content-type'], 'application/rss+xml; charset=utf-8');
  wellFormed(response.body);
  const feed = parseRssFeed(response.body);
  // RSS 2.0: a channel's title, link and description are required.
  assert.ok(feed.title);
  assert.ok(feed.link?.startsWith(`${BASE}/`));
  assert.ok(feed.description);
  assert.match(feed.lastBuildDate ?? '', RFC822);
  for (const item of feed.items ?? []) {
    assert.ok(item.title);
    assert.ok(item.link?.startsWith(`${BASE}/`));
    assert.equal(item.guid?.isPermaLink, true);
    assert.match(item.pubDate ?? '', RFC822);
  }
  return feed;
}

function selfLink(feed: { links?: Array<{ rel?: string; href?: string }> | undefined }): string | undefined {
  return feed.links?.find((link) => link.rel === 'self')?.href;
}

describeEachDatabase('feeds', (db) => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let forum: ForumRow;
  let other: ForumRow;
  let hello: TopicWithAuthor;
  let held: TopicWithAuthor;
  const clock = new TestClock('2026-03-01T10:00:00.000Z');

  const get = async (url: string, headers: Record<string, string> = {}): Promise<Fetched> => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.body, headers: response.headers };
  };

  before(async () => {
    t = await db.start({ clock, env: { BASE_URL: BASE } });
    alice = await loggedIn(t, { name: 'Alice Feeds' });
    bob = await loggedIn(t, { name: 'Bob Feeds' });
    forum = await createForum(t, 'General Talk', 'Anything & everything');
    other = await createForum(t, 'Elsewhere');
    await createRule(t, 'feedheld', 'moderate', ['posts', 'topics']);
    await createRule(t, 'darnfeed', 'replace', ['posts', 'topics'], 'd*rn');
    hello = await createTopic(
      t,
      alice.user,
      forum,
      'Hello <world> & darnfeed',
      'Opening [b]bold[/b] \u0001 ]]> </content> [url=/rules/]rules[/url] [quote="Alice Feeds" post=1]q[/quote]',
    );
    clock.advance(60_000);
    await reply(t, bob.user, hello, 'A reply from Bob, darnfeed.');
    clock.advance(60_000);
    await reply(t, bob.user, hello, 'A secret feedheld reply.');
    clock.advance(60_000);
    held = await createTopic(t, alice.user, forum, 'Pending feedheld topic', 'Waiting.');
    clock.advance(60_000);
    await createTopic(t, bob.user, other, 'Over there', 'In the other forum.');
  });
  after(() => t.close());

  describe('GET /feed.atom and /feed.rss (the site)', () => {
    it('lists the newest published topics of every forum, newest first, as valid Atom', async () => {
      const response = await get('/feed.atom');
      const feed = atom(response);
      assert.equal(feed.id, `${BASE}/feed.atom`);
      assert.equal(selfLink(feed), `${BASE}/feed.atom`);
      assert.deepEqual(
        feed.entries?.map((entry) => entry.title?.value),
        ['Over there', 'Hello <world> & d*rn'],
      );
      const entry = feed.entries![1]!;
      assert.equal(entry.id, `${BASE}/topic/.${hello.id}/`, 'a slug-less id: a rename keeps it');
      assert.equal(entry.links?.[0]?.href, `${BASE}/topic/hello-world-d-rn.${hello.id}/`);
      assert.deepEqual(entry.authors, [{ name: 'Alice Feeds', uri: `${BASE}/profile/alice-feeds.${alice.user.id}/` }]);
      assert.equal(entry.published, '2026-03-01T10:00:00Z');
      assert.equal(feed.updated, '2026-03-01T10:04:00Z', 'the newest entry');
    });

    it('carries the opening post as displayed, its links absolute, characters XML cannot hold dropped', async () => {
      const entry = atom(await get('/feed.atom')).entries!.find((item) => item.id === `${BASE}/topic/.${hello.id}/`)!;
      const content = dom(entry.content!.value!);
      assert.equal(content.one('strong').text, 'bold');
      assert.equal(content.one('a[rel~="ugc"]').getAttribute('href'), `${BASE}/rules/`);
      assert.equal(content.one('cite a').getAttribute('href'), `${BASE}/topic/hello-world-d-rn.${hello.id}/?post=1#post-1`);
      assert.ok(content.textContent.includes(']]> </content>'), 'markup-like text survives as text');
      assert.ok(!content.textContent.includes('\u0001'));
    });

    it('never shows a pending topic, a pending post or the raw text of a replaced word', async () => {
      for (const url of ['/feed.atom', '/feed.rss', `/forum/general-talk.${forum.id}/feed.atom`, `/topic/hello-world-d-rn.${hello.id}/feed.rss`]) {
        const { body } = await get(url);
        assert.ok(!body.includes('feedheld'), `${url}: nothing held for moderation`);
        assert.ok(!body.includes('darnfeed'), `${url}: replacement rules applied`);
      }
    });

    it('is valid RSS 2.0 with permanent guids and RFC 822 dates', async () => {
      const feed = rss(await get('/feed.rss'));
      assert.equal(feed.link, `${BASE}/`);
      assert.equal(feed.atom?.links?.find((link) => link.rel === 'self')?.href, `${BASE}/feed.rss`);
      assert.deepEqual(
        feed.items?.map((item) => item.guid?.value),
        [`${BASE}/topic/.${hello.id + 2}/`, `${BASE}/topic/.${hello.id}/`],
      );
      const item = feed.items![1]!;
      assert.equal(item.pubDate, 'Sun, 01 Mar 2026 10:00:00 GMT');
      assert.deepEqual(item.dc?.creators, ['Alice Feeds']);
      assert.equal(dom(item.description!).one('strong').text, 'bold');
    });

    it('builds its links from BASE_URL, whatever Host the request names', async () => {
      const { body } = await get('/feed.atom', { host: 'forum.test' });
      assert.ok(!body.includes('forum.test'));
      assert.equal(selfLink(parseAtomFeed(body)), `${BASE}/feed.atom`);
    });
  });

  describe('GET /forum/{slug}.{id}/feed.atom|rss', () => {
    it("lists only that forum's published topics, with the forum's description", async () => {
      const feed = atom(await get(`/forum/general-talk.${forum.id}/feed.atom`));
      assert.equal(feed.subtitle?.value, 'Anything & everything');
      assert.equal(selfLink(feed), `${BASE}/forum/general-talk.${forum.id}/feed.atom`);
      assert.deepEqual(
        feed.entries?.map((entry) => entry.id),
        [`${BASE}/topic/.${hello.id}/`],
      );
      const channel = rss(await get(`/forum/general-talk.${forum.id}/feed.rss`));
      assert.equal(channel.link, `${BASE}/forum/general-talk.${forum.id}/`);
      assert.equal(channel.items?.length, 1);
    });

    it('answers a stale slug with 301 to the current one and an unknown or malformed id with 404', async () => {
      const stale = await get(`/forum/old-name.${forum.id}/feed.rss?x=1`);
      assert.equal(stale.status, 301);
      assert.equal(stale.headers.location, `/forum/general-talk.${forum.id}/feed.rss?x=1`);
      for (const url of [
        '/forum/nothing.999999/feed.atom',
        '/forum/general-talk.2147483648/feed.atom',
        '/forum/general-talk.0/feed.atom',
        '/forum/general-talk.1e3/feed.atom',
        '/forum/no-id/feed.atom',
        `/forum/general-talk.${forum.id}/feed.json`,
        `/forum/general-talk.${forum.id}/feed.atom/`,
        '/forum/%00.999999/feed.atom',
      ]) {
        const response = await get(url);
        assert.equal(response.status, 404, url);
      }
    });
  });

  describe('GET /topic/{slug}.{id}/feed.atom|rss', () => {
    it('lists the published posts, newest first; replies are titled "Re:"', async () => {
      const feed = atom(await get(`/topic/hello-world-d-rn.${hello.id}/feed.atom`));
      assert.equal(feed.title?.value, 'Hello <world> & d*rn');
      assert.deepEqual(
        feed.entries?.map((entry) => entry.title?.value),
        ['Re: Hello <world> & d*rn', 'Hello <world> & d*rn'],
      );
      const [replyEntry, opening] = feed.entries!;
      assert.match(replyEntry!.id ?? '', new RegExp(`^${BASE}/topic/\\.${hello.id}/\\?post=\\d+#post-\\d+$`));
      assert.equal(replyEntry!.authors?.[0]?.name, 'Bob Feeds');
      assert.equal(opening!.published, '2026-03-01T10:00:00Z');
      assert.equal(feed.updated, '2026-03-01T10:01:00Z', 'the held reply does not count');
    });

    it('keeps entry ids when the topic is renamed and answers its old address with 301', async () => {
      const before = atom(await get(`/topic/hello-world-d-rn.${hello.id}/feed.atom`));
      clock.advance(60_000);
      await t.services.forum.renameTopic(hello.id, asAuthUser(alice.user), 'Hello again');
      const moved = await get(`/topic/hello-world-d-rn.${hello.id}/feed.atom`);
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, `/topic/hello-again.${hello.id}/feed.atom`);
      const renamed = atom(await get(`/topic/hello-again.${hello.id}/feed.atom`));
      assert.deepEqual(
        renamed.entries?.map((entry) => entry.id),
        before.entries?.map((entry) => entry.id),
      );
      assert.equal(renamed.id, before.id);
      const site = atom(await get('/feed.atom'));
      const entry = site.entries!.find((item) => item.id === `${BASE}/topic/.${hello.id}/`)!;
      assert.equal(entry.title?.value, 'Hello again');
      assert.equal(entry.updated, isoSecond(clock.now()), 'a rename updates the entry');
      await t.services.forum.renameTopic(hello.id, asAuthUser(alice.user), 'Hello <world> & darnfeed');
    });

    it('is a 404 for a topic waiting for moderation, even for its author', async () => {
      assert.equal((await get(`/topic/pending-feedheld-topic.${held.id}/feed.atom`)).status, 404);
      const asAuthor = await alice.browser.get(`/topic/pending-feedheld-topic.${held.id}/feed.rss`);
      assert.equal(asAuthor.status, 404);
      assert.equal((await get('/topic/x.999999/feed.rss')).status, 404);
    });

    it('allows GET and HEAD only', async () => {
      const head = await t.app.inject({ method: 'HEAD', url: `/topic/hello-world-d-rn.${hello.id}/feed.atom` });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      await alice.browser.get('/');
      const posted = await alice.browser.post(`/topic/hello-world-d-rn.${hello.id}/feed.atom`, {});
      assert.equal(posted.status, 405);
      const guestPost = await t.app.inject({ method: 'POST', url: '/feed.atom' });
      assert.ok(guestPost.statusCode >= 400 && guestPost.statusCode < 500, `guest POST: ${guestPost.statusCode}`);
    });
  });

  describe('conditional GET', () => {
    it('answers 304 to a matching If-None-Match or an If-Modified-Since not before the last change', async () => {
      const url = `/forum/general-talk.${forum.id}/feed.atom`;
      const first = await get(url);
      const etag = String(first.headers.etag);
      const lastModified = String(first.headers['last-modified']);
      assert.match(etag, /^W\/"[A-Za-z0-9_-]+"$/, 'weak: the same feed goes out as br, gzip or as it is');
      assert.equal(first.headers['cache-control'], 'public, no-cache');

      const matching = await get(url, { 'if-none-match': etag });
      assert.equal(matching.status, 304);
      assert.equal(matching.body, '');
      assert.equal(matching.headers.etag, etag);
      assert.equal((await get(url, { 'if-none-match': `"other", ${etag}` })).status, 304, 'weak comparison, lists');
      assert.equal((await get(url, { 'if-none-match': etag.slice(2) })).status, 304, 'the strong spelling of the same tag matches too');
      assert.equal((await get(url, { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status, 200, 'If-None-Match decides');
      assert.equal((await get(url, { 'if-modified-since': lastModified })).status, 304);
      assert.equal((await get(url, { 'if-modified-since': 'not a date' })).status, 200);
      assert.equal((await get(url, { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);

      clock.advance(60_000);
      await reply(t, alice.user, hello, 'Something new.');
      const changed = await get(url, { 'if-none-match': etag });
      assert.equal(changed.status, 304, 'a reply changes no entry of a forum feed: it lists opening posts');
    });

    it('changes the ETag when what the feed shows changes', async () => {
      const url = `/topic/hello-world-d-rn.${hello.id}/feed.rss`;
      const first = await get(url);
      clock.advance(60_000);
      await reply(t, bob.user, hello, 'Yet another reply.');
      const second = await get(url, { 'if-none-match': String(first.headers.etag) });
      assert.equal(second.status, 200);
      assert.notEqual(second.headers.etag, first.headers.etag);
      assert.equal((await get(url, { 'if-modified-since': String(first.headers['last-modified']) })).status, 200);
    });
  });

  describe('pages', () => {
    it('link their feeds with <link rel="alternate">', async () => {
      const pages = [
        { url: '/', atom: '/feed.atom', rss: '/feed.rss' },
        { url: `/forum/general-talk.${forum.id}/`, atom: `/forum/general-talk.${forum.id}/feed.atom`, rss: `/forum/general-talk.${forum.id}/feed.rss` },
        {
          url: `/topic/hello-world-d-rn.${hello.id}/`,
          atom: `/topic/hello-world-d-rn.${hello.id}/feed.atom`,
          rss: `/topic/hello-world-d-rn.${hello.id}/feed.rss`,
        },
      ];
      for (const page of pages) {
        const head = dom((await get(page.url)).body);
        assert.equal(head.one('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href'), page.atom, page.url);
        assert.equal(head.one('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href'), page.rss, page.url);
      }
      const pending = dom((await alice.browser.get(`/topic/pending-feedheld-topic.${held.id}/`)).body);
      assert.equal(pending.has('link[rel="alternate"]'), false, 'a pending topic has no feed');
    });
  });
});

function isoSecond(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
