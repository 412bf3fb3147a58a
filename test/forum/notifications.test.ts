// The notification centre (docs/notifications.md): replies in watched topics,
// quotes, @mentions, private messages and moderators' actions reach the
// members concerned, once per post, only where they may read, by the ways
// they chose; the count in the header is the count of unread rows whatever
// the requests race; the pages work without a script.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, mailsTo, type MemberWithToken } from '../helpers/forum.ts';

interface NotificationJson {
  id: number;
  kind: string;
  read: boolean;
  actor: { id: number; name: string } | null;
  topic: { id: number; title: string } | null;
  post_id: number | null;
  message: { id: number; subject: string } | null;
  action: string | null;
  url: string | null;
}

describeEachDatabase('notifications', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let author: MemberWithToken;
  let watcher: MemberWithToken;
  let spaced: MemberWithToken;
  let outsider: MemberWithToken;
  let open: ForumRow;
  let staffRoom: ForumRow;
  let topic: TopicWithAuthor;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const listOf = async (who: MemberWithToken, query = '') => (await api('GET', `/api/notifications${query}`, who)).json<{ data: NotificationJson[] }>().data;
  const unreadOf = async (who: MemberWithToken) => (await api('GET', '/api/notifications/unread-count', who)).json<{ data: { unread: number } }>().data.unread;
  const countColumn = async (who: MemberWithToken) =>
    Number(
      (await t.database.db.selectFrom('users').select('unread_notifications').where('id', '=', who.user.id).executeTakeFirstOrThrow()).unread_notifications,
    );
  const unreadRows = async (who: MemberWithToken) =>
    Number(
      (
        await t.database.db
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', who.user.id)
          .where('read_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const reply = (who: MemberWithToken, body: string, to: TopicWithAuthor = topic) => t.services.forum.reply(to.id, asAuthUser(who.user), body);

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Note Admin', role: 'admin' });
    author = await loggedInWithToken(t, { name: 'Writer' });
    watcher = await loggedInWithToken(t, { name: 'Watcher' });
    spaced = await loggedInWithToken(t, { name: 'Anna Maria' });
    outsider = await loggedInWithToken(t, { name: 'Outsider' });
    open = await t.services.forum.createForum({ name: 'Open' });
    staffRoom = await t.services.forum.createForum({ name: 'Staff room' });
    const closed = await api('PUT', `/api/forums/${staffRoom.id}/permissions`, admin, {
      levels: { ...OPEN_LEVELS, view: 'moderators', read: 'moderators' },
      grants: [],
    });
    assert.equal(closed.statusCode, 200, closed.body);
    topic = await t.services.forum.createTopic(asAuthUser(author.user), { forum_id: open.id, title: 'Seeding tips', body: 'Keep your client open.' });
    await t.services.forum.watch(asAuthUser(watcher.user), topic.id);
  });
  after(() => t.close());

  describe('what posts tell', () => {
    it('tells a watcher of a reply, by the centre and by mail, and never the reply’s author', async () => {
      const mailsBefore = (await mailsTo(t, watcher.user.email)).length;
      const post = await reply(author, 'A second thought.');
      const [notice] = await listOf(watcher);
      assert.equal(notice?.kind, 'reply');
      assert.equal(notice?.actor?.name, 'Writer');
      assert.equal(notice?.topic?.title, 'Seeding tips');
      assert.equal(notice?.post_id, post.id);
      assert.match(notice?.url ?? '', new RegExp(`^/topic/seeding-tips\\.${topic.id}/\\?post=${post.id}#post-${post.id}$`));
      assert.equal(await unreadOf(watcher), 1);
      assert.equal((await mailsTo(t, watcher.user.email)).length, mailsBefore + 1, 'the reply mail, as watching always sent');
      assert.deepEqual(await listOf(author), []);
    });

    it('tells each member once per post, of the strongest reason: a quote over a mention over a reply', async () => {
      await api('POST', '/api/notifications/read-all', watcher);
      const body = '[quote="Watcher"]Earlier words, and @Outsider in them.[/quote]\nAgreed, @Watcher and @"Anna Maria" and @nobody-here.';
      const post = await reply(author, body);
      const forWatcher = (await listOf(watcher)).filter((notice) => notice.post_id === post.id);
      assert.deepEqual(
        forWatcher.map((notice) => notice.kind),
        ['quote'],
      );
      assert.deepEqual(
        (await listOf(spaced)).map((notice) => [notice.kind, notice.post_id]),
        [['mention', post.id]],
      );
      assert.deepEqual(await listOf(outsider), [], 'a mention inside a quote is someone else’s words');
      assert.equal(await countColumn(watcher), await unreadRows(watcher));
    });

    it('tells of mentions in a new topic’s opening post, and of those an edit adds, once', async () => {
      const before = (await listOf(outsider)).length;
      const opened = await t.services.forum.createTopic(asAuthUser(author.user), {
        forum_id: open.id,
        title: 'Question for @Outsider',
        body: 'What do you think, @Outsider?',
      });
      const mentions = (await listOf(outsider)).filter((notice) => notice.topic?.id === opened.id);
      assert.deepEqual(
        mentions.map((notice) => notice.kind),
        ['mention'],
      );
      const post = await reply(author, 'No mention yet.', opened);
      // By mail too, and just as once: an edit that keeps the name mails nobody again.
      const settings = await t.services.notifications.settingsOf(outsider.user.id);
      await t.services.notifications.setSettings(outsider.user.id, { ...settings, mention: { site: true, email: true } });
      const mailsBefore = (await mailsTo(t, outsider.user.email)).length;
      await t.services.forum.editPost(post.id, asAuthUser(author.user), 'Now mentioning @Outsider.');
      await t.services.forum.editPost(post.id, asAuthUser(author.user), 'Still mentioning @Outsider, edited again.');
      assert.equal((await listOf(outsider)).length, before + 2, 'the opening post and the edited reply, each once');
      assert.equal((await mailsTo(t, outsider.user.email)).length, mailsBefore + 1);
      await t.services.notifications.setSettings(outsider.user.id, settings);
    });

    it('never tells a member of a post they may not read', async () => {
      const secret = await t.services.forum.createTopic(asAuthUser(admin.user), { forum_id: staffRoom.id, title: 'Staff only', body: 'About @Outsider.' });
      const ping = await reply(admin, 'Ping @Outsider and @Watcher.', secret);
      const about = await t.database.db.selectFrom('notifications').select('user_id').where('topic_id', '=', secret.id).execute();
      assert.deepEqual(about, [], 'neither the opening post nor the reply tells a member who may not read the staff room');
      assert.equal(ping.topic_id, secret.id);
    });

    it('links mentions in posts to the member list', async () => {
      const post = await reply(author, 'Thanks @Watcher. Mail me at someone@example.org.');
      const page = await watcher.browser.get(`/topic/seeding-tips.${topic.id}/?post=${post.id}`);
      const links = dom(page)
        .all(`#post-${post.id} a.mention`)
        .map((link) => [link.textContent, link.getAttribute('href')]);
      assert.deepEqual(links, [['@Watcher', '/members/?search=Watcher']]);
    });
  });

  describe('messages and moderation', () => {
    it('lists a private message, read when the message is opened', async () => {
      await api('POST', '/api/notifications/read-all', outsider);
      const sent = await api('POST', '/api/messages', author, { to: 'Outsider', subject: 'Hello there', body: 'A word.' });
      assert.equal(sent.statusCode, 201, sent.body);
      const [notice] = await listOf(outsider);
      assert.equal(notice?.kind, 'message');
      assert.equal(notice?.message?.subject, 'Hello there');
      assert.equal(await unreadOf(outsider), 1);
      const messageId = sent.json<{ data: { id: number } }>().data.id;
      assert.equal((await api('GET', `/api/messages/${messageId}`, outsider)).statusCode, 200);
      assert.equal(await unreadOf(outsider), 0);
    });

    it('tells an author that a moderator hid their post, and not a moderator who hides their own', async () => {
      const post = await reply(watcher, 'Something to hide.');
      await t.services.forum.hiding.post(post.id, asAuthUser(admin.user), true);
      const [notice] = await listOf(watcher, '?unread=true');
      assert.deepEqual([notice?.kind, notice?.action, notice?.post_id], ['moderation', 'hide_post', post.id]);
      const own = await reply(admin, 'Mine to hide.');
      await t.services.forum.hiding.post(own.id, asAuthUser(admin.user), true);
      assert.ok((await listOf(admin)).every((item) => item.kind !== 'moderation'));
    });
  });

  describe('reading and settings', () => {
    it('marks read once whatever the requests race, ignores others’ ids, and keeps the count equal to the unread rows', async () => {
      await api('POST', '/api/notifications/read-all', watcher);
      for (let n = 0; n < 3; n += 1) await reply(author, `Reply number ${n}.`);
      const ids = (await listOf(watcher, '?unread=true')).map((notice) => notice.id);
      assert.equal(ids.length, 3);
      const answers = await Promise.all(Array.from({ length: 6 }, () => api('POST', '/api/notifications/read', watcher, { ids: [ids[0]!] })));
      assert.ok(answers.every((answer) => answer.statusCode === 200));
      assert.equal(await countColumn(watcher), 2);
      assert.equal(await unreadRows(watcher), 2);
      const foreign = await api('POST', '/api/notifications/read', outsider, { ids: [ids[1]!] });
      assert.equal(foreign.statusCode, 200);
      assert.equal(await unreadOf(watcher), 2, 'another member’s ids change nothing');
      for (const body of [{ ids: [] }, { ids: ['x'] }, { ids: Array.from({ length: 201 }, (_, n) => n + 1) }, {}]) {
        assert.equal((await api('POST', '/api/notifications/read', watcher, body)).statusCode, 422);
      }
      assert.equal((await api('GET', '/api/notifications', null)).statusCode, 401);
      // Reading the topic's page reads what told of its posts.
      await watcher.browser.get(`/topic/seeding-tips.${topic.id}/?page=1`);
      const lastPage = Math.ceil((await t.services.forum.getTopic(topic.id, asAuthUser(watcher.user))).posts_count / 50);
      await watcher.browser.get(`/topic/seeding-tips.${topic.id}/${lastPage === 1 ? '' : `?page=${lastPage}`}`);
      assert.equal(await unreadOf(watcher), 0);
      assert.equal(await unreadRows(watcher), 0);
    });

    it('follows each member’s choice of kinds on the site and by mail', async () => {
      const defaults = (await api('GET', '/api/notifications/settings', spaced)).json<{ data: Record<string, { site: boolean; email: boolean }> }>().data;
      assert.deepEqual(defaults['reply'], { site: true, email: true });
      assert.deepEqual(defaults['mention'], { site: true, email: false });
      const chosen = { ...defaults, mention: { site: false, email: true }, message: { site: true, email: true } };
      const saved = await api('PUT', '/api/notifications/settings', spaced, chosen);
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json<{ data: unknown }>().data, chosen);
      const before = (await listOf(spaced)).length;
      const mailsBefore = (await mailsTo(t, spaced.user.email)).length;
      await reply(author, 'Once more, @"Anna Maria".');
      assert.equal((await listOf(spaced)).length, before, 'no mention in the centre');
      const mails = await mailsTo(t, spaced.user.email);
      assert.equal(mails.length, mailsBefore + 1);
      assert.match(mails.at(-1)!.subject, /mentioned in "Seeding tips"/);
      assert.equal((await api('PUT', '/api/notifications/settings', spaced, { reply: { site: true } })).statusCode, 422);
    });
  });

  describe('the pages', () => {
    it('list, open, mark all read and change settings with no script; the header shows the count', async () => {
      await api('POST', '/api/notifications/read-all', watcher);
      const post = await reply(author, 'For the page test.');
      const home = dom(await watcher.browser.get('/'));
      assert.equal(home.text('header a[data-notifications] .count'), '1');
      const centre = dom(await watcher.browser.get('/notifications/'));
      const item = centre.one('ol.notifications li.unread a');
      assert.match(item.textContent ?? '', /Writer replied in Seeding tips/);
      const opened = await watcher.browser.get(item.getAttribute('href')!);
      assert.equal(opened.status, 303);
      assert.equal(opened.headers['location'], `/topic/seeding-tips.${topic.id}/?post=${post.id}#post-${post.id}`);
      assert.equal(await unreadOf(watcher), 0);
      assert.equal((await outsider.browser.get(item.getAttribute('href')!)).status, 404, 'another member’s notification is none');

      await reply(author, 'And another.');
      await watcher.browser.get('/notifications/');
      assert.equal((await watcher.browser.post('/notifications/read-all/', {})).status, 303);
      assert.equal(await unreadOf(watcher), 0);

      await watcher.browser.get('/notifications/settings/');
      const saved = await watcher.browser.post('/notifications/settings/', {
        reply_site: '1',
        quote_site: '1',
        mention_site: '1',
        message_site: '1',
        moderation_site: '1',
      });
      assert.equal(saved.status, 303);
      const settings = await t.services.notifications.settingsOf(watcher.user.id);
      assert.deepEqual(settings.reply, { site: true, email: false }, 'the unticked mail box turns reply mails off');
      const guest = await new (await import('../helpers/browser.ts')).Browser(t).get('/notifications/');
      assert.equal(guest.status, 303);
    });
  });
});
