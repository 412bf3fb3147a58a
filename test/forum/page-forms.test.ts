// Every form a page posts to its own address (topic reply, rename, watch,
// unwatch; settings e-mail, password, signature; watchlist unwatch): each one
// saves on success, shows the form again on a body its schema refuses (422)
// and writes nothing, refuses a missing CSRF token (403), sends guests to log
// in, leads a GET to its page, and never answers hostile input with a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createTopic, loggedIn, mailsTo, type Member } from '../helpers/forum.ts';

/** One member and one topic per case, so that cases do not see each other's writes. */
interface Scene {
  member: Member;
  topic: TopicWithAuthor;
  /** The topic page's path. */
  page: string;
}

interface FormCase {
  name: string;
  /** The form's address and the page it belongs to. */
  address(scene: Scene): string;
  pageOf(scene: Scene): string;
  /** Makes the state the form changes (e.g. watch before unwatch). */
  prepare?(t: TestApp, scene: Scene): Promise<void>;
  valid: Record<string, string>;
  /** A body the schema refuses and the message it shows; null for a form without fields, which every form body satisfies. */
  invalid: { body: Record<string, string>; message: RegExp } | null;
  /** Text fields: the hostile values go there. */
  textFields: string[];
  /** What the form changes, read back; equal before and after a refusal. */
  state(t: TestApp, scene: Scene): Promise<unknown>;
  /** Where a success leads. */
  location(scene: Scene): string | RegExp;
}

const isWatching = (t: TestApp, scene: Scene) => t.services.forum.isWatching(asAuthUser(scene.member.user), scene.topic.id);
const userRow = (t: TestApp, scene: Scene) => t.database.db.selectFrom('users').selectAll().where('id', '=', scene.member.user.id).executeTakeFirstOrThrow();

const CASES: FormCase[] = [
  {
    name: 'topic reply',
    address: (scene) => `${scene.page}reply/`,
    pageOf: (scene) => scene.page,
    valid: { body: 'A reply from the form' },
    invalid: { body: { body: '   ' }, message: /The body field is required\./ },
    textFields: ['body'],
    state: async (t, scene) => (await t.services.forum.getTopic(scene.topic.id, null)).posts_count,
    location: (scene) => new RegExp(`^${scene.page.replaceAll('.', '\\.')}\\?post=\\d+#post-\\d+$`),
  },
  {
    name: 'topic rename',
    address: (scene) => `${scene.page}rename/`,
    pageOf: (scene) => scene.page,
    valid: { title: 'Renamed by its author' },
    invalid: { body: { title: '' }, message: /The title field is required\./ },
    textFields: ['title'],
    state: async (t, scene) => (await t.services.forum.getTopic(scene.topic.id, null)).title,
    location: (scene) => `/topic/renamed-by-its-author.${scene.topic.id}/`,
  },
  {
    name: 'topic watch',
    address: (scene) => `${scene.page}watch/`,
    pageOf: (scene) => scene.page,
    valid: {},
    invalid: null,
    textFields: [],
    state: isWatching,
    location: (scene) => scene.page,
  },
  {
    name: 'topic unwatch',
    address: (scene) => `${scene.page}unwatch/`,
    pageOf: (scene) => scene.page,
    prepare: async (t, scene) => t.services.forum.watch(asAuthUser(scene.member.user), scene.topic.id),
    valid: {},
    invalid: null,
    textFields: [],
    state: isWatching,
    location: (scene) => scene.page,
  },
  {
    name: 'watchlist unwatch',
    address: () => '/profile/watchlist/unwatch/',
    pageOf: () => '/profile/watchlist/',
    prepare: async (t, scene) => t.services.forum.watch(asAuthUser(scene.member.user), scene.topic.id),
    valid: {},
    invalid: { body: { topic_id: '1e3' }, message: /The topic id field must be an integer\./ },
    textFields: ['topic_id'],
    state: isWatching,
    location: () => '/profile/watchlist/',
  },
  {
    name: 'settings signature',
    address: () => '/settings/signature/',
    pageOf: () => '/settings/',
    valid: { signature: 'Signed from the form' },
    invalid: { body: { signature: 'x'.repeat(501) }, message: /The signature field must not be greater than 500 characters\./ },
    textFields: ['signature'],
    state: async (t, scene) => (await userRow(t, scene)).signature,
    location: () => '/settings/?saved=signature',
  },
  {
    name: 'settings password',
    address: () => '/settings/password/',
    pageOf: () => '/settings/',
    valid: { current_password: TEST_PASSWORD, password: 'a new long password', password_confirmation: 'a new long password' },
    invalid: {
      body: { current_password: TEST_PASSWORD, password: 'short', password_confirmation: 'short' },
      message: /The password field must be at least \d+ characters\./,
    },
    textFields: ['current_password', 'password', 'password_confirmation'],
    state: async (t, scene) => (await userRow(t, scene)).password_hash,
    location: () => '/settings/?saved=password',
  },
  {
    name: 'settings e-mail',
    address: () => '/settings/email/',
    pageOf: () => '/settings/',
    valid: { email: 'moved.here@example.test', current_password: TEST_PASSWORD },
    invalid: { body: { email: 'not an address', current_password: TEST_PASSWORD }, message: /The email field must be a valid email address\./ },
    textFields: ['email', 'current_password'],
    state: async (t) => (await mailsTo(t, 'moved.here@example.test')).length,
    location: () => '/settings/?saved=email',
  },
];

describeEachDatabase('page forms at their own addresses', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let count = 0;

  before(async () => {
    t = await db.start();
    forum = await createForum(t, 'Form Checks');
  });
  after(() => t.close());

  /** A member who started a topic (so may rename it) and opened the form's page. */
  async function scene(form: FormCase): Promise<Scene> {
    count += 1;
    const member = await loggedIn(t, { name: `Former ${count}` });
    const topic = await createTopic(t, member.user, forum, `Checked topic ${count}`);
    const built = { member, topic, page: `/topic/checked-topic-${count}.${topic.id}/` };
    await form.prepare?.(t, built);
    await member.browser.get(form.pageOf(built));
    return built;
  }

  /** The valid body, with the topic filled in where the form names one. */
  const validBody = (form: FormCase, s: Scene) => (form.name === 'watchlist unwatch' ? { topic_id: String(s.topic.id) } : form.valid);

  for (const form of CASES) {
    describe(form.name, () => {
      it('is rendered on its page, posting to its own address with no action field', async () => {
        const s = await scene(form);
        const page = await s.member.browser.get(form.pageOf(s));
        const rendered = dom(page).one(`form[method="post"][action="${form.address(s)}"]`);
        assert.equal(dom(rendered).count('input[name="action"]'), 0);
        assert.ok(dom(rendered).has('input[type="hidden"][name="_csrf"]'));
      });

      it('saves and answers 303', async () => {
        const s = await scene(form);
        const before = await form.state(t, s);
        const response = await s.member.browser.post(form.address(s), validBody(form, s));
        assert.equal(response.status, 303, response.body.slice(0, 300));
        const expected = form.location(s);
        if (typeof expected === 'string') assert.equal(response.location, expected);
        else assert.match(response.location!, expected);
        assert.notDeepEqual(await form.state(t, s), before);
      });

      const invalid = form.invalid;
      it(
        'shows the page again with the errors (422) and writes nothing when the body fails its schema',
        { skip: invalid === null ? 'a form without fields: every form body is valid (JSON is refused with 415, below)' : false },
        async () => {
          const s = await scene(form);
          const before = await form.state(t, s);
          const response = await s.member.browser.post(form.address(s), { ...validBody(form, s), ...invalid!.body });
          assert.equal(response.status, 422);
          assert.match(response.headers['content-type'] as string, /^text\/html/);
          assert.match(dom(response).textContent, invalid!.message);
          assert.deepEqual(await form.state(t, s), before);
        },
      );

      it('refuses a missing CSRF token (403) and writes nothing', async () => {
        const s = await scene(form);
        const before = await form.state(t, s);
        const response = await s.member.browser.post(form.address(s), { ...validBody(form, s), _csrf: '' });
        assert.equal(response.status, 403);
        assert.match(response.headers['content-type'] as string, /^text\/html/);
        assert.deepEqual(await form.state(t, s), before);
      });

      it('sends a guest to log in and writes nothing', async () => {
        const s = await scene(form);
        const before = await form.state(t, s);
        const guest = new Browser(t);
        await guest.get('/login/');
        const response = await guest.post(form.address(s), validBody(form, s));
        assert.equal(response.status, 303);
        assert.equal(response.location, `/login/?next=${encodeURIComponent(form.address(s))}`);
        assert.deepEqual(await form.state(t, s), before);
        // Coming back after the login lands on the page, not on an empty form address.
        const back = await guest.get(form.address(s));
        assert.equal(back.status, 303);
        assert.equal(back.location, form.pageOf(s));
      });

      it('never answers hostile input with a 5xx, and writes nothing', async () => {
        const s = await scene(form);
        const before = await form.state(t, s);
        const hostile: Array<Record<string, string | string[]>> = [
          ...form.textFields.map((field) => ({ ...validBody(form, s), [field]: 'null \u0000 inside' })),
          ...form.textFields.map((field) => ({ ...validBody(form, s), [field]: 'x'.repeat(200_000) })),
          ...form.textFields.map((field) => ({ ...validBody(form, s), [field]: ['one', 'two'] })),
        ];
        for (const body of hostile) {
          const response = await s.member.browser.post(form.address(s), body);
          assert.ok(response.status >= 400 && response.status < 500, `${response.status} for ${JSON.stringify(body).slice(0, 80)}`);
          assert.deepEqual(await form.state(t, s), before);
        }
        // A lone surrogate cannot travel in a form body (it arrives as U+FFFD); JSON, which could carry it, is not a form (415).
        for (const field of form.textFields) {
          const response = await jsonPost(s, form.address(s), JSON.stringify({ ...validBody(form, s), [field]: 'lone \ud800 surrogate' }));
          assert.equal(response.status, 415, field);
        }
        assert.equal((await jsonPost(s, form.address(s), '[]')).status, 415);
        const tooLarge = await s.member.browser.post(form.address(s), { ...validBody(form, s), filler: 'y'.repeat(1_100_000) });
        assert.equal(tooLarge.status, 413);
        const notAForm = await t.app.inject({
          method: 'POST',
          url: form.address(s),
          headers: { 'content-type': 'text/plain', 'x-csrf-token': s.member.browser.csrf ?? '' },
          cookies: Object.fromEntries(s.member.browser.cookies),
          payload: 'body=plain',
        });
        assert.equal(notAForm.statusCode, 415);
        assert.deepEqual(await form.state(t, s), before);
      });
    });
  }

  it('keeps the whole form at a stale slug: served there with the form address as canonical Link', async () => {
    const s = await scene(CASES[0]!);
    const response = await s.member.browser.post(`/topic/old-name.${s.topic.id}/reply`, { body: 'Through a stale slug' });
    assert.equal(response.status, 303);
    assert.equal(response.headers['link'], `<http://localhost${s.page}reply/>; rel="canonical"`);
  });

  it('a form of an unknown topic or a malformed address is the 404 page', async () => {
    const s = await scene(CASES[0]!);
    for (const address of ['/topic/nothing.999999/reply/', '/topic/no-id/reply/', `/topic/x.${s.topic.id}/explode/`]) {
      const response = await s.member.browser.post(address, { body: 'Nowhere' });
      assert.equal(response.status, 404, address);
    }
  });

  it('a former settings form posted to /settings/ itself is shown again with its text (400), passwords never, nothing saved', async () => {
    const s = await scene(CASES[5]!);
    const signature = await s.member.browser.post('/settings/', { action: 'signature', signature: 'Typed in an old tab' });
    assert.equal(signature.status, 400);
    assert.match(dom(signature).textContent, /came from an older version of this page, so nothing was saved/);
    assert.equal(dom(signature).fields('form[action="/settings/signature/"]')['signature'], 'Typed in an old tab');
    assert.equal((await userRow(t, s)).signature, '');
    const password = await s.member.browser.post('/settings/', { action: 'password', current_password: 'secret-one-1', password: 'secret-two-2' });
    assert.equal(password.status, 400);
    assert.doesNotMatch(password.body, /secret-one-1|secret-two-2/);
    const unknown = await s.member.browser.post('/settings/', { action: 'explode' });
    assert.equal(unknown.status, 400);
    assert.equal((await s.member.browser.post('/profile/watchlist/', { action: 'unwatch', topic_id: String(s.topic.id) })).status, 400);
  });

  it('a former rename posted to the topic itself keeps the typed title in the open rename form (400)', async () => {
    const s = await scene(CASES[1]!);
    const response = await s.member.browser.post(s.page, { action: 'rename', title: 'Typed in an old tab' });
    assert.equal(response.status, 400);
    assert.ok(dom(response).one('details.edit-title').hasAttribute('open'));
    assert.equal(dom(response).attr('input#rename-title[name="title"]', 'value'), 'Typed in an old tab');
    assert.equal((await t.services.forum.getTopic(s.topic.id, null)).title, s.topic.title);
  });

  /** A JSON body sent with the session's token in the header. */
  function jsonPost(s: Scene, url: string, payload: string) {
    return t.app
      .inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.member.browser.csrf ?? '' },
        cookies: Object.fromEntries(s.member.browser.cookies),
        payload,
      })
      .then((response) => ({ status: response.statusCode, body: response.body, headers: response.headers }));
  }
});
