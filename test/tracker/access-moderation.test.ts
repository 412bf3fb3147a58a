// The moderation queue under the forums' access rule (docs/access.md): a
// forum moderator sees the held posts of the forums they moderate by the
// rule, and not those of a forum that does not exist for them (its view level
// above moderators), though a grant names them its moderator; staff see every
// held post. The moderation log stays administrators' (docs/moderation.md).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, type Member } from '../helpers/forum.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

describeEachDatabase('the moderation queue and the access rule', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let keeper: Member;
  let staff: Member;
  let author: Member;
  let open: ForumRow;
  let closed: ForumRow;
  const word = `held${randomBytes(3).toString('hex')}`;

  const held = async (forum: ForumRow): Promise<number> => {
    const topic = await createTopic(t, author.user, forum, `Topic in ${forum.name}`);
    const post = await t.services.forum.reply(topic.id, asAuthUser(author.user), `A reply with ${word} in it`);
    assert.equal(post.status, 'pending');
    return post.id;
  };

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
    keeper = await loggedIn(t);
    staff = await loggedIn(t, { role: 'moderator' });
    author = await loggedIn(t);
    open = await createForum(t, `Open ${word}`);
    closed = await createForum(t, `Closed ${word}`);
    await createRule(t, word, 'moderate', ['posts']);
  });
  after(() => t.close());

  async function setPermissions(forumId: number, view: string): Promise<void> {
    const levels = { ...OPEN_LEVELS, view };
    const grants = [{ user_id: keeper.user.id, actions: [], moderate: true }];
    const response = await t.app.inject({ method: 'PUT', url: `/api/forums/${forumId}/permissions`, headers: admin.headers, payload: { levels, grants } });
    assert.equal(response.statusCode, 200, response.body);
  }

  it('shows a forum moderator only the held posts of forums that exist for them; staff see all', async () => {
    const inOpen = await held(open);
    const inClosed = await held(closed);
    await setPermissions(open.id, 'all');
    // Named its moderator, but the forum is the admins' alone: it does not exist for the keeper.
    await setPermissions(closed.id, 'admins');
    const queue = await keeper.browser.get('/admin/moderation/');
    assert.equal(queue.status, 200);
    assert.ok(queue.body.includes(`id="pending-${inOpen}"`));
    assert.ok(!queue.body.includes(`id="pending-${inClosed}"`));
    assert.ok(!queue.body.includes(`Topic in Closed ${word}`));
    const all = await staff.browser.get('/admin/moderation/');
    for (const id of [inOpen, inClosed]) assert.ok(all.body.includes(`id="pending-${id}"`), String(id));
    // Opened to them again: the next request shows it.
    await setPermissions(closed.id, 'moderators');
    assert.ok((await keeper.browser.get('/admin/moderation/')).body.includes(`id="pending-${inClosed}"`));
  });

  it('shows a forum moderator the log of the forums that exist for them only; staff all of it', async () => {
    await setPermissions(open.id, 'all');
    await setPermissions(closed.id, 'all');
    const lockedOpen = await createTopic(t, author.user, open, `Locked in ${open.name}`);
    const lockedClosed = await createTopic(t, author.user, closed, `Locked in ${closed.name}`);
    for (const topic of [lockedOpen, lockedClosed]) {
      const locked = await t.app.inject({ method: 'POST', url: `/api/topics/${topic.id}/lock`, headers: admin.headers });
      assert.equal(locked.statusCode, 200, locked.body);
    }
    // A ban is about no forum: not a forum moderator's to read.
    const entries = async (who: { browser: { get(url: string): Promise<{ status: number; body: string }> } }) => {
      const page = await who.browser.get('/admin/moderation-log/?per_page=100');
      assert.equal(page.status, 200);
      return page.body;
    };
    const asKeeper = await entries(keeper);
    assert.ok(asKeeper.includes(`Locked in ${open.name}`) && asKeeper.includes(`Locked in ${closed.name}`));
    await setPermissions(closed.id, 'admins');
    const narrowed = await entries(keeper);
    assert.ok(narrowed.includes(`Locked in ${open.name}`));
    assert.ok(!narrowed.includes(`Locked in ${closed.name}`), 'a forum that no longer exists for them leaves their log');
    assert.ok(!narrowed.includes(`Closed ${word}`), 'and is never named');
    const all = await entries(staff);
    assert.ok(all.includes(`Locked in ${open.name}`) && all.includes(`Locked in ${closed.name}`));
    const api = await t.app.inject({ method: 'GET', url: '/api/moderation-log?per_page=100', headers: admin.headers });
    const keeperToken = await signIn(t, 'user');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/moderation-log', headers: keeperToken.headers })).statusCode, 403, 'members read none');
    assert.ok(api.json().meta.total >= 2);
  });
});
