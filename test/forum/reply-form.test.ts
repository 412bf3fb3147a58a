// The reply form's Quote and Preview without JavaScript (docs/formatting.md):
// "Quote" under a post opens the page holding it with the form filled with the
// quoted post; "Preview" shows the reply as it will read and posts nothing.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('quote and preview', (db) => {
  let t: TestApp;
  let writer: Member;
  let reader: Member;
  let topic: TopicWithAuthor;
  let path: string;
  let answerId: number;

  before(async () => {
    t = await db.start();
    writer = await loggedIn(t, { name: 'Quoted Quentin' });
    reader = await loggedIn(t, { name: 'Quoting Quinn' });
    const forum = await createForum(t, 'Quotes');
    topic = await createTopic(t, writer.user, forum, 'Quotable topic', 'Opening "words"');
    answerId = (await reply(t, writer.user, topic, 'Say [b]this[/b] again')).id;
    path = `/topic/quotable-topic.${topic.id}/`;
  });
  after(() => t.close());

  it('links "Quote" under every post for members, and fills the form with the quoted post', async () => {
    const page = await reader.browser.get(path);
    const quote = `${path}?post=${answerId}&quote=${answerId}#reply-heading`;
    assert.equal(dom(page).linkText(quote), `Quote post ${answerId}`);
    assert.equal(dom(page).count('article.post a.quote'), 2);
    assert.equal(dom(await new Browser(t).get(path)).count('a.quote'), 0, 'guests cannot reply, so cannot quote');

    const filled = await reader.browser.get(quote.split('#')[0]!);
    assert.equal(filled.status, 200);
    assert.equal(dom(filled).one('textarea[name="body"]').textContent, '[quote="Quoted Quentin"]Say [b]this[/b] again[/quote]\n');
    for (const bad of ['abc', '0', '99999999']) {
      const page = await reader.browser.get(`${path}?quote=${bad}`);
      assert.equal(page.status, 200, bad);
      assert.equal(dom(page).one('textarea[name="body"]').textContent, '', bad);
    }
    const elsewhere = await createTopic(t, writer.user, await createForum(t, 'Other quotes'), 'Elsewhere');
    const foreign = await reply(t, writer.user, elsewhere, 'Not from this topic');
    assert.equal(dom(await reader.browser.get(`${path}?quote=${foreign.id}`)).one('textarea[name="body"]').textContent, '');
  });

  it('previews a reply as it will read, keeps the text in the form, and posts nothing', async () => {
    await createRule(t, 'grumpy', 'replace', ['posts'], 'cheerful');
    await reader.browser.get(path);
    const state = await snapshotTables(t);
    const previewed = await reader.browser.post(`${path}reply/`, { body: 'A [i]grumpy[/i] answer', preview: '1' });
    assert.equal(previewed.status, 200);
    const preview = dom(previewed).one('section.preview .body');
    assert.equal(dom(preview).text('em'), 'cheerful');
    assert.equal(dom(previewed).one('textarea[name="body"]').textContent, 'A [i]grumpy[/i] answer');
    assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);

    const posted = await reader.browser.post(`${path}reply/`, { body: 'A [i]grumpy[/i] answer' });
    assert.equal(posted.status, 303);
    const refused = await reader.browser.post(`${path}reply/`, { body: '   ', preview: '1' });
    assert.equal(refused.status, 422, 'a preview of nothing is refused like a reply of nothing');
  });

  it('previews a new topic, title and text, and starts nothing', async () => {
    const forumPath = `/forum/quotes.${topic.forum_id}/`;
    await reader.browser.get(forumPath);
    const state = await snapshotTables(t);
    const previewed = await reader.browser.post(forumPath, { title: 'A grumpy title', body: 'The [b]grumpy[/b] text', preview: '1' });
    assert.equal(previewed.status, 200);
    assert.equal(dom(previewed).text('section.preview h3'), 'Preview: A grumpy title', 'the rule replaces in posts only, not in titles');
    assert.equal(dom(previewed).text('section.preview .body strong'), 'cheerful');
    assert.equal(dom(previewed).one('input[name="title"]').getAttribute('value'), 'A grumpy title');
    assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    assert.equal((await reader.browser.post(forumPath, { title: 'A grumpy title', body: 'The [b]grumpy[/b] text' })).status, 303);
  });
});
