import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import { ACCOUNT_MAILS_PER_HOUR, ACTIVATION_KEY_DAYS } from '../../src/accounts/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, createRule, lastMailTo, linkIn, loggedIn, mailsTo, mainText } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

const PASSWORD = 'a long secret';

describeEachDatabase('registration and activation', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());
  afterEach(() => mock.timers.reset());

  const form = (username: string, email: string, extra: Record<string, string> = {}) => ({
    username,
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    ...extra,
  });

  async function register(values: Record<string, string>): Promise<{ browser: Browser; response: Awaited<ReturnType<Browser['post']>> }> {
    const browser = new Browser(t);
    await browser.get('/register/');
    return { browser, response: await browser.post('/register/', values) };
  }

  const userNamed = (name: string) => t.services.users.repository.findByUsername(name);

  describe('/register/', () => {
    it('shows a labelled form with a CSRF field and a canonical link', async () => {
      const page = await new Browser(t).get('/register/');
      assert.equal(page.status, 200);
      assert.equal(canonicalOf(page.body), 'http://localhost/register/');
      for (const [id, label] of [
        ['username', 'User name'],
        ['email', 'E-mail address'],
        ['password', 'Password'],
        ['password_confirmation', 'Repeat the password'],
      ]) {
        assert.equal(dom(page).text(`label[for="${id}"]`), label, id);
        assert.ok(dom(page).has(`form input#${id}`), id);
      }
      assert.match(dom(page).fields('form:has(#username)')['_csrf'] as string, /^[\w-]{20,}$/);
    });

    it('creates a pending account and mails an activation link; the key is stored only as a hash', async () => {
      const { response } = await register(form('Fresh Fern', 'fern@example.test'));
      assert.equal(response.status, 200);
      assert.match(mainText(response.body), /We sent a mail to fern@example\.test\./);
      const user = await userNamed('Fresh Fern');
      assert.equal(user?.status, 'pending');
      assert.equal(user?.role, 'user');

      const mail = await lastMailTo(t, 'fern@example.test');
      assert.equal(mail.subject, 'Activate your forum account');
      const link = linkIn(mail, '/activate/');
      const match = /^\/activate\/(\d+)\/([\w-]+)\/$/.exec(link);
      assert.ok(match, link);
      assert.equal(Number(match[1]), user!.id);
      const keys = await t.database.db.selectFrom('account_keys').selectAll().where('user_id', '=', user!.id).execute();
      assert.equal(keys.length, 1);
      assert.equal(keys[0]!.purpose, 'activation');
      assert.equal(keys[0]!.key_hash, createHash('sha256').update(match[2]!).digest('hex'));
      assert.notEqual(keys[0]!.key_hash, match[2]);
    });

    it('does not let a pending account log in', async () => {
      await register(form('Waiting Wes', 'wes@example.test'));
      const response = await new Browser(t).logIn('Waiting Wes', PASSWORD);
      assert.equal(response.status, 403);
      assert.match(dom(response).textContent, /not activated yet/);
    });

    it('answers a taken address exactly like a new one, creates nothing, and mails the owner instead', async () => {
      const owner = await createUser(t, { name: 'Owner Olga' });
      const fresh = await register(form('Someone New', 'someone.new@example.test'));
      const taken = await register(form('Someone Else', owner.email));
      assert.equal(taken.response.status, fresh.response.status);
      const text = (body: string, address: string) => mainText(body).replace(address, '<address>');
      assert.equal(text(taken.response.body, owner.email), text(fresh.response.body, 'someone.new@example.test'));
      assert.equal(await userNamed('Someone Else'), undefined);

      const mails = await mailsTo(t, owner.email);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.subject, 'Someone tried to register with your address');
      assert.doesNotMatch(mails[0]!.body, /\/activate\//);
    });

    it('treats the address case-insensitively, like the unique key', async () => {
      const owner = await createUser(t, { name: 'Case Carla' });
      const { response } = await register(form('Case Copy', owner.email.toUpperCase()));
      assert.equal(response.status, 200);
      assert.equal(await userNamed('Case Copy'), undefined);
      assert.equal((await mailsTo(t, owner.email)).length, 1);
    });

    it('sends a fresh activation link when the taken address belongs to an account not activated yet', async () => {
      await register(form('Forgetful Finn', 'finn@example.test'));
      await register(form('Forgetful Finn Again', 'finn@example.test'));
      const mails = await mailsTo(t, 'finn@example.test');
      assert.equal(mails.length, 2);
      const finn = await userNamed('Forgetful Finn');
      const link = linkIn(mails[1]!, '/activate/');
      assert.match(link, new RegExp(`^/activate/${finn!.id}/`));
      const browser = new Browser(t);
      await browser.get(link);
      assert.equal((await browser.post(link, {})).status, 200);
      assert.equal((await userNamed('Forgetful Finn'))?.status, 'active');
    });

    it('reports a taken user name (profiles are public), whatever the case', async () => {
      await createUser(t, { name: 'Taken Tom' });
      const { response } = await register(form('taken tom', 'another.tom@example.test'));
      assert.equal(response.status, 422);
      assert.equal(dom(response).text('p.field-error#username-error'), 'The username has already been taken.');
      assert.equal((await mailsTo(t, 'another.tom@example.test')).length, 0);
    });

    it('shows every invalid field with the API’s messages (422), keeps the values, writes nothing', async () => {
      const { response } = await register({ username: 'ab', email: 'not-an-address', password: 'short', password_confirmation: 'different' });
      assert.equal(response.status, 422);
      assert.equal(dom(response).text('#username-error'), 'The username field must be at least 3 characters.');
      assert.equal(dom(response).text('#email-error'), 'The email field must be a valid email address.');
      assert.equal(dom(response).text('#password-error'), 'The password field must be at least 8 characters.');
      assert.equal(dom(response).text('#password_confirmation-error'), 'The password confirmation does not match.');
      assert.equal(dom(response).attr('input#email[name="email"][type="email"]', 'value'), 'not-an-address');
      assert.ok(
        dom(response)
          .all('[value]')
          .every((element) => element.getAttribute('value') !== 'short'),
        'passwords are not sent back',
      );
      assert.equal(await userNamed('ab'), undefined);
    });

    it('requires the repeated password to match', async () => {
      const { response } = await register(form('Mismatch Max', 'max@example.test', { password_confirmation: 'something else' }));
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The password confirmation does not match./);
      assert.equal(await userNamed('Mismatch Max'), undefined);
    });

    it('runs the usernames word filters: block and moderate refuse the name, and so does a replace rule', async () => {
      await createRule(t, 'badname', 'block', ['usernames']);
      await createRule(t, 'iffyname', 'moderate', ['usernames']);
      await createRule(t, 'oldname', 'replace', ['usernames'], 'newname');
      const blocked = await register(form('The badname', 'blocked.name@example.test'));
      assert.equal(blocked.response.status, 422);
      assert.equal(dom(blocked.response).text('#username-error'), 'The username contains words that are not allowed here.');
      const moderated = await register(form('An iffyname', 'iffy.name@example.test'));
      assert.equal(
        dom(moderated.response).text('#username-error'),
        'The username contains words that a moderator would have to review first. Please rephrase it.',
      );
      const replaced = await register(form('My oldname', 'replaced.name@example.test'));
      assert.equal(replaced.response.status, 422);
      for (const name of ['The badname', 'An iffyname', 'My oldname', 'My newname']) assert.equal(await userNamed(name), undefined, name);
      assert.equal((await mailsTo(t, 'blocked.name@example.test')).length, 0);
    });

    it('refuses a form without the CSRF token (403)', async () => {
      const browser = new Browser(t);
      await browser.get('/register/');
      const response = await browser.post('/register/', { ...form('Forged Fay', 'fay@example.test'), _csrf: 'forged-token-value-123' });
      assert.equal(response.status, 403);
      assert.equal(await userNamed('Forged Fay'), undefined);
    });

    it('sends members who are logged in back to the forums', async () => {
      const member = await loggedIn(t);
      const response = await member.browser.get('/register/');
      assert.equal(response.status, 303);
      assert.equal(response.location, '/');
    });

    it(`mails one address at most ${ACCOUNT_MAILS_PER_HOUR} times an hour, whatever is asked`, async () => {
      const owner = await createUser(t, { name: 'Flooded Flo' });
      for (let i = 0; i < ACCOUNT_MAILS_PER_HOUR + 2; i++) {
        const { response } = await register(form(`Flood Try ${i}`, owner.email));
        assert.equal(response.status, 200);
      }
      assert.equal((await mailsTo(t, owner.email)).length, ACCOUNT_MAILS_PER_HOUR);
    });
  });

  describe('/activate/{user_id}/{key}/', () => {
    async function pendingAccount(name: string, email: string): Promise<{ id: number; link: string }> {
      await register(form(name, email));
      const user = await userNamed(name);
      return { id: user!.id, link: linkIn(await lastMailTo(t, email), '/activate/') };
    }

    it('asks before activating (a link opened by a mail scanner changes nothing), then activates once', async () => {
      const { id, link } = await pendingAccount('Active Ada', 'ada@example.test');
      const browser = new Browser(t);
      const page = await browser.get(link);
      assert.equal(page.status, 200);
      assert.ok(dom(page).texts('button[type="submit"]').includes('Activate my account'));
      assert.equal(dom(page).attr('meta[name="robots"]', 'content'), 'noindex');

      assert.equal((await t.services.users.get(id)).status, 'pending');

      const activated = await browser.post(link, {});
      assert.equal(activated.status, 200);
      assert.match(dom(activated).textContent, /Your account is active./);
      assert.equal((await t.services.users.get(id)).status, 'active');
      assert.equal((await new Browser(t).logIn('Active Ada', PASSWORD)).status, 303);

      const again = await browser.post(link, {});
      assert.equal(again.status, 410);
      assert.match(dom(again).textContent, /This activation link was already used./);
      assert.equal((await new Browser(t).get(link)).status, 410);
    });

    it('lets only one of two simultaneous activations through', async () => {
      const { link } = await pendingAccount('Racing Rae', 'rae@example.test');
      const browsers = [new Browser(t), new Browser(t)];
      for (const browser of browsers) await browser.get(link);
      const statuses = (await Promise.all(browsers.map((browser) => browser.post(link, {})))).map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 410]);
    });

    it('is a 404 for a wrong key, another user’s id or a malformed id', async () => {
      const { id, link } = await pendingAccount('Wrong Walt', 'walt@example.test');
      const key = link.split('/')[3]!;
      const other = await createUser(t, { name: 'Other Otto', status: 'pending' });
      for (const path of [`/activate/${id}/not-the-key/`, `/activate/${other.id}/${key}/`, `/activate/abc/${key}/`, `/activate/0${id}/${key}/`]) {
        const response = await new Browser(t).get(path);
        assert.equal(response.status, 404, path);
      }
      assert.equal((await t.services.users.get(id)).status, 'pending');
    });

    it(`is a 410 once the key is older than ${ACTIVATION_KEY_DAYS} days`, async () => {
      const { id, link } = await pendingAccount('Late Lena', 'lena@example.test');
      mock.timers.enable({ apis: ['Date'], now: Date.now() + (ACTIVATION_KEY_DAYS * 24 + 1) * 60 * 60 * 1000 });
      const browser = new Browser(t);
      await browser.get('/login/'); // the CSRF token for the POST below
      const page = await browser.get(link);
      assert.equal(page.status, 410);
      assert.match(dom(page).textContent, /This activation link has expired./);
      assert.equal((await browser.post(link, {})).status, 410);
      assert.equal((await t.services.users.get(id)).status, 'pending');
    });

    it('never lifts a ban', async () => {
      const { id, link } = await pendingAccount('Banned Ben', 'ben@example.test');
      await t.services.users.update(id, { status: 'banned' });
      const browser = new Browser(t);
      await browser.get(link);
      assert.equal((await browser.post(link, {})).status, 403);
      assert.equal((await t.services.users.get(id)).status, 'banned');
    });
  });
});
