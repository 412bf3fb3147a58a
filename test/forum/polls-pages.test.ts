// Polls on the pages, without JavaScript (docs/polls.md): started with a new
// topic or added to one, voted on, shown with their counts where the reader
// may see them, refused with the reason in the page, closed and deleted by
// the author, in English and in Russian.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { forumPath } from '../../src/urls/paths.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { loggedIn, type Member } from '../helpers/forum.ts';

describeEachDatabase('polls on the pages', (db) => {
  let t: TestApp;
  let author: Member;
  let voter: Member;
  let forum: ForumRow;

  /** Starts a topic with a poll through the forum page's form; answers the topic page's path. */
  async function startTopic(poll: Record<string, string>): Promise<string> {
    await author.browser.get(forumPath(forum));
    const posted = await author.browser.post(forumPath(forum), { title: 'Best seeding client', body: 'Tell us.', ...poll });
    assert.equal(posted.status, 303, posted.body);
    return posted.location!;
  }

  before(async () => {
    t = await db.start();
    author = await loggedIn(t, { name: 'Poll Author' });
    voter = await loggedIn(t, { name: 'Poll Voter' });
    forum = await t.services.forum.createForum({ name: 'Poll pages' });
  });
  after(() => t.close());

  describe('starting one', () => {
    it('offers the poll fields on the new-topic form, and starts the topic with its poll', async () => {
      const forumPage = dom(await author.browser.get(forumPath(forum)));
      assert.ok(forumPage.has('details.poll-fields textarea[name="poll_options"]'));
      const path = await startTopic({ poll_question: 'Which client?', poll_options: 'qBittorrent\r\n\r\nTransmission\nDeluge\n', poll_max_choices: '1' });
      const page = dom(await voter.browser.get(path));
      assert.equal(page.text('#poll-question'), 'Poll: Which client?');
      assert.deepEqual(
        page.all('section.poll input[type="radio"]').map((input) => input.getAttribute('name')),
        ['option_ids', 'option_ids', 'option_ids'],
      );
      assert.match(page.text('section.poll'), /0 voters/);
      assert.match(page.text('section.poll'), /The results are shown once you have voted/);
    });

    it('shows the form again with what was typed and why, and starts nothing', async () => {
      const topicsBefore = (await t.services.forum.listTopics(forum.id, null, { page: 1, perPage: 100, offset: 0 })).total;
      await author.browser.get(forumPath(forum));
      const refused = await author.browser.post(forumPath(forum), { title: 'Refused', body: 'Text.', poll_question: 'Only one answer?', poll_options: 'Yes' });
      assert.equal(refused.status, 422);
      const page = dom(refused);
      assert.equal(page.one('details.poll-fields').hasAttribute('open'), true);
      assert.equal(page.attr('input[name="poll_question"]', 'value'), 'Only one answer?');
      assert.match(page.text('details.poll-fields'), /A poll has 2 to 50 answers/);
      assert.equal((await t.services.forum.listTopics(forum.id, null, { page: 1, perPage: 100, offset: 0 })).total, topicsBefore);
      const long = await author.browser.post(forumPath(forum), {
        title: 'Long',
        body: 'Text.',
        poll_question: 'Long?',
        poll_options: `Yes\n${'x'.repeat(256)}`,
      });
      assert.equal(long.status, 422);
      assert.match(dom(long).text('details.poll-fields'), /An answer is longer than 255 characters/);
    });

    it('is added to a topic by its author, from the topic page', async () => {
      const topic = await t.services.forum.createTopic(
        { id: author.user.id, name: author.user.username, email: author.user.email, role: 'user' },
        {
          forum_id: forum.id,
          title: 'Poll added later',
          body: 'Text.',
        },
      );
      const path = (await t.services.presenter.heading(topic)).path;
      assert.ok(!dom(await voter.browser.get(path)).has('section.poll-add'), 'not for other members');
      assert.ok(dom(await author.browser.get(path)).has('section.poll-add'));
      const added = await author.browser.post(`${path}poll/add/`, {
        poll_question: 'Added?',
        poll_options: 'Yes\nNo',
        poll_max_choices: '1',
        poll_results: 'always',
      });
      assert.equal(added.status, 303);
      const page = dom(await voter.browser.get(path));
      assert.equal(page.text('#poll-question'), 'Poll: Added?');
      assert.ok(!page.has('section.poll-add'));
    });
  });

  describe('voting', () => {
    it('takes a vote, then shows the counts and the voter’s answer instead of the form', async () => {
      const path = await startTopic({ poll_question: 'Seed ratio goal?', poll_options: '1.0\n2.0\n5.0' });
      const form = dom(await voter.browser.get(path));
      const second = form.all('section.poll input[type="radio"]')[1]!.getAttribute('value')!;
      const voted = await voter.browser.post(`${path}poll/vote/`, { option_ids: second });
      assert.equal(voted.status, 303);
      assert.match(voted.location!, /#poll-question$/);
      const page = dom(await voter.browser.get(path));
      assert.ok(!page.has('section.poll form[action$="poll/vote/"]'), 'voted: no form (no change allowed)');
      assert.deepEqual(page.texts('.poll-results li .count'), ['0 votes · 0%', '1 vote · 100%', '0 votes · 0%']);
      assert.match(page.text('.poll-results li:nth-child(2)'), /your answer/);
      // Again, as if from an old tab: refused in the page, 409.
      const again = await voter.browser.post(`${path}poll/vote/`, { option_ids: second });
      assert.equal(again.status, 409);
      assert.match(dom(again).text('section.poll'), /You have already voted in this poll/);
    });

    it('refuses a vote without an answer in the page (422), and takes several answers where allowed', async () => {
      const path = await startTopic({ poll_question: 'Which trackers?', poll_options: 'Public\nPrivate\nBoth', poll_max_choices: '2', poll_allow_change: '1' });
      await voter.browser.get(path);
      const empty = await voter.browser.post(`${path}poll/vote/`, {});
      assert.equal(empty.status, 422);
      assert.match(dom(empty).text('section.poll'), /Choose an answer of this poll/);
      const boxes = dom(empty)
        .all('section.poll input[type="checkbox"]')
        .map((input) => input.getAttribute('value')!);
      assert.equal(boxes.length, 3);
      assert.equal((await voter.browser.post(`${path}poll/vote/`, { option_ids: boxes })).status, 422, 'three of two');
      assert.equal((await voter.browser.post(`${path}poll/vote/`, { option_ids: [boxes[0]!, boxes[2]!] })).status, 303);
      const page = dom(await voter.browser.get(path));
      assert.deepEqual(
        page.all('section.poll input[type="checkbox"]').map((input) => input.hasAttribute('checked')),
        [true, false, true],
      );
      assert.equal(page.text('section.poll form button'), 'Change vote');
      assert.equal((await voter.browser.post(`${path}poll/retract/`, {})).status, 303);
      assert.match(dom(await voter.browser.get(path)).text('section.poll'), /0 voters/);
    });

    it('asks a guest to log in, and shows the counts to nobody before they may see them', async () => {
      const path = await startTopic({ poll_question: 'Secret ballot?', poll_options: 'Yes\nNo', poll_results: 'after_end' });
      const guest = dom(await new Browser(t).get(path));
      assert.ok(!guest.has('section.poll form[action$="poll/vote/"]'));
      assert.match(guest.text('section.poll'), /Log in to vote/);
      assert.equal(guest.count('.poll-results .count'), 0);
    });
  });

  describe('closing and deleting', () => {
    it('lets the author close, reopen and delete the poll; others see no such buttons', async () => {
      const path = await startTopic({ poll_question: 'Closing soon?', poll_options: 'Yes\nNo' });
      assert.ok(!dom(await voter.browser.get(path)).has('form[action$="poll/close/"]'));
      const refused = await voter.browser.post(`${path}poll/close/`, {});
      assert.equal(refused.status, 403);
      const page = dom(await author.browser.get(path));
      assert.ok(page.has('form[action$="poll/close/"]'));
      assert.equal((await author.browser.post(`${path}poll/close/`, {})).status, 303);
      const closed = dom(await voter.browser.get(path));
      assert.match(closed.text('section.poll'), /Closed/);
      assert.ok(!closed.has('form[action$="poll/vote/"]'));
      assert.equal((await author.browser.post(`${path}poll/reopen/`, {})).status, 303);
      assert.ok(dom(await voter.browser.get(path)).has('form[action$="poll/vote/"]'));
      assert.equal((await author.browser.post(`${path}poll/delete/`, {})).status, 303);
      assert.ok(!dom(await voter.browser.get(path)).has('section.poll'));
    });
  });

  describe('in Russian', () => {
    it('names the poll, its counts and its buttons in Russian, plural forms included', async () => {
      const path = await startTopic({ poll_question: 'Какой клиент?', poll_options: 'Один\nДругой', poll_results: 'always' });
      const russian = new Browser(t, { 'accept-language': 'ru' });
      const page = dom(await russian.get(path));
      assert.equal(page.text('#poll-question'), 'Опрос: Какой клиент?');
      assert.match(page.text('section.poll'), /0 проголосовавших/);
      assert.deepEqual(page.texts('.poll-results li .count'), ['0 голосов · 0%', '0 голосов · 0%']);
    });
  });
});
