// "Last post by … at …" on the forum index, forum pages and the watchlist:
// the newest published post (a held reply is not named), its author linked,
// its time linked to the post; a forum without posts shows a dash.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

describeEachDatabase('last post lines', (db) => {
  let t: TestApp;
  let opener: Member;
  let replier: Member;

  before(async () => {
    t = await db.start();
    opener = await loggedIn(t, { name: 'Opener Olga' });
    replier = await loggedIn(t, { name: 'Replier Rolf' });
  });
  after(() => t.close());

  it('names the newest published post of each forum and topic, never a held one', async () => {
    const forum = await createForum(t, 'Last posts here');
    await createForum(t, 'Nothing yet');
    await createTopic(t, opener.user, forum, 'Older topic');
    const newer = await createTopic(t, opener.user, forum, 'Newer topic');
    const answer = await reply(t, replier.user, newer, 'The newest published reply');
    await createRule(t, 'heldlastpost', 'moderate', ['posts']);
    await reply(t, opener.user, newer, 'A heldlastpost reply waits');

    const index = await new Browser(t).get('/');
    const row = (name: string) =>
      dom(index)
        .all('table.forums tbody tr')
        .find((tr) => dom(tr).textContent.includes(name))!;
    const cell = dom(row('Last posts here')).all('td')[3]!;
    const newerPath = `/topic/newer-topic.${newer.id}/`;
    assert.equal(dom(cell).linkText(`${newerPath}?post=${answer.id}#post-${answer.id}`), 'Newer topic');
    assert.match(dom(cell).textContent, /by Replier Rolf, \d+ \w+ \d{4}, \d\d:\d\d UTC/);
    assert.equal(dom(cell).linkText(`/profile/replier-rolf.${replier.user.id}/`), 'Replier Rolf');
    assert.equal(dom(dom(row('Nothing yet')).all('td')[3]!).textContent.trim(), '—');

    const forumPage = await new Browser(t).get(`/forum/last-posts-here.${forum.id}/`);
    const topicRow = (title: string) =>
      dom(forumPage)
        .all('table.topics tbody tr')
        .find((tr) => dom(tr).textContent.includes(title))!;
    const last = dom(topicRow('Newer topic')).all('td')[4]!;
    assert.match(dom(last).textContent, /by Replier Rolf/);
    assert.ok(dom(last).has(`a[href="${newerPath}?post=${answer.id}#post-${answer.id}"] time`));
    assert.match(dom(dom(topicRow('Older topic')).all('td')[4]!).textContent, /by Opener Olga/);

    await t.services.forum.watch(asAuthUser(replier.user), newer.id);
    const watchlist = await replier.browser.get('/profile/watchlist/');
    assert.match(dom(dom(watchlist).one('table.topics tbody tr')).textContent, /by Replier Rolf/);
  });
});
