// Sitemaps and robots.txt (docs/seo.md): the index names the forums' file and
// one topics file per run of ids; each lists only what a guest may read (no
// closed forum, no pending or hidden topic), at its canonical address with its
// last activity; validators answer 304; the index follows new topics within
// its minute; robots.txt is the default until an admin writes another.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { TOPICS_PER_SITEMAP } from '../../src/forum/sitemap.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { asAuthUser, createRule, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';

const ORIGIN = 'http://localhost';

describeEachDatabase('sitemaps and robots.txt', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;
  let open: ForumRow;
  let closed: ForumRow;
  let shown: TopicWithAuthor;
  let hidden: TopicWithAuthor;
  let pending: TopicWithAuthor;
  let secret: TopicWithAuthor;
  const clock = new TestClock('2026-05-01T08:00:00.000Z');

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } });
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);

  before(async () => {
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    admin = await loggedInWithToken(t, { name: 'Map Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Map Member' });
    open = await t.services.forum.createForum({ name: 'Open & public' });
    closed = await t.services.forum.createForum({ name: 'Staff room' });
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/forums/${closed.id}/permissions`,
      headers: admin.headers,
      payload: { levels: { ...OPEN_LEVELS, view: 'moderators', read: 'moderators' }, grants: [] },
    });
    assert.equal(set.statusCode, 200, set.body);
    const author = asAuthUser(member.user);
    shown = await t.services.forum.createTopic(author, { forum_id: open.id, title: 'Seeding <tips> & tricks', body: 'Text.' });
    clock.advance(60_000);
    hidden = await t.services.forum.createTopic(author, { forum_id: open.id, title: 'Hidden one', body: 'Text.' });
    await t.services.forum.hiding.topic(hidden.id, asAuthUser(admin.user), true);
    await createRule(t, 'holdmeword', 'moderate', ['posts']);
    pending = await t.services.forum.createTopic(author, { forum_id: open.id, title: 'Waiting', body: 'holdmeword' });
    secret = await t.services.forum.createTopic(asAuthUser(admin.user), { forum_id: closed.id, title: 'Staff only', body: 'Text.' });
  });
  after(() => t.close());

  describe('sitemaps', () => {
    it('index the forums and each run of topic ids, with the newest activity', async () => {
      const index = await get('/sitemap.xml');
      assert.equal(index.statusCode, 200);
      assert.match(String(index.headers['content-type']), /^application\/xml/);
      assert.match(index.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
      assert.deepEqual(locs(index.body), [`${ORIGIN}/sitemaps/forums.xml`, `${ORIGIN}/sitemaps/topics-0.xml`]);
      assert.match(index.body, new RegExp(`<lastmod>${shown.last_post_at}</lastmod>`));
    });

    it('list the home page and the forums guests may read, not a closed one', async () => {
      const forums = await get('/sitemaps/forums.xml');
      assert.equal(forums.statusCode, 200);
      const listed = locs(forums.body);
      assert.equal(listed[0], `${ORIGIN}/`);
      assert.ok(listed.some((loc) => loc.includes(`.${open.id}/`)));
      assert.ok(!listed.some((loc) => loc.includes(`.${closed.id}/`)), 'the staff room stays out');
      assert.match(forums.body, /Open &amp; public|open-public/);
    });

    it('list the topics guests may read at their canonical addresses, escaped, and nothing else', async () => {
      const topics = await get('/sitemaps/topics-0.xml');
      assert.equal(topics.statusCode, 200);
      const listed = locs(topics.body);
      const canonical = (await t.services.presenter.heading(shown)).path;
      assert.deepEqual(listed, [`${ORIGIN}${canonical}`]);
      for (const left of [hidden, pending, secret]) assert.ok(!topics.body.includes(`.${left.id}/`), `topic ${left.id} stays out`);
      // A validator gets a 304.
      const again = await get('/sitemaps/topics-0.xml', { 'if-none-match': String(topics.headers['etag']) });
      assert.equal(again.statusCode, 304);
    });

    it('answer 404 for a run without topics and for addresses that are not a run', async () => {
      for (const file of [
        'topics-1.xml',
        'topics-01.xml',
        'topics--1.xml',
        'topics-1e3.xml',
        'topics-99999999999.xml',
        'topics-999999999.xml',
        'topics-214748.xml',
        'topics-214747.xml',
        'forums.json',
        'topics-0.xml.gz',
      ]) {
        assert.equal((await get(`/sitemaps/${file}`)).statusCode, 404, file);
      }
    });

    it('follow new topics: a new run of ids appears in the index within its minute', async () => {
      const author = asAuthUser(member.user);
      const far = await t.database.db
        .insertInto('topics')
        .values({
          id: TOPICS_PER_SITEMAP * 3 + 7,
          forum_id: open.id,
          title: 'Far away',
          author_id: author.id,
          status: 'published',
          posts_count: 0,
          last_post_at: clock.now().toISOString(),
          created_at: clock.now().toISOString(),
          updated_at: clock.now().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      clock.advance(61_000);
      const index = await get('/sitemap.xml');
      assert.ok(locs(index.body).includes(`${ORIGIN}/sitemaps/topics-3.xml`));
      assert.ok(locs((await get('/sitemaps/topics-3.xml')).body).some((loc) => loc.endsWith(`.${far.id}/`)));
    });
  });

  describe('robots.txt', () => {
    it('answers the default, naming the sitemap, until an admin writes another; blank brings the default back', async () => {
      const standard = await get('/robots.txt');
      assert.equal(standard.statusCode, 200);
      assert.match(String(standard.headers['content-type']), /^text\/plain/);
      assert.match(standard.body, /^User-agent: \*\n/);
      assert.match(standard.body, /\nDisallow: \/api\/\n/);
      assert.match(standard.body, /\nDisallow: \/admin\/\n/);
      assert.match(standard.body, new RegExp(`\\nSitemap: ${ORIGIN}/sitemap.xml\\n$`));

      const refused = await t.app.inject({ method: 'PATCH', url: '/api/site', headers: member.headers, payload: { robots_txt: 'User-agent: *\nDisallow: /' } });
      assert.equal(refused.statusCode, 403);
      const written = await t.app.inject({
        method: 'PATCH',
        url: '/api/site',
        headers: admin.headers,
        payload: { robots_txt: 'User-agent: *\r\nDisallow: /\r\n\r\n' },
      });
      assert.equal(written.statusCode, 200, written.body);
      assert.equal(written.json<{ data: { robots_txt: string | null } }>().data.robots_txt, 'User-agent: *\nDisallow: /\n');
      assert.equal((await get('/robots.txt')).body, 'User-agent: *\nDisallow: /\n');

      // On the admin page too.
      await admin.browser.get('/admin/settings/');
      const saved = await admin.browser.post('/admin/settings/', {
        name: 'Forum',
        description: '',
        logo_url: '',
        default_locale: 'en',
        registration_open: '1',
        robots_txt: '  ',
      });
      assert.equal(saved.status, 303);
      assert.equal((await get('/robots.txt')).body, standard.body);
      const tooLong = await t.app.inject({ method: 'PATCH', url: '/api/site', headers: admin.headers, payload: { robots_txt: 'x'.repeat(10_001) } });
      assert.equal(tooLong.statusCode, 422);
    });
  });
});
