// Page forms read form encodings only (issue 27, item 5): JSON, deeply nested
// JSON and any other body to a page route is a 415 with a clear message, for
// every page route that takes a body, before login and after; the JSON API
// and the forms themselves are unchanged. Routes that take uploads judge the
// caller before anything looks at the body (issue 27, item 4): a guest is
// sent to log in there whatever was sent.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { GUEST_CSRF_COOKIE } from '../../src/auth/csrf.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';
import { readOperations } from '../fuzz/operations.ts';
import { uploadRoutes } from '../../src/http/multipart.ts';

const GUEST_TOKEN = 'formBodiesGuestToken_0123456789';
const MESSAGE = 'This address takes forms only: send the form as application/x-www-form-urlencoded or multipart/form-data.';

/** `{"_csrf": token, "<field>": <levels nested arrays>}`, written out as text. */
function deepJson(token: string, field: string, levels: number): string {
  return `{"_csrf":${JSON.stringify(token)},${JSON.stringify(field)}:${'['.repeat(levels)}${']'.repeat(levels)}}`;
}

/** Bodies a page route must refuse: [content type (none: header left out), payload, what it is]. */
function refusedBodies(token: string): Array<[string | undefined, string, string]> {
  return [
    ['application/json', deepJson(token, 'email', 5000), 'JSON nested 5,000 deep'],
    ['application/json', deepJson(token, 'username', 50_000), 'JSON nested 50,000 deep'],
    ['application/json', JSON.stringify({ _csrf: token, email: 'a@example.test', username: 'x', password: 'y' }), 'flat JSON'],
    ['application/json; charset=utf-8', JSON.stringify({ _csrf: token }), 'JSON with a charset'],
    ['APPLICATION/JSON', JSON.stringify({ _csrf: token }), 'JSON in capitals'],
    ['application/vnd.api+json', JSON.stringify({ _csrf: token }), 'a JSON dialect'],
    ['text/plain', `_csrf=${token}`, 'text/plain (an enctype browsers allow)'],
    ['application/xml', '<a/>', 'XML'],
    ['application/octet-stream', 'x', 'bytes'],
    [undefined, `_csrf=${token}`, 'a body without a content type'],
  ];
}

describeEachDatabase('page form bodies', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let forumId: number;
  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    // Somewhere to attach a .torrent, so that the upload page's own check lets the admin through to the body.
    forumId = (await t.services.forum.createForum({ name: 'Uploads', description: '' })).id;
  });
  after(() => t.close());

  const guestPost = (url: string, contentType: string | undefined, payload: string) =>
    t.app.inject({
      method: 'POST',
      url,
      cookies: { [GUEST_CSRF_COOKIE]: GUEST_TOKEN },
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      payload,
    });

  it('answers deeply nested JSON to the guest forms with 415 and the reason, not a 500', async () => {
    await createUser(t, { name: 'Deep Json' });
    for (const url of ['/password-recovery/', '/login/', '/register/']) {
      const before = await snapshotTables(t);
      const response = await guestPost(url, 'application/json', deepJson(GUEST_TOKEN, 'email', 5000));
      assert.equal(response.statusCode, 415, `${url}: ${response.body.slice(0, 300)}`);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.ok(response.body.includes(MESSAGE), url);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), [], url);
    }
  });

  it('refuses every body but a form on every page route that takes one, as a guest and as an admin', async () => {
    const routes = (await readOperations(t)).filter((operation) => !operation.path.startsWith('/api/') && !['GET', 'HEAD'].includes(operation.method));
    assert.ok(routes.length > 50, `only ${routes.length} page routes with a body`);
    const bodies = refusedBodies(GUEST_TOKEN);
    const deepAsAdmin = deepJson(admin.browser.csrf ?? '', 'title', 5000);
    const uploads = new Set(uploadRoutes(t.app).map((route) => route.url.replace(/:(\w+)/g, '{$1}')));
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'segment' ? 'x.1' : name === 'kind' ? 'custom' : '1'));
      const url = path === '/tracker/upload/' ? `${path}?forum=${forumId}` : path;
      for (const [contentType, payload, what] of bodies) {
        const asGuest = await t.app.inject({
          method: route.method as 'POST',
          url,
          cookies: { [GUEST_CSRF_COOKIE]: GUEST_TOKEN },
          headers: contentType === undefined ? {} : { 'content-type': contentType },
          payload,
        });
        const label = `${route.method} ${url} as a guest, ${what}: ${asGuest.statusCode}`;
        if (uploads.has(route.path)) {
          assert.equal(asGuest.statusCode, 303, label);
          assert.match(String(asGuest.headers.location), /^\/login\/\?next=/, label);
        } else assert.equal(asGuest.statusCode, 415, label);
      }
      const json = await t.app.inject({
        method: route.method as 'POST',
        url,
        cookies: Object.fromEntries(admin.browser.cookies),
        headers: { 'content-type': 'application/json', 'x-csrf-token': admin.browser.csrf ?? '' },
        payload: deepAsAdmin,
      });
      assert.equal(json.statusCode, 415, `${route.method} ${url} as an admin: ${json.statusCode}`);
    }
  });

  it('still reads the forms themselves, urlencoded and multipart', async () => {
    await createUser(t, { name: 'Form Reader' });
    const urlencoded = await guestPost(
      '/login/',
      'application/x-www-form-urlencoded',
      new URLSearchParams({ _csrf: GUEST_TOKEN, username: 'Form Reader', password: TEST_PASSWORD }).toString(),
    );
    assert.equal(urlencoded.statusCode, 303);
    const boundary = 'formBodiesBoundary';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="_csrf"',
      '',
      GUEST_TOKEN,
      `--${boundary}`,
      'Content-Disposition: form-data; name="email"',
      '',
      'nobody@example.test',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const recovery = await guestPost('/password-recovery/', `multipart/form-data; boundary=${boundary}`, multipart);
    assert.notEqual(recovery.statusCode, 415, recovery.body.slice(0, 300));
    assert.ok(recovery.statusCode < 500);
  });

  it('leaves bodyless requests and the JSON API alone', async () => {
    await createUser(t, { name: 'Api Caller' });
    const page = await t.app.inject({ method: 'GET', url: '/login/', headers: { 'content-type': 'application/json' }, payload: deepJson('x', 'y', 5000) });
    assert.equal(page.statusCode, 200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/logout/',
      cookies: { [GUEST_CSRF_COOKIE]: GUEST_TOKEN },
      headers: { 'x-csrf-token': GUEST_TOKEN },
    });
    assert.equal(logout.statusCode, 303, 'a POST without a body is not a body of the wrong kind');
    const api = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'Api Caller', password: TEST_PASSWORD } });
    assert.equal(api.statusCode, 200);
    const unknown = await guestPost('/no-such-page/', 'application/json', JSON.stringify({ _csrf: GUEST_TOKEN }));
    assert.equal(unknown.statusCode, 404, 'an address that does not exist stays a 404');
  });
});
