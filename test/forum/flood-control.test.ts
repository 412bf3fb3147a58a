import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createRule, loggedIn, mailsTo, mainText, type Member } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

const FLOOD = { FLOOD_INTERVAL_SECONDS: '60' };

describe('FLOOD_INTERVAL_SECONDS', () => {
  it('is 15 seconds by default, 0 turns flood control off', () => {
    assert.equal(loadConfig({}).floodIntervalSeconds, 15);
    assert.equal(loadConfig({ FLOOD_INTERVAL_SECONDS: '0' }).floodIntervalSeconds, 0);
  });

  it('stops start-up on a value that is not a whole number of seconds', () => {
    for (const value of ['-1', '1.5', 'soon', '86401']) {
      assert.throws(
        () => loadConfig({ FLOOD_INTERVAL_SECONDS: value }),
        (error: unknown) => error instanceof ConfigError && error.variable === 'FLOOD_INTERVAL_SECONDS',
        value,
      );
    }
  });
});

describeEachDatabase('flood control', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let topic: TopicWithAuthor;

  before(async () => {
    t = await db.start({ env: FLOOD });
    const opener = await signIn(t, 'admin');
    forum = await createForum(t, 'Flood Zone');
    topic = await t.services.forum.createTopic(opener.user, { forum_id: forum.id, title: 'Busy topic', body: 'Opening post.' });
  });
  after(() => t.close());

  const replyByApi = (caller: SignedIn, body: string) =>
    t.app.inject({ method: 'POST', url: `/api/topics/${topic.id}/posts`, headers: caller.headers, payload: { body } });
  const postsBy = async (userId: number) =>
    Number(
      (
        await t.database.db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('author_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('JSON API', () => {
    it('refuses a second reply within the interval (429 in the general envelope, Retry-After), writing nothing', async () => {
      const member = await signIn(t);
      assert.equal((await replyByApi(member, 'First reply')).statusCode, 201);
      const refused = await replyByApi(member, 'Second reply, too soon');
      assert.equal(refused.statusCode, 429);
      const body = refused.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, 'RATE_LIMITED');
      assert.match(body.error.message, /^You can post once every 60 seconds\. Please wait \d+ seconds? before you post again\.$/);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      assert.equal(body.error.details.retry_after, retryAfter);
      assert.equal(await postsBy(member.user.id), 1);
    });

    it('accepts one of twelve replies sent at once (the reported 12 in 212 ms)', async () => {
      const member = await signIn(t);
      const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => replyByApi(member, `Burst ${i}`)));
      const statuses = responses.map((response) => response.statusCode).sort();
      assert.deepEqual(statuses, [201, ...Array<number>(11).fill(429)]);
      assert.equal(await postsBy(member.user.id), 1);
    });

    it('runs topics and replies on one clock: a reply right after a new topic is refused', async () => {
      const member = await signIn(t);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/topics',
        headers: member.headers,
        payload: { forum_id: forum.id, title: 'Fresh topic', body: 'Hi' },
      });
      assert.equal(created.statusCode, 201);
      assert.equal((await replyByApi(member, 'Right after')).statusCode, 429);
      const another = await t.app.inject({
        method: 'POST',
        url: '/api/topics',
        headers: member.headers,
        payload: { forum_id: forum.id, title: 'Another topic', body: 'Hi' },
      });
      assert.equal(another.statusCode, 429);
    });

    it('does not start the clock for a write that was refused for its content (422)', async () => {
      await createRule(t, 'floodblocked', 'block', ['posts']);
      const member = await signIn(t);
      assert.equal((await replyByApi(member, 'A floodblocked word')).statusCode, 422);
      assert.equal((await replyByApi(member, 'A clean reply')).statusCode, 201);
    });

    it('exempts moderators and administrators', async () => {
      for (const role of ['moderator', 'admin'] as const) {
        const staff = await signIn(t, role);
        assert.equal((await replyByApi(staff, 'Staff one')).statusCode, 201, role);
        assert.equal((await replyByApi(staff, 'Staff two')).statusCode, 201, role);
      }
    });

    it('keeps one clock per member', async () => {
      const [first, second] = [await signIn(t), await signIn(t)];
      assert.equal((await replyByApi(first, 'Mine')).statusCode, 201);
      assert.equal((await replyByApi(second, 'Mine too')).statusCode, 201);
    });
  });

  describe('pages', () => {
    let member: Member;
    before(async () => {
      member = await loggedIn(t);
    });

    it('shows a refused reply form again with the text kept and how long to wait (429, Retry-After)', async () => {
      const path = `/topic/busy-topic.${topic.id}/`;
      await member.browser.get(path);
      assert.equal((await member.browser.post(`${path}reply/`, { body: 'Page reply one' })).status, 303);
      await member.browser.get(path);
      const refused = await member.browser.post(`${path}reply/`, { body: 'Page reply <two> & more' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.match(refused.headers['content-type'] as string, /^text\/html/);
      assert.match(mainText(refused.body), /Please wait \d+ seconds? before you post again\. What you wrote is kept below\./);
      assert.equal(dom(refused).one('textarea#body[name="body"]').text, 'Page reply <two> & more');
      assert.equal(await postsBy(member.user.id), 1);
    });

    it('shows a refused new topic form again with title and text kept (429)', async () => {
      const author = await loggedIn(t);
      const path = `/forum/flood-zone.${forum.id}/`;
      await author.browser.get(path);
      assert.equal((await author.browser.post(path, { title: 'Page topic one', body: 'Body one' })).status, 303);
      await author.browser.get(path);
      const refused = await author.browser.post(path, { title: 'Page topic two', body: 'Body two kept' });
      assert.equal(refused.status, 429);
      assert.equal(dom(refused).attr('input#title[name="title"][type="text"]', 'value'), 'Page topic two');
      assert.equal(dom(refused).one('textarea#body[name="body"]').text, 'Body two kept');
      assert.match(mainText(refused.body), /Please wait \d+ seconds? before you post again/);
    });

    it('limits messages through the profile mail relay on their own clock (429, text kept, one mail)', async () => {
      const writer = await loggedIn(t);
      const reader = await signIn(t);
      const path = `/profile/${reader.user.name.toLowerCase()}.${reader.user.id}/email/`;
      await writer.browser.get(path);
      assert.equal((await writer.browser.post(path, { subject: 'First', message: 'Hello once' })).status, 303);
      await writer.browser.get(path);
      const refused = await writer.browser.post(path, { subject: 'Second', message: 'Hello twice' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.match(mainText(refused.body), /You can send one message every 60 seconds\. Please wait \d+ seconds? before you send another message\./);
      assert.equal(dom(refused).one('textarea#message[name="message"]').text, 'Hello twice');
      assert.equal((await mailsTo(t, reader.user.email)).length, 1);
      // Posting is another clock: a mail does not stop a reply.
      await writer.browser.get(`/topic/busy-topic.${topic.id}/`);
      assert.equal((await writer.browser.post(`/topic/busy-topic.${topic.id}/reply/`, { body: 'A reply after a mail' })).status, 303);
    });
  });

  describe('the interval', () => {
    it('lets the member post again once it has passed', async () => {
      // A minute: the limiter also drops a window on a real timer after its length, which a loaded
      // machine's slow first requests must not reach before the test moves Date past it.
      const quick = await db.start({ env: { FLOOD_INTERVAL_SECONDS: '60' } });
      try {
        const author = await signIn(quick);
        const f = await createForum(quick, 'Quick');
        // The intervals are the rate limiter's, kept in real time (src/auth/flood-control.ts): the
        // test moves Date itself instead of sleeping through one.
        mock.timers.enable({ apis: ['Date'], now: Date.now() });
        const opened = await quick.app.inject({
          method: 'POST',
          url: '/api/topics',
          headers: author.headers,
          payload: { forum_id: f.id, title: 'One', body: 'Hi' },
        });
        assert.equal(opened.statusCode, 201);
        const post = (body: string) =>
          quick.app.inject({ method: 'POST', url: `/api/topics/${opened.json().data.id}/posts`, headers: author.headers, payload: { body } });
        assert.equal((await post('Too soon')).statusCode, 429);
        mock.timers.tick(59_000);
        assert.equal((await post('Still too soon')).statusCode, 429);
        mock.timers.tick(2_000);
        assert.equal((await post('Later')).statusCode, 201);
      } finally {
        mock.timers.reset();
        await quick.close();
      }
    });
  });
});

const redisUrl = process.env['TEST_REDIS_URL'];

describe('flood control shared through Redis', { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' }, () => {
  let t: TestApp;
  let second: BuiltApp;
  before(async () => {
    t = await startTestApp('sqlite', { env: { ...FLOOD, REDIS_URL: redisUrl! }, sqliteFile: true });
    second = await buildApp(t.config, { logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await second.app.close();
    await t.close();
  });

  it('refuses on one instance a reply sent right after one on another', async () => {
    const member = await signIn(t);
    // Ids start again in every test database: forget an earlier run's clock for this id.
    const redis = new Redis(redisUrl!);
    await redis.del(`forum:flood_posts:u${member.user.id}`);
    redis.disconnect();
    const admin = await signIn(t, 'admin');
    const opened = await t.services.forum.createTopic(admin.user, { forum_id: (await createForum(t, 'Shared')).id, title: 'Shared clock', body: 'Hi' });
    const post = (app: BuiltApp['app'], body: string) =>
      app.inject({ method: 'POST', url: `/api/topics/${opened.id}/posts`, headers: member.headers, payload: { body } });
    assert.equal((await post(t.app, 'On the first instance')).statusCode, 201);
    assert.equal((await post(second.app, 'On the second instance')).statusCode, 429);
  });
});
