// Where a redirect built from input may lead (issue 27, item 2): the check
// itself, and the login's `next` both ways a browser meets it (a signed-in
// visitor of /login/ is sent on at once; the form sends there after sign-in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { localPath } from '../../src/http/local-path.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { LOCAL_TARGETS, OFF_SITE_TARGETS, offSiteTarget, staysOnSite } from '../fuzz/redirect-targets.ts';

describe('localPath', () => {
  it('falls back for every spelling of another host, scheme or unsendable value', () => {
    for (const target of OFF_SITE_TARGETS) assert.equal(localPath(target), '/', JSON.stringify(target));
    for (const target of OFF_SITE_TARGETS) assert.equal(localPath(target, '/admin/'), '/admin/', JSON.stringify(target));
  });

  it('keeps a local path, normalised and percent-encoded', () => {
    for (const [target, expected] of LOCAL_TARGETS) assert.equal(localPath(target), expected, JSON.stringify(target));
  });

  it('never answers a target that leaves the site, however it is built', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          offSiteTarget(),
          fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `/${text}`),
        ),
        (target) => {
          const answer = localPath(target);
          assert.ok(answer === '/' || staysOnSite(answer), `${JSON.stringify(target)} → ${JSON.stringify(answer)}`);
        },
      ),
      { numRuns: 2000, seed: 27 },
    );
  });

  it('refuses values that are not text', () => {
    for (const value of [undefined, null, 1, ['/settings/'], { path: '/settings/' }]) assert.equal(localPath(value), '/');
  });
});

describeEachDatabase('the login’s next', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
    await createUser(t, { name: 'Next Walker' });
  });
  after(() => t.close());

  it('sends a signed-in visitor of /login/ home for every off-site next', async () => {
    const member = new Browser(t);
    assert.equal((await member.logIn('Next Walker', TEST_PASSWORD)).status, 303);
    for (const next of OFF_SITE_TARGETS) {
      const response = await member.get(`/login/?next=${encodeURIComponent(next)}`);
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.location, '/', JSON.stringify(next));
    }
    for (const [next, expected] of LOCAL_TARGETS) assert.equal((await member.get(`/login/?next=${encodeURIComponent(next)}`)).location, expected);
  });

  it('puts only a local next into the form', async () => {
    for (const next of OFF_SITE_TARGETS) {
      const page = await new Browser(t).get(`/login/?next=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200, JSON.stringify(next));
      assert.equal(dom(page).attr('input[type="hidden"][name="next"]', 'value'), '/', JSON.stringify(next));
    }
  });

  it('sends home after sign-in when the form’s next leads off the site', async () => {
    for (const next of OFF_SITE_TARGETS) {
      const browser = new Browser(t);
      await browser.get('/login/');
      const response = await browser.post('/login/', { username: 'Next Walker', password: TEST_PASSWORD, next });
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.location, '/', JSON.stringify(next));
    }
    for (const [next, expected] of LOCAL_TARGETS) assert.equal((await new Browser(t).logIn('Next Walker', TEST_PASSWORD, next)).location, expected);
  });
});
