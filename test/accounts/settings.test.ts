import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, createForum, createRule, createTopic, lastMailTo, linkIn, loggedIn, mailsTo } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

const NEW_PASSWORD = 'another long secret';

describeEachDatabase('/settings/', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  it('sends guests to log in', async () => {
    const response = await new Browser(t).get('/settings/');
    assert.equal(response.status, 303);
    assert.equal(response.location, '/login/?next=%2Fsettings%2F');
  });

  it('shows four labelled forms with unique ids and the current address', async () => {
    const member = await loggedIn(t, { name: 'Settings Sam' });
    const page = await member.browser.get('/settings/');
    assert.equal(page.status, 200);
    assert.equal(canonicalOf(page.body), 'http://localhost/settings/');
    assert.match(page.body, new RegExp(`Now: ${member.user.email.replace(/\./g, '\\.')}`));
    const ids = dom(page)
      .all('input[id], textarea[id]')
      .map((control) => control.id);
    assert.deepEqual(ids, [
      'email-new',
      'email-current-password',
      'password-current-password',
      'password-new',
      'password-confirmation',
      'signature',
      'avatar-file',
      'hide_online',
      'mass_mails',
    ]);
    for (const id of ids) assert.ok(dom(page).has(`label[for="${id}"]`), id);
  });

  describe('signature', () => {
    it('is saved and shown under posts and on the profile', async () => {
      const member = await loggedIn(t, { name: 'Signing Sid' });
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/signature/', { signature: 'Sid <was> here' });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/settings/?saved=signature');
      assert.match(dom(await member.browser.get(response.location!)).textContent, /Your signature is saved./);
      const forum = await createForum(t, 'Signatures');
      const topic = await createTopic(t, member.user, forum, 'Signed topic');
      const page = await new Browser(t).get(`/topic/signed-topic.${topic.id}/`);
      const signature = dom(page).one('footer.signature');
      assert.equal(signature.childNodes.length, 1, 'one paragraph');
      assert.equal(dom(signature).text('p'), 'Sid <was> here');
      assert.equal(dom(signature).count('p *'), 0, 'the signature as text, not markup');
    });

    it('goes through the signatures word filters: block and moderate refuse it (422), nothing is saved', async () => {
      await createRule(t, 'spamsig', 'block', ['signatures']);
      await createRule(t, 'reviewsig', 'moderate', ['signatures']);
      const member = await loggedIn(t, { name: 'Filtered Fio' });
      await member.browser.get('/settings/');
      const blocked = await member.browser.post('/settings/signature/', { signature: 'Buy spamsig now' });
      assert.equal(blocked.status, 422);
      assert.equal(dom(blocked).text('#signature-error'), 'The signature contains words that are not allowed here.');
      assert.equal(dom(blocked).one('textarea[name="signature"]').text, 'Buy spamsig now');
      const held = await member.browser.post('/settings/signature/', { signature: 'Please reviewsig' });
      assert.equal(held.status, 422);
      assert.match(dom(held).textContent, /The signature contains words that a moderator would have to review first./);
      assert.equal((await t.services.users.get(member.user.id)).signature, '');
    });

    it('is at most 500 characters (422 with the API message)', async () => {
      const member = await loggedIn(t);
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/signature/', { signature: 'x'.repeat(501) });
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The signature field must not be greater than 500 characters./);
    });
  });

  describe('password', () => {
    it('needs the current password (422 otherwise) and a matching repetition', async () => {
      const member = await loggedIn(t, { name: 'Guarded Gus' });
      await member.browser.get('/settings/');
      const wrong = await member.browser.post('/settings/password/', {
        current_password: 'not it at all',
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      });
      assert.equal(wrong.status, 422);
      assert.equal(dom(wrong).text('#password-current-password-error'), 'The password is incorrect.');
      const mismatch = await member.browser.post('/settings/password/', {
        current_password: TEST_PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: 'typo',
      });
      assert.equal(mismatch.status, 422);
      assert.equal(dom(mismatch).text('#password-confirmation-error'), 'The password confirmation does not match.');
      assert.equal((await new Browser(t).logIn('Guarded Gus', TEST_PASSWORD)).status, 303);
    });

    it('changes it: this browser stays logged in, every other login ends', async () => {
      const member = await loggedIn(t, { name: 'Changing Chris' });
      const elsewhere = new Browser(t);
      await elsewhere.logIn('Changing Chris', TEST_PASSWORD);
      const token = await t.services.auth.issueToken(member.user);

      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/password/', {
        current_password: TEST_PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/settings/?saved=password');
      const after = await member.browser.get(response.location!);
      assert.equal(after.status, 200, 'still logged in here');
      assert.match(dom(after).textContent, /Your password is changed./);
      assert.equal((await elsewhere.get('/settings/')).status, 303, 'the other browser is logged out');
      assert.equal((await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token.token}` } })).statusCode, 401);
      assert.equal((await new Browser(t).logIn('Changing Chris', NEW_PASSWORD)).status, 303);
      assert.equal((await lastMailTo(t, member.user.email)).subject, 'Your forum password was changed');
    });
  });

  describe('e-mail address', () => {
    it('needs the current password', async () => {
      const member = await loggedIn(t);
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/email/', { email: 'elsewhere@example.test', current_password: 'wrong password' });
      assert.equal(response.status, 422);
      assert.equal(dom(response).text('#email-current-password-error'), 'The password is incorrect.');
      assert.equal((await mailsTo(t, 'elsewhere@example.test')).length, 0);
    });

    it('changes only when the link mailed to the new address is confirmed, once; the old address is told', async () => {
      const member = await loggedIn(t, { name: 'Moving Mia' });
      const oldEmail = member.user.email;
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/email/', { email: 'mia.new@example.test', current_password: TEST_PASSWORD });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/settings/?saved=email');
      assert.equal((await t.services.users.get(member.user.id)).email, oldEmail, 'unchanged until confirmed');

      const link = linkIn(await lastMailTo(t, 'mia.new@example.test'), '/settings/email/');
      const browser = new Browser(t);
      const page = await browser.get(link);
      assert.equal(page.status, 200);
      assert.deepEqual(dom(dom(page).containing('p', 'Use mia.new@example.test for the account Moving Mia?')).texts('strong'), [
        'mia.new@example.test',
        'Moving Mia',
      ]);

      assert.equal((await t.services.users.get(member.user.id)).email, oldEmail, 'opening the link asks first');
      const confirmed = await browser.post(link, {});
      assert.equal(confirmed.status, 200);
      assert.equal((await t.services.users.get(member.user.id)).email, 'mia.new@example.test');
      assert.equal((await lastMailTo(t, oldEmail)).subject, 'Your forum e-mail address was changed');
      assert.equal((await browser.post(link, {})).status, 410);
    });

    it('answers a taken address like a free one, changes nothing, and tells the address’s owner', async () => {
      const owner = await createUser(t, { name: 'Holding Hal' });
      const member = await loggedIn(t, { name: 'Probing Pat' });
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/email/', { email: owner.email, current_password: TEST_PASSWORD });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/settings/?saved=email');
      const mails = await mailsTo(t, owner.email);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.subject, 'Someone tried to use your e-mail address');
      assert.doesNotMatch(mails[0]!.body, /\/settings\/email\//);
      assert.equal((await t.services.users.get(member.user.id)).email, member.user.email);
    });

    it('a confirmation for an address another account took meanwhile is refused (409)', async () => {
      const member = await loggedIn(t, { name: 'Slow Sol' });
      await member.browser.get('/settings/');
      await member.browser.post('/settings/email/', { email: 'contested@example.test', current_password: TEST_PASSWORD });
      const link = linkIn(await lastMailTo(t, 'contested@example.test'), '/settings/email/');
      await createUser(t, { name: 'contested' });
      const browser = new Browser(t);
      await browser.get(link);
      const response = await browser.post(link, {});
      assert.equal(response.status, 409);
      assert.match(dom(response).textContent, /contested@example.test now belongs to another account/);
    });

    it('says so when the address is already the account’s own', async () => {
      const member = await loggedIn(t);
      await member.browser.get('/settings/');
      const response = await member.browser.post('/settings/email/', { email: member.user.email.toUpperCase(), current_password: TEST_PASSWORD });
      assert.equal(response.location, '/settings/?saved=email-unchanged');
    });

    it('an unknown confirmation key is a 404', async () => {
      assert.equal((await new Browser(t).get('/settings/email/unknown-key/')).status, 404);
    });
  });
});
