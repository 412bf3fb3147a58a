// Issue 27: nested BBCode broke, for everyone and for good, every page that
// showed it. A reply of [quote] × 2000 answered 500 but was stored, and its
// topic page, its API posts and its feed answered 500 from then on; a private
// message of [b] × 3000 did the same to the Inbox, the message and the Sent
// folder; on PostgreSQL the site feeds failed too; and some bodies cost
// seconds of the event loop on every view. Here each costly body
// (costly-bodies.ts) is written as a topic, a reply, an edit and a private
// message, and every read that shows it must answer 200 without a stall;
// texts stored before the fix (or imported) must render too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import type { ForumRow } from '../../src/forum/repository.ts';
import { forumFeedPath, inboxPath, messagePath, profilePath, sentMessagesPath, siteFeedPath, topicFeedPath } from '../../src/urls/paths.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, TEST_PASSWORD } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { threadCpuMs } from '../helpers/cpu.ts';
import { asAuthUser, createForum } from '../helpers/forum.ts';
import { BODY_LIMIT, COSTLY_BODIES } from './bbcode/costly-bodies.ts';

/** What the fuzz oracle calls a stall: CPU of the event loop's thread for one request. */
const STALL_MS = 1000;

/**
 * The bodies as the report wrote them, then every costly body built to fill
 * `room`: what is left of the body limit after the words the test adds.
 */
const BODIES: ReadonlyArray<{ name: string; build(room: number): string }> = [
  { name: 'the reported reply: [quote] × 2000 + x (14 KB)', build: () => `${'[quote]'.repeat(2000)}x` },
  { name: 'the reported reply: " [b]" × 2400', build: () => ' [b]'.repeat(2400) },
  { name: 'the reported message: [b] × 3000 + x', build: () => `${'[b]'.repeat(3000)}x` },
  { name: 'the reported body: [b] × 2000 and [/u] × 13,400', build: () => `${'[b]'.repeat(2000)}${'[/u]'.repeat(13_400)}` },
  ...COSTLY_BODIES,
];

interface Person {
  id: number;
  name: string;
  auth: AuthUser;
  headers: Record<string, string>;
  browser: Browser;
}

interface Answer {
  status: number;
  body: string;
}

describeEachDatabase('nested BBCode on every page that shows it (issue 27)', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let author: Person;
  let reader: Person;
  let admin: AuthUser;

  const person = async (name: string): Promise<Person> => {
    const row = await createUser(t, { name });
    const browser = new Browser(t);
    assert.equal((await browser.logIn(row.username, TEST_PASSWORD)).status, 303);
    const { token } = await t.services.auth.issueToken(row);
    return { id: row.id, name: row.username, auth: asAuthUser(row), headers: { authorization: `Bearer ${token}` }, browser };
  };

  before(async () => {
    t = await db.start();
    forum = await createForum(t, 'Deep forum');
    author = await person('Deep Author');
    reader = await person('Deep Reader');
    admin = asAuthUser(await createUser(t, { role: 'admin' }));
  });
  after(() => t.close());

  const api = async (as: Person | undefined, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>): Promise<Answer> => {
    const response = await t.app.inject({ method, url, ...(as === undefined ? {} : { headers: as.headers }), ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, body: response.body };
  };
  const guest = async (url: string): Promise<Answer> => {
    const response = await t.app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.body };
  };

  /** The answer, which must be `status` and must not have stalled the event loop. */
  async function answer(label: string, request: () => Promise<Answer>, status = 200): Promise<Answer> {
    const started = threadCpuMs();
    const response = await request();
    const cpu = threadCpuMs() - started;
    assert.equal(response.status, status, `${label}: ${response.body.slice(0, 300)}`);
    assert.ok(cpu < STALL_MS, `${label} took ${cpu.toFixed(0)} ms of CPU`);
    return response;
  }

  /** Every read that shows a topic's posts: the API, the page, its feeds, the forum's and the site's (which carry opening posts), search. */
  async function readTopic(topic: { id: number; title: string }, postId: number, term: string): Promise<void> {
    await answer('GET /api/topics/{id}/posts', () => guest(`/api/topics/${topic.id}/posts`));
    await answer('GET /api/posts/{id}', () => guest(`/api/posts/${postId}`));
    const path = (await answer('GET /api/topics/{id}', () => guest(`/api/topics/${topic.id}`))).body;
    const url = (JSON.parse(path) as { data: { url: string } }).data.url;
    await answer('topic page, guest', () => guest(url));
    await answer('topic page, member', () => reader.browser.get(url));
    for (const format of ['atom', 'rss'] as const) {
      await answer(`topic ${format} feed`, () => guest(topicFeedPath(topic, format)));
      await answer(`forum ${format} feed`, () => guest(forumFeedPath(forum, format)));
      await answer(`site ${format} feed`, () => guest(siteFeedPath(format)));
    }
    const found = await answer('GET /api/search', () => guest(`/api/search?search=${term}`));
    assert.ok((JSON.parse(found.body) as { data: unknown[] }).data.length > 0, `search finds ${term}`);
    await answer('search page', () => guest(`/search/?search=${term}`));
  }

  /** Every read that shows a private message: the recipient's Inbox and message, the sender's Sent folder and copy, in the API and on pages. */
  async function readMessage(id: number, from: Person, to: Person): Promise<void> {
    await answer('recipient: GET /api/messages', () => api(to, 'GET', '/api/messages'));
    await answer('recipient: GET /api/messages/{id}', () => api(to, 'GET', `/api/messages/${id}`));
    await answer('recipient: Inbox page', () => to.browser.get(inboxPath()));
    await answer('recipient: message page', () => to.browser.get(messagePath(id)));
    await answer('sender: GET /api/messages?folder=sent', () => api(from, 'GET', '/api/messages?folder=sent'));
    await answer('sender: GET /api/messages/{id}', () => api(from, 'GET', `/api/messages/${id}`));
    await answer('sender: Sent page', () => from.browser.get(sentMessagesPath()));
    await answer('sender: message page', () => from.browser.get(messagePath(id)));
  }

  describe('written through the API', () => {
    BODIES.forEach((body, index) => {
      it(`${body.name}: stored as a topic, a reply, an edit and a message, shown everywhere`, async () => {
        const term = `deepword${index}`;
        // A word to search for, and room for an edit that adds one: at the body limit both times.
        const shape = body.build(BODY_LIMIT - `${term} edited `.length);
        const text = `${term} ${shape}`;
        const title = `Deep topic ${index}`;
        const created = await answer('POST /api/topics', () => api(author, 'POST', '/api/topics', { forum_id: forum.id, title, body: text }), 201);
        const topic = { id: (JSON.parse(created.body) as { data: { id: number } }).data.id, title };
        const replied = await answer('POST /api/topics/{id}/posts', () => api(reader, 'POST', `/api/topics/${topic.id}/posts`, { body: text }), 201);
        const reply = JSON.parse(replied.body) as { data: { id: number; body_html: string } };
        assert.match(reply.data.body_html, /^<(div|p)/);
        await answer('PATCH /api/posts/{id}', () => api(reader, 'PATCH', `/api/posts/${reply.data.id}`, { body: `${term} edited ${shape}` }));
        await readTopic(topic, reply.data.id, term);

        const sent = await answer('POST /api/messages', () => api(author, 'POST', '/api/messages', { to: reader.name, subject: title, body: text }), 201);
        const messageId = (JSON.parse(sent.body) as { data: { id: number } }).data.id;
        await readMessage(messageId, author, reader);

        // The next body's pages and feeds then show it alone: every long text renders on each view (too long for the render cache).
        await t.services.forum.deleteTopic(topic.id, admin);
        for (const side of [author, reader]) await t.services.messages.delete(side.auth, messageId);
      });
    });
  });

  it('previews a deep reply on the topic page', async () => {
    const created = await api(author, 'POST', '/api/topics', { forum_id: forum.id, title: 'Deep preview', body: 'Opening post' });
    const url = (JSON.parse(created.body) as { data: { url: string } }).data.url;
    await reader.browser.get(url);
    const previewed = await answer('reply preview', () =>
      reader.browser.post(`${url}reply/`, { body: `${'[quote]'.repeat(Math.floor((BODY_LIMIT - 1) / 7))}x`, preview: '1' }),
    );
    assert.match(previewed.body, /<blockquote class="bb-quote">/);
  });

  it('renders texts stored before the fix (or imported): posts, a message and a signature', async () => {
    const stored = BODIES.slice(0, 4);
    for (const [index, body] of stored.entries()) {
      const term = `storedword${index}`;
      const text = body.build(BODY_LIMIT - `${term} `.length);
      const title = `Stored topic ${index}`;
      const created = await api(author, 'POST', '/api/topics', { forum_id: forum.id, title, body: `${term} harmless` });
      const topicId = (JSON.parse(created.body) as { data: { id: number } }).data.id;
      const sent = await api(author, 'POST', '/api/messages', { to: reader.name, subject: title, body: 'harmless' });
      const messageId = (JSON.parse(sent.body) as { data: { id: number } }).data.id;
      // As an older version, or an import, left them: no write check of today's stood in the way.
      const post = await t.database.db.selectFrom('posts').select('id').where('topic_id', '=', topicId).executeTakeFirstOrThrow();
      await t.database.db
        .updateTable('posts')
        .set({ body: `${term} ${text}` })
        .where('id', '=', post.id)
        .execute();
      await t.database.db.updateTable('private_messages').set({ body: text }).where('id', '=', messageId).execute();
      await t.database.db.updateTable('users').set({ signature: text }).where('id', '=', author.id).execute();
      await readTopic({ id: topicId, title }, post.id, term);
      await readMessage(messageId, author, reader);
      await answer('profile page with the signature', () => guest(profilePath({ id: author.id, name: author.name })));
    }
  });
});
