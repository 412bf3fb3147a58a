// Redirects whose target comes from input, beyond the login's `next`
// (test/auth/pages.test.ts): an admin form's `return`, a guest sent to the
// login, the semantic and legacy redirects that keep the query.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';
import { createRule } from '../word-filters/helpers.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';

/** Would a browser following `location` from http://forum.test/ stay on forum.test? */
function staysOnSite(location: string | undefined): boolean {
  if (location === undefined) return false;
  // Browsers drop tabs and line breaks and read `\` as `/` before resolving.
  return new URL(location.replace(/[\t\n\r]/g, ''), 'http://forum.test/').origin === 'http://forum.test';
}

describeEachDatabase('redirect targets from input', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  it('sends an admin form back to its own section only, whatever `return` holds (never a 500)', async () => {
    const rule = await createRule(t, { pattern: 'returnpath' }, admin.user.id);
    await admin.browser.get('/admin/word-filters/');
    const cases: Array<[string, string]> = [
      ['/admin/word-filters/\t/evil.example/', '/admin/word-filters/'],
      ['/\t/evil.example/admin/word-filters/', '/admin/word-filters/'],
      ['/admin/word-filters/\r\nSet-Cookie: x=1', '/admin/word-filters/'],
      ['/admin/word-filters/\\evil', '/admin/word-filters/'],
      ['/admin/word-filters/?search=привет', '/admin/word-filters/?search=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82'],
      ['/admin/word-filters/?page=2', '/admin/word-filters/?page=2'],
    ];
    for (const [back, expected] of cases) {
      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/active/`, { is_active: '0', return: back });
      assert.equal(response.status, 303, JSON.stringify(back));
      assert.equal(response.location, expected, JSON.stringify(back));
    }
  });

  it('sends a guest to the login with the page as next, and back to it after', async () => {
    const guest = new Browser(t);
    const asked = await guest.get('/admin/word-filters/?search=%E2%82%AC&x=%09');
    assert.equal(asked.status, 303);
    const next = new URL(asked.location!, 'http://forum.test/').searchParams.get('next');
    assert.equal(next, '/admin/word-filters/?search=%E2%82%AC&x=%09');
    const member = await createUser(t, { name: 'Comes Back' });
    const back = await guest.logIn(member.username, TEST_PASSWORD, next!);
    assert.equal(back.location, next);
  });

  it('keeps a query with any characters on semantic and legacy redirects, percent-encoded', async () => {
    const author = await createUser(t, { name: 'Redirect Author' });
    const forum = await createForum(t, 'Redirects');
    const topic = await createTopic(t, author, forum, 'Where it goes');
    for (const url of [
      `/viewtopic.php?t=${topic.id}&hl=%E2%82%AC%0D%0A`,
      `/topic/old-slug.${topic.id}/?q=%E2%82%AC%0D%0A`,
      `/topic/where-it-goes.${topic.id}?q=%09//evil.example`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 301, url);
      const location = response.headers['location'] as string;
      assert.ok(staysOnSite(location), `${url} → ${location}`);
      assert.doesNotMatch(location, /[\s\u0080-\uffff]/, 'only ASCII without white space in the header');
    }
  });
});
