import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import { RESET_KEY_MINUTES } from '../../src/accounts/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, lastMailTo, linkIn, loggedIn, mailsTo, mainText } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

const NEW_PASSWORD = 'a brand new secret';

describeEachDatabase('password recovery', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());
  afterEach(() => mock.timers.reset());

  async function ask(email: string) {
    const browser = new Browser(t);
    await browser.get('/password-recovery/');
    return browser.post('/password-recovery/', { email });
  }

  async function resetLinkFor(email: string): Promise<string> {
    await ask(email);
    return linkIn(await lastMailTo(t, email), '/password-recovery/');
  }

  describe('/password-recovery/', () => {
    it('shows a labelled form with a canonical link', async () => {
      const page = await new Browser(t).get('/password-recovery/');
      assert.equal(page.status, 200);
      assert.equal(canonicalOf(page.body), 'http://localhost/password-recovery/');
      assert.equal(dom(page).text('label[for="email"]'), 'E-mail address');
    });

    it('gives the same answer for a known and an unknown address, and mails only the known one', async () => {
      const known = await createUser(t, { name: 'Known Kate' });
      const a = await ask(known.email);
      const b = await ask('nobody.here@example.test');
      assert.equal(a.status, 200);
      assert.equal(b.status, a.status);
      assert.equal(mainText(a.body).replace(known.email, '<address>'), mainText(b.body).replace('nobody.here@example.test', '<address>'));
      assert.equal((await mailsTo(t, 'nobody.here@example.test')).length, 0);
      const mail = await lastMailTo(t, known.email);
      assert.equal(mail.subject, 'Choose a new forum password');
      assert.match(linkIn(mail, '/password-recovery/'), /^\/password-recovery\/[\w-]{40,}\/$/);
    });

    it('mails an account that is not activated yet a new activation link instead', async () => {
      const pending = await createUser(t, { name: 'Pending Pia', status: 'pending' });
      await ask(pending.email);
      const mail = await lastMailTo(t, pending.email);
      assert.match(linkIn(mail, '/activate/'), new RegExp(`^/activate/${pending.id}/`));
    });

    it('validates the address with the API’s message (422)', async () => {
      const response = await ask('not an address');
      assert.equal(response.status, 422);
      assert.equal(dom(response).text('#email-error'), 'The email field must be a valid email address.');
    });
  });

  describe('/password-recovery/{key}/', () => {
    it('sets the new password once, and every existing login of the account ends', async () => {
      const member = await loggedIn(t, { name: 'Resetting Rob' });
      const token = await t.services.auth.issueToken(member.user);
      const link = await resetLinkFor(member.user.email);

      const browser = new Browser(t);
      const page = await browser.get(link);
      assert.equal(page.status, 200);
      assert.deepEqual(dom(dom(page).containing('p', 'For the account Resetting Rob')).texts('strong'), ['Resetting Rob']);
      assert.equal(dom(page).text('label[for="password"]'), 'New password');

      const done = await browser.post(link, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
      assert.equal(done.status, 200);
      assert.match(dom(done).textContent, /The password of Resetting Rob is changed/);

      assert.equal((await member.browser.get('/settings/')).status, 303, 'the old session has ended');
      const api = await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token.token}` } });
      assert.equal(api.statusCode, 401, 'API tokens are revoked');
      assert.equal((await new Browser(t).logIn('Resetting Rob', TEST_PASSWORD)).status, 401);
      assert.equal((await new Browser(t).logIn('Resetting Rob', NEW_PASSWORD)).status, 303);
      assert.equal((await lastMailTo(t, member.user.email)).subject, 'Your forum password was changed');

      const again = await browser.post(link, { password: 'yet another one', password_confirmation: 'yet another one' });
      assert.equal(again.status, 410);
      assert.equal((await new Browser(t).logIn('Resetting Rob', NEW_PASSWORD)).status, 303);
    });

    it('a newer link makes older ones unusable once one is used', async () => {
      const user = await createUser(t, { name: 'Twice Tim' });
      const first = await resetLinkFor(user.email);
      const second = await resetLinkFor(user.email);
      const browser = new Browser(t);
      await browser.get(second);
      assert.equal((await browser.post(second, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).status, 200);
      assert.equal((await new Browser(t).get(first)).status, 410);
    });

    it('shows the form again for a short or mismatched password (422) and changes nothing', async () => {
      const user = await createUser(t, { name: 'Careful Cal' });
      const link = await resetLinkFor(user.email);
      const browser = new Browser(t);
      await browser.get(link);
      const short = await browser.post(link, { password: 'short', password_confirmation: 'short' });
      assert.equal(short.status, 422);
      assert.match(dom(short).textContent, /The password field must be at least 8 characters./);
      const mismatch = await browser.post(link, { password: NEW_PASSWORD, password_confirmation: 'other words' });
      assert.equal(mismatch.status, 422);
      assert.match(dom(mismatch).textContent, /The password confirmation does not match./);
      assert.equal((await new Browser(t).logIn('Careful Cal', TEST_PASSWORD)).status, 303);
      // The key still works after a failed attempt.
      assert.equal((await browser.post(link, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).status, 200);
    });

    it('is a 404 for an unknown key and a 410 for an expired one', async () => {
      assert.equal((await new Browser(t).get('/password-recovery/not-a-real-key/')).status, 404);
      const user = await createUser(t, { name: 'Slow Sue' });
      const link = await resetLinkFor(user.email);
      mock.timers.enable({ apis: ['Date'], now: Date.now() + (RESET_KEY_MINUTES + 1) * 60 * 1000 });
      const response = await new Browser(t).get(link);
      assert.equal(response.status, 410);
      assert.match(dom(response).textContent, /This password link has expired./);
    });

    it('an activation key does not open the reset page', async () => {
      const pending = await createUser(t, { name: 'Crossed Cleo', status: 'pending' });
      await ask(pending.email);
      const key = linkIn(await lastMailTo(t, pending.email), '/activate/').split('/')[3]!;
      assert.equal((await new Browser(t).get(`/password-recovery/${key}/`)).status, 404);
    });
  });
});
