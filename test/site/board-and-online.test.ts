// The index's board statistics and who is online (site/board-stats.ts,
// site/presence.ts): who opened a page in the last five minutes, members by
// name, guests counted by address; the figures counted at most once a minute.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Presence, ONLINE_WINDOW_MS } from '../../src/site/presence.ts';
import { atMostEvery } from '../../src/clock.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createTopic, loggedIn, type Member } from '../helpers/forum.ts';

describe('who is online', () => {
  it('names the members of the last five minutes, newest first, and counts guests by address', () => {
    const clock = new TestClock();
    const presence = new Presence(clock);
    presence.seen({ id: 1, name: 'ann' }, '10.0.0.1');
    clock.advance(1000);
    presence.seen({ id: 2, name: 'bob' }, '10.0.0.2');
    presence.seen(null, '10.0.0.3');
    presence.seen(null, '10.0.0.3');
    presence.seen(null, '10.0.0.4');
    assert.deepEqual(presence.online(), {
      members: [
        { id: 2, name: 'bob', hidden: false },
        { id: 1, name: 'ann', hidden: false },
      ],
      memberCount: 2,
      hiddenCount: 0,
      guestCount: 2,
    });

    clock.advance(1000);
    presence.seen({ id: 1, name: 'ann' }, '10.0.0.1');
    assert.deepEqual(
      presence.online().members.map((member) => member.name),
      ['ann', 'bob'],
      'a new page moves a member to the front',
    );

    clock.advance(ONLINE_WINDOW_MS - 1000);
    assert.deepEqual(
      presence.online(),
      { members: [{ id: 1, name: 'ann', hidden: false }], memberCount: 1, hiddenCount: 0, guestCount: 0 },
      'bob and the guests are gone after five minutes',
    );
    clock.advance(1000);
    assert.deepEqual(presence.online(), { members: [], memberCount: 0, hiddenCount: 0, guestCount: 0 });
  });

  it('counts a member who hides, and names them only when asked for staff', () => {
    const presence = new Presence(new TestClock());
    presence.seen({ id: 1, name: 'ann' }, '10.0.0.1');
    presence.seen({ id: 2, name: 'shy', hidesOnline: true }, '10.0.0.2');
    assert.deepEqual(presence.online(), { members: [{ id: 1, name: 'ann', hidden: false }], memberCount: 2, hiddenCount: 1, guestCount: 0 });
    assert.deepEqual(presence.online(true).members, [
      { id: 2, name: 'shy', hidden: true },
      { id: 1, name: 'ann', hidden: false },
    ]);
    presence.seen({ id: 2, name: 'shy', hidesOnline: false }, '10.0.0.2');
    assert.deepEqual(
      presence.online(),
      {
        members: [
          { id: 2, name: 'shy', hidden: false },
          { id: 1, name: 'ann', hidden: false },
        ],
        memberCount: 2,
        hiddenCount: 0,
        guestCount: 0,
      },
      'a change of mind shows at the next page',
    );
  });

  it('runs work at most once per interval, and again after a failure', async () => {
    const clock = new TestClock();
    let runs = 0;
    let fail = false;
    const counted = atMostEvery(60_000, clock, async () => {
      runs++;
      if (fail) throw new Error('database away');
      return runs;
    });
    assert.equal(await counted(), 1);
    assert.equal(await counted(), 1);
    clock.advance(60_000);
    fail = true;
    await assert.rejects(counted());
    fail = false;
    assert.equal(await counted(), 3, 'a failure is not kept');
    assert.equal(await counted(), 3);
  });
});

describeEachDatabase('the index’s statistics and who is online', (db) => {
  let t: TestApp;
  let member: Member;
  const clock = new TestClock();

  before(async () => {
    t = await db.start({ clock });
    member = await loggedIn(t, { name: 'online-member' });
    const forum = await createForum(t, 'Talk');
    await createTopic(t, member.user, forum, 'First topic');
  });
  after(() => t.close());

  it('shows the board’s figures and who opened a page in the last five minutes', async () => {
    await member.browser.get('/members/');
    await t.app.inject({ method: 'GET', url: '/', remoteAddress: '203.0.113.7' });
    const page = dom(await t.app.inject({ method: 'GET', url: '/', remoteAddress: '203.0.113.8' }));
    const stats = page.text('section.board-stats');
    assert.match(stats, /Topics: 1 · Posts: 1 · Members: 1\. The newest member is online-member\./);
    assert.match(stats, /Torrents: 0 · Total size: 0 bytes · Seeders: 0 · Leechers: 0\./);
    // The member, the guest before and the one reading (and the one who logged the member in, from the test's address).
    assert.match(stats, /Members: 1 · Guests: 3 \(in the last 5 minutes\)\. online-member$/);
    assert.deepEqual(
      page.links('section.board-stats').map((link) => link.href),
      [`/profile/online-member.${member.user.id}/`, `/profile/online-member.${member.user.id}/`],
    );

    clock.advance(ONLINE_WINDOW_MS + 1);
    const later = dom(await t.app.inject({ method: 'GET', url: '/', remoteAddress: '203.0.113.9' })).text('section.board-stats');
    assert.match(later, /Members: 0 · Guests: 1 \(in the last 5 minutes\)\.$/, 'only the one who just opened the index');
  });

  it('lets a member hide from who is online in their settings: counted, named to staff only', async () => {
    clock.advance(ONLINE_WINDOW_MS + 1);
    const shy = await loggedIn(t, { name: 'shy-member' });
    const settings = dom((await shy.browser.get('/settings/')).body);
    assert.equal(settings.one('#hide_online').hasAttribute('checked'), false);
    assert.equal((await shy.browser.post('/settings/privacy/', { hide_online: '1' })).status, 303);
    assert.ok(
      dom((await shy.browser.get('/settings/')).body)
        .one('#hide_online')
        .hasAttribute('checked'),
      'kept',
    );
    assert.equal(
      Boolean((await t.database.db.selectFrom('users').select('hide_online').where('id', '=', shy.user.id).executeTakeFirstOrThrow()).hide_online),
      true,
    );
    await shy.browser.get('/members/');

    const asGuest = dom(await t.app.inject({ method: 'GET', url: '/', remoteAddress: '192.0.2.1' })).text('section.board-stats');
    assert.match(asGuest, /Members: 1 · Guests: \d+ \(in the last 5 minutes\)\. Hidden among the members: 1\.$/);
    assert.doesNotMatch(asGuest.split('Who is online')[1]!, /shy-member/, 'not named (the newest member line may name them)');
    const admin = await loggedIn(t, { role: 'admin', name: 'online-admin' });
    const asAdmin = dom((await admin.browser.get('/')).body);
    assert.match(asAdmin.text('section.board-stats'), /Hidden among the members: 1\. online-admin, shy-member \(hidden\)$/);
    assert.equal(asAdmin.count('section.board-stats em a'), 1, 'the hidden member is marked');

    assert.equal((await shy.browser.post('/settings/privacy/', {})).status, 303);
    await shy.browser.get('/members/');
    const shown = dom(await t.app.inject({ method: 'GET', url: '/', remoteAddress: '192.0.2.2' })).text('section.board-stats');
    assert.match(shown.split('Who is online')[1]!, /shy-member/, 'shown again once the box is cleared');
  });

  it('counts no one for a page that failed or for an API call', async () => {
    clock.advance(ONLINE_WINDOW_MS + 1);
    await t.app.inject({ method: 'GET', url: '/no-such-page/', remoteAddress: '198.51.100.1' });
    await t.app.inject({ method: 'GET', url: '/api/forums', remoteAddress: '198.51.100.2' });
    const page = dom(await t.app.inject({ method: 'GET', url: '/', remoteAddress: '198.51.100.3' }));
    assert.match(page.text('section.board-stats'), /Members: 0 · Guests: 1 /, 'only the one reading');
  });
});
