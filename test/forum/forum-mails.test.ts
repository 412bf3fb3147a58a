import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { asAuthUser, createForum, createRule, createTopic, lastMailTo, linkIn, mailsTo, reply } from '../helpers/forum.ts';

describeEachDatabase('forum mails show what the page shows', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let author: UserRow;
  let watcher: UserRow;
  let moderator: UserRow;

  before(async () => {
    t = await db.start();
    forum = await createForum(t, 'Mail Room');
    author = await createUser(t, { name: 'Mail Author' });
    watcher = await createUser(t, { name: 'Mail Watcher' });
    moderator = await createUser(t, { name: 'Mail Moderator', role: 'moderator' });
    await createRule(t, 'dreadword', 'replace', ['topics'], 'fineword');
    await createRule(t, 'rudeword', 'replace', ['posts'], 'kindword');
    await createRule(t, 'holdword', 'moderate', ['posts']);
    await createRule(t, 'pendtitle', 'moderate', ['topics']);
  });
  after(() => t.close());

  describe('new reply in a watched topic', () => {
    it('names the topic by its displayed title and links the reply at the canonical address', async () => {
      const topic = await createTopic(t, author, forum, 'Dreadword sale');
      await t.services.forum.watch(asAuthUser(watcher), topic.id);
      const posted = await reply(t, author, topic, 'Still on, rudeword and all.');

      const mail = await lastMailTo(t, watcher.email);
      assert.doesNotMatch(`${mail.subject}\n${mail.body}`, /dreadword/i);
      assert.equal(mail.subject, 'New reply in "fineword sale"');
      assert.match(mail.body, /a topic you watch: "fineword sale"/);
      assert.equal(linkIn(mail, '/topic/'), `/topic/fineword-sale.${topic.id}/?post=${posted.id}`);
      assert.ok(mail.body.includes(`/topic/fineword-sale.${topic.id}/?post=${posted.id}#post-${posted.id}`));
      assert.equal(linkIn(mail, '/profile/watchlist/'), '/profile/watchlist/');
      // The page lives at that address.
      const page = await t.app.inject({ url: `/topic/fineword-sale.${topic.id}/?post=${posted.id}` });
      assert.equal(page.statusCode, 200);
    });

    it('does the same when a moderator approves a held reply', async () => {
      const topic = await createTopic(t, author, forum, 'Another dreadword day');
      await t.services.forum.watch(asAuthUser(watcher), topic.id);
      const before = (await mailsTo(t, watcher.email)).length;
      const held = await reply(t, author, topic, 'Please holdword this');
      assert.equal((await mailsTo(t, watcher.email)).length, before, 'no mail while the reply is held');
      await t.services.forum.approvePost(held.id, asAuthUser(moderator));
      const mail = await lastMailTo(t, watcher.email);
      assert.equal(mail.subject, 'New reply in "Another fineword day"');
      assert.equal(linkIn(mail, '/topic/'), `/topic/another-fineword-day.${topic.id}/?post=${held.id}`);
    });

    it('tells no one about replies in a topic that waits for moderation', async () => {
      const topic = await createTopic(t, author, forum, 'Soon held');
      await t.services.forum.watch(asAuthUser(watcher), topic.id);
      await t.services.forum.renameTopic(topic.id, asAuthUser(author), 'Now pendtitle');
      const before = (await mailsTo(t, watcher.email)).length;
      await reply(t, author, topic, 'A reply in a held topic');
      assert.equal((await mailsTo(t, watcher.email)).length, before);
    });
  });

  describe('rejected post', () => {
    it('quotes the title and the text with the replacement rules applied', async () => {
      const topic = await createTopic(t, moderator, forum, 'Dreadword rules');
      const held = await reply(t, author, topic, 'A rudeword reply to holdword');
      await t.services.forum.rejectPost(held.id, asAuthUser(moderator));
      const mail = await lastMailTo(t, author.email);
      assert.equal(mail.subject, 'Your reply in "fineword rules" was not approved');
      assert.match(mail.body, /A kindword reply to holdword/);
      assert.doesNotMatch(mail.body, /rudeword|dreadword/i);
    });
  });
});
