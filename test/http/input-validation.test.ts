// Input that must never reach the database, or reach it as something else:
// NUL bytes and unpaired surrogates, integers past their column's range or
// spelled other than canonically, invisible titles, script URLs. Every such
// request gets a 4xx in the usual error body, on both databases, and writes
// nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isRefusedValue } from '../../src/db/dialect.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { loggedIn, type Member } from '../helpers/forum.ts';
import { fieldError, signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';

const NOT_ALLOWED = (field: string) => [`The ${field} field contains characters that are not allowed.`];
const NOT_INTEGER = (field: string) => [`The ${field} field must be an integer.`];
const REQUIRED = (field: string) => [`The ${field} field is required.`];
/** Ids that are 16 or 1 in some notation, but not in canonical decimal. */
const NON_CANONICAL = ['+1', '01', '0x10', '1e3', '1.0', '%201', '1%20'];

describeEachDatabase('input validation', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let alice: SignedIn;
  let forumId: number;
  let topicId: number;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Input Admin');
    alice = await signIn(t, 'user', 'Input Alice');
    forumId = (await call('POST', '/api/forums', admin, { name: 'Input Forum' })).json().data.id;
    topicId = (await call('POST', '/api/topics', alice, { forum_id: forumId, title: 'Input topic', body: 'Opening post' })).json().data.id;
  });
  after(() => t.close());

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  function call(method: Method, url: string, who?: SignedIn, payload?: object) {
    return t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  }
  async function count(table: 'topics' | 'posts' | 'forums' | 'emoji_categories' | 'emojis' | 'users'): Promise<number> {
    const row = await t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  function assertValidation(
    response: { statusCode: number; json(): { message: string; errors: Record<string, string[]> } },
    status: 400 | 422,
    errors: Record<string, string[]>,
  ) {
    assert.equal(response.statusCode, status, JSON.stringify(response.json()));
    const body = response.json();
    assert.deepEqual(body.errors, errors);
    assert.equal(typeof body.message, 'string');
  }

  describe('NUL characters', () => {
    it('refuses them at login before any lookup (422 on username, also unauthenticated)', async () => {
      assertValidation(await call('POST', '/api/login', undefined, { username: 'Input\u0000Alice', password: 'x' }), 422, {
        username: NOT_ALLOWED('username'),
      });
      assertValidation(await call('POST', '/api/login', undefined, { username: 'Input Alice', password: 'pa\u0000ss' }), 422, {
        password: NOT_ALLOWED('password'),
      });
    });

    it('refuses them in topics and posts, writing nothing (422 on each field)', async () => {
      const [topics, posts] = [await count('topics'), await count('posts')];
      assertValidation(await call('POST', '/api/topics', alice, { forum_id: forumId, title: 'Nul\u0000title', body: 'b\u0000ody' }), 422, {
        title: NOT_ALLOWED('title'),
        body: NOT_ALLOWED('body'),
      });
      assertValidation(await call('POST', `/api/topics/${topicId}/posts`, alice, { body: 'x\u0000' }), 422, { body: NOT_ALLOWED('body') });
      assertValidation(await call('PATCH', `/api/topics/${topicId}`, alice, { title: 'x\u0000' }), 422, { title: NOT_ALLOWED('title') });
      assert.deepEqual([await count('topics'), await count('posts')], [topics, posts]);
    });

    it('refuses them in search strings (422 on lists, 400 on /search)', async () => {
      assertValidation(await call('GET', '/api/emoji/emojis?search=a%00b'), 422, { search: NOT_ALLOWED('search') });
      assertValidation(await call('GET', '/api/emoji/emojis/search?q=a%00b'), 400, { q: NOT_ALLOWED('q') });
      assertValidation(await call('GET', '/api/emoji/aliases/search?q=%00'), 400, { q: NOT_ALLOWED('q') });
      assertValidation(await call('GET', '/api/word-filters?search=a%00b', admin), 422, { search: NOT_ALLOWED('search') });
      assertValidation(await call('GET', '/api/word-filters/search?q=a%00b', admin), 400, { q: NOT_ALLOWED('q') });
      assertValidation(await call('GET', '/api/users?search=a%00b', admin), 422, { search: NOT_ALLOWED('search') });
    });

    it('refuses them inside arrays and nested objects (dotted keys)', async () => {
      const rule = await call('POST', '/api/word-filters', admin, {
        pattern: 'nul',
        filter_type: 'block',
        pattern_type: 'exact',
        applies_to: ['posts', 'top\u0000ics'],
      });
      assert.equal(rule.statusCode, 422);
      assert.deepEqual(rule.json().errors['applies_to.1'], ['The selected applies to.1 is invalid.', ...NOT_ALLOWED('applies to.1')]);
      const sprite = await call('POST', '/api/emoji/emojis', admin, {
        title: 'Nul sprite',
        emoji_shortcode: ':nul_sprite:',
        display_order: 0,
        sprite_mode: true,
        sprite_params: { x: 0, y: 0, width: 1, height: 1, sheet: 'a\u0000.png' },
      });
      assertValidation(sprite, 422, { 'sprite_params.sheet': NOT_ALLOWED('sprite params.sheet') });
    });
  });

  describe('unpaired surrogates', () => {
    it('are refused in any string field (422 on the field)', async () => {
      const categories = await count('emoji_categories');
      assertValidation(await call('POST', '/api/emoji/categories', admin, { title: 'a\ud800', display_order: 1 }), 422, { title: NOT_ALLOWED('title') });
      assertValidation(await call('POST', '/api/emoji/categories', admin, { title: '\udfff b', display_order: 1 }), 422, { title: NOT_ALLOWED('title') });
      assertValidation(await call('POST', '/api/topics', alice, { forum_id: forumId, title: 'Fine title', body: 'half \ud83d of a face' }), 422, {
        body: NOT_ALLOWED('body'),
      });
      assertValidation(await call('PATCH', `/api/users/${alice.user.id}`, admin, { email: 'x\udc00@example.test' }), 422, {
        email: ['The email field must be a valid email address.', ...NOT_ALLOWED('email')],
      });
      assert.equal(await count('emoji_categories'), categories);
    });

    it('while a whole surrogate pair (an emoji) is fine', async () => {
      const created = await call('POST', '/api/emoji/categories', admin, { title: 'Faces 😀', display_order: 1 });
      assert.equal(created.statusCode, 201);
      assert.equal(created.json().data.title, 'Faces 😀');
    });
  });

  describe('page numbers', () => {
    it('refuses pages that are not canonical integers or past the range (422 on page)', async () => {
      for (const url of ['/api/forums', `/api/forums/${forumId}/topics`, `/api/topics/${topicId}/posts`, '/api/emoji/emojis', '/api/emoji/aliases']) {
        assertValidation(await call('GET', `${url}?page=1e400`), 422, { page: NOT_INTEGER('page') });
        assertValidation(await call('GET', `${url}?page=4611686018427387904`), 422, { page: ['The page field must not be greater than 2147483647.'] });
        assertValidation(await call('GET', `${url}?page=0x10`), 422, { page: NOT_INTEGER('page') });
        assertValidation(await call('GET', `${url}?per_page=1e1`), 422, { per_page: NOT_INTEGER('per_page'.replace('_', ' ')) });
      }
      assertValidation(await call('GET', '/api/word-filters?page=4611686018427387904', admin), 422, {
        page: ['The page field must not be greater than 2147483647.'],
      });
      assertValidation(await call('GET', '/api/users?page=+2', admin), 422, { page: NOT_INTEGER('page') });
    });

    it('answers the last possible page with an empty list (200)', async () => {
      const response = await call('GET', '/api/forums?page=2147483647&per_page=100');
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().data, []);
      assert.equal(response.json().meta.current_page, 2147483647);
    });
  });

  describe('integers past their column', () => {
    it('refuses display orders outside 0..2147483647 on every resource, writing nothing (422)', async () => {
      const forums = await count('forums');
      const tooBig = ['The display order field must not be greater than 2147483647.'];
      assertValidation(await call('POST', '/api/forums', admin, { name: 'Too far', display_order: 2147483648 }), 422, { display_order: tooBig });
      assertValidation(await call('POST', '/api/forums', admin, { name: 'Too far', display_order: 1e308 }), 422, { display_order: tooBig });
      assertValidation(await call('PATCH', `/api/forums/${forumId}`, admin, { display_order: 2 ** 53 }), 422, { display_order: tooBig });
      assertValidation(await call('POST', '/api/emoji/categories', admin, { title: 'Far', display_order: 2147483648 }), 422, { display_order: tooBig });
      assert.equal(await count('forums'), forums);
      const largest = await call('POST', '/api/forums', admin, { name: 'Last of all', display_order: 2147483647 });
      assert.equal(largest.statusCode, 201);
      assert.equal(largest.json().data.display_order, 2147483647);
    });

    it('answers a reference that cannot be an id like an unknown one (422, "selected … is invalid")', async () => {
      const topics = await count('topics');
      for (const forum_id of [2147483648, 99999999999, 0, -1]) {
        assertValidation(await call('POST', '/api/topics', alice, { forum_id, title: 'Nowhere', body: 'b' }), 422, {
          forum_id: ['The selected forum id is invalid.'],
        });
      }
      assert.equal(await count('topics'), topics);
      assertValidation(await call('GET', '/api/emoji/emojis?category_id=2147483648'), 422, { category_id: ['The selected category id is invalid.'] });
      assertValidation(await call('GET', '/api/emoji/aliases?emoji_id=99999999999'), 422, { emoji_id: ['The selected emoji id is invalid.'] });
    });

    it('refuses sprite sizes past the column (422 on the member)', async () => {
      const response = await call('POST', '/api/emoji/emojis', admin, {
        title: 'Huge sprite',
        emoji_shortcode: ':huge_sprite:',
        display_order: 0,
        sprite_mode: true,
        sprite_params: { x: 2147483648, y: 0, width: 1, height: 1e300, sheet: 's.png' },
      });
      assertValidation(response, 422, {
        'sprite_params.x': ['The sprite params.x field must not be greater than 2147483647.'],
        'sprite_params.height': ['The sprite params.height field must not be greater than 2147483647.'],
      });
    });
  });

  describe('ids spelled other than canonically', () => {
    it('are not found in API paths (404), however the number reads', async () => {
      const emoji = (await call('POST', '/api/emoji/emojis', admin, { title: 'Canon', emoji_shortcode: ':canon:', emoji_text: '🎯', display_order: 0 })).json()
        .data;
      const paths = [`/api/forums/${forumId}`, `/api/topics/${topicId}`, `/api/emoji/emojis/${emoji.id}`, `/api/users/${alice.user.id}`];
      for (const path of paths) assert.equal((await call('GET', path)).statusCode, 200, path);
      for (const path of paths) {
        const base = path.slice(0, path.lastIndexOf('/') + 1);
        const id = Number(path.slice(base.length));
        for (const spelling of [`+${id}`, `0${id}`, `0x${id.toString(16)}`, `${id}e0`, `${id}.0`, `%20${id}`]) {
          const response = await call('GET', `${base}${spelling}`);
          assert.equal(response.statusCode, 404, `${base}${spelling}`);
          assert.equal(response.json().error.code, 'NOT_FOUND');
        }
      }
      assert.equal((await call('DELETE', `/api/emoji/emojis/0x${emoji.id.toString(16)}`, admin)).statusCode, 404);
      assert.equal((await call('GET', `/api/emoji/emojis/${emoji.id}`)).statusCode, 200, 'the odd spelling deleted nothing');
      assert.equal((await call('GET', '/api/word-filters/+1', admin)).statusCode, 404);
      assert.equal((await call('GET', '/api/forums/2147483648')).statusCode, 404);
    });

    it('are refused in query fields (422 on the field)', async () => {
      for (const spelling of NON_CANONICAL) {
        assertValidation(await call('GET', `/api/emoji/emojis?category_id=${spelling}`), 422, { category_id: NOT_INTEGER('category id') });
        assertValidation(await call('GET', `/api/emoji/aliases?emoji_id=${spelling}`), 422, { emoji_id: NOT_INTEGER('emoji id') });
        assertValidation(await call('GET', `/api/forums?page=${spelling}`), 422, { page: NOT_INTEGER('page') });
      }
      assertValidation(await call('GET', '/api/emoji/emojis/search?q=x&limit=0x10'), 400, { limit: NOT_INTEGER('limit') });
    });
  });

  describe('titles and names that show nothing', () => {
    const invisible = ['\u200b', '\u200b\u200c\u200d', '\u2060\ufeff', '\u202e\u202c', '\u3164\u3164\u3164', '\u2800', '\u034f\u034f\u034f', ' \u200b '];

    it('are "required" for topic titles, forum names and post bodies', async () => {
      for (const title of invisible) {
        assertValidation(await call('POST', '/api/topics', alice, { forum_id: forumId, title, body: title }), 422, {
          title: REQUIRED('title'),
          body: REQUIRED('body'),
        });
        assertValidation(await call('POST', '/api/forums', admin, { name: title }), 422, { name: REQUIRED('name') });
      }
    });

    it('are "required" for emoji and category titles', async () => {
      for (const title of invisible) {
        assertValidation(await call('POST', '/api/emoji/categories', admin, { title, display_order: 0 }), 422, { title: REQUIRED('title') });
        assertValidation(await call('POST', '/api/emoji/emojis', admin, { title, emoji_shortcode: ':ghost_title:', emoji_text: '👻', display_order: 0 }), 422, {
          title: REQUIRED('title'),
        });
      }
    });

    it('are "required" for user names', async () => {
      const users = await count('users');
      for (const username of ['\u3164\u3164\u3164', '\u115f\u1160\u3164', '\u034f\u034f\u034f', 'ᅟᅠᅟ']) {
        const response = await call('POST', '/api/users', admin, { username, email: 'ghost@example.test', password: 'long enough password' });
        assert.equal(response.statusCode, 422);
        assert.ok(response.json().errors.username.includes('The username field is required.'), JSON.stringify(response.json()));
      }
      assert.equal(await count('users'), users);
    });

    it('still accept titles in any script, with joiners inside visible text', async () => {
      for (const [title, i] of [
        ['日本語', 1],
        ['Ελληνικά', 2],
        ['👨‍👩‍👧', 3],
        ['ok\u200d', 4],
        ['…', 5],
      ] as const) {
        const response = await call('POST', '/api/emoji/categories', admin, { title, display_order: i });
        assert.equal(response.statusCode, 201, title);
      }
    });
  });

  describe('image_url', () => {
    it('refuses script, data and other non-web URLs (422 on image_url)', async () => {
      const emojis = await count('emojis');
      const message = ['The image url field must be an http or https URL or a path on this site.'];
      for (const image_url of [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        ' javascript:alert(1)',
        'data:image/png;base64,iVBORw0KGgo=',
        'vbscript:x',
        'file:///etc/passwd',
        'ftp://example.test/a.png',
        '//evil.example/a.png',
        '/\\evil.example/a.png',
        'images/a.png',
        'https://',
        'https:///a.png',
        '/a b.png',
        '/a\tb.png',
      ]) {
        const response = await call('POST', '/api/emoji/emojis', admin, { title: 'Script', emoji_shortcode: ':script_url:', image_url, display_order: 0 });
        assertValidation(response, 422, { image_url: message });
      }
      assert.equal(await count('emojis'), emojis);
    });

    it('accepts http(s) URLs and site paths', async () => {
      let n = 0;
      for (const image_url of ['https://cdn.example.test/party.gif', 'HTTP://cdn.example.test/a.png?v=2', '/emojis/custom/abc.png']) {
        n += 1;
        const response = await call('POST', '/api/emoji/emojis', admin, { title: 'Web', emoji_shortcode: `:web_url_${n}:`, image_url, display_order: 0 });
        assert.equal(response.statusCode, 201, image_url);
        assert.equal(response.json().data.image_url, image_url);
      }
    });
  });

  describe('pages', () => {
    let member: Member;
    before(async () => {
      member = await loggedIn(t, { name: 'Page Member' });
    });

    it('answer page numbers that cannot be a page with 404, never a 500', async () => {
      const forumPage = `/forum/input-forum.${forumId}/`;
      const topicPage = `/topic/input-topic.${topicId}/`;
      assert.equal((await member.browser.get(forumPage)).status, 200);
      for (const page of [forumPage, topicPage]) {
        for (const query of [
          'page=1e400',
          'page=4611686018427387904',
          'page=0x2',
          'page=+1',
          'page=01',
          'page=2147483648',
          'start=1e400',
          'start=-50',
          'start=0x10',
          'start=4611686018427387904',
        ]) {
          const response = await member.browser.get(`${page}?${query}`);
          assert.equal(response.status, 404, `${page}?${query}`);
        }
        assert.equal((await member.browser.get(`${page}?start=0`)).status, 200);
        assert.equal((await member.browser.get(`${page}?page=2147483647`)).status, 404, 'past the last page');
      }
    });

    it('answer legacy links with non-canonical ids with 404', async () => {
      for (const url of [
        `/viewtopic.php?t=0x${topicId.toString(16)}`,
        `/viewtopic.php?t=+${topicId}`,
        `/viewtopic?t=0${topicId}`,
        `/viewtopic.php?t=${topicId}e0`,
        `/viewforum.php?f=0x${forumId.toString(16)}`,
        `/profile.php?mode=viewprofile&u=+${alice.user.id}`,
      ]) {
        assert.equal((await member.browser.get(url)).status, 404, url);
      }
      assert.equal((await member.browser.get(`/viewtopic.php?t=${topicId}`)).status, 301);
    });

    it('show a NUL in a form as an error on its field (422), writing nothing', async () => {
      const topics = await count('topics');
      const forumPage = `/forum/input-forum.${forumId}/`;
      await member.browser.get(forumPage);
      const response = await member.browser.post(forumPage, { title: 'Nul\u0000title', body: 'Fine' });
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The title field contains characters that are not allowed\./);
      assert.equal(await count('topics'), topics);
    });

    it('refuse an invisible user name at registration ("required", 422)', async () => {
      const users = await count('users');
      const guest = new Browser(t);
      await guest.get('/register/');
      const response = await guest.post('/register/', {
        username: '\u3164\u3164\u3164',
        email: 'filler@example.test',
        password: 'long enough password',
        password_confirmation: 'long enough password',
      });
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The username field is required\./);
      assert.equal(await count('users'), users);
    });

    it('refuse a NUL in the login form without a 500', async () => {
      const browser = (await loggedIn(t, { name: 'Login Probe' })).browser;
      await browser.get('/logout/');
      const response = await browser.post('/login/', { username: 'Login\u0000Probe', password: 'whatever' });
      assert.equal(response.status, 422);
    });
  });

  describe('admin pages', () => {
    let staff: SignedInBrowser;
    before(async () => {
      staff = await signedInBrowser(t, 'admin', 'Admin Pages Probe');
    });

    it('never answer 500 to odd page numbers or ids', async () => {
      for (const url of ['/admin/forums/', '/admin/users/', '/admin/moderation/', '/admin/outbox/', '/admin/word-filters/', '/admin/emojis/']) {
        for (const page of ['1e400', '4611686018427387904', '0x10', '+1']) {
          const response = await staff.browser.get(`${url}?page=${page}`);
          assert.ok(response.status === 200 || response.status === 422, `${url}?page=${page}: ${response.status}`);
        }
      }
      for (const url of [
        `/admin/forums/0x${forumId.toString(16)}/`,
        `/admin/forums/+${forumId}/`,
        `/admin/users/0${alice.user.id}/`,
        '/admin/users/2147483648/',
      ]) {
        assert.equal((await staff.browser.get(url)).status, 404, url);
      }
    });

    it('refuse a script image URL and a non-canonical sprite offset in the emoji form (422 on the fields)', async () => {
      const emojis = await count('emojis');
      await staff.browser.get('/admin/emojis/new/');
      const image = await staff.browser.post('/admin/emojis/', {
        title: 'Form script',
        emoji_shortcode: ':form_script:',
        display_order: '0',
        kind: 'image',
        image_url: 'javascript:alert(1)',
        intent: 'save',
      });
      assert.equal(image.status, 422);
      assert.equal(fieldError(image.body, 'emoji', 'image_url'), 'The image url field must be an http or https URL or a path on this site.');
      const sprite = await staff.browser.post('/admin/emojis/', {
        title: 'Form sprite',
        emoji_shortcode: ':form_sprite:',
        display_order: '0',
        kind: 'sprite',
        'sprite_params.sheet': 's.png',
        'sprite_params.x': '0x1',
        'sprite_params.y': '0',
        'sprite_params.width': '1e1',
        'sprite_params.height': '16',
        intent: 'save',
      });
      assert.equal(sprite.status, 422);
      assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-x'), 'The sprite params.x field must be an integer.');
      assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-width'), 'The sprite params.width field must be an integer.');
      assert.equal(await count('emojis'), emojis);
    });

    it('report a non-canonical display order on its field (422), writing nothing', async () => {
      const forums = await count('forums');
      await staff.browser.get('/admin/forums/');
      for (const display_order of ['0x10', '1e3', '+1', '2147483648']) {
        const response = await staff.browser.post('/admin/forums/', { name: 'Odd order', description: '', display_order });
        assert.equal(response.status, 422, display_order);
      }
      assert.equal(await count('forums'), forums);
    });
  });

  if (db.kind === 'postgres') {
    it('names what PostgreSQL refuses itself (the 400 backstop of the error handler)', async () => {
      const nul = await sql`select ${'a\u0000b'}::text as v`.execute(t.database.db).then(
        () => null,
        (error: unknown) => error,
      );
      assert.equal(isRefusedValue(nul), true);
      const range = await sql`select ${'2147483648'}::int4 as v`.execute(t.database.db).then(
        () => null,
        (error: unknown) => error,
      );
      assert.equal(isRefusedValue(range), true);
      const unique = await sql`select 1/0 as v`.execute(t.database.db).then(
        () => null,
        (error: unknown) => error,
      );
      assert.equal(isRefusedValue(unique), false);
    });
  }
});
