// Every route that takes an upload (http/multipart.ts), with every way a
// multipart body can be wrong: no boundary, a wrong boundary, garbage, a
// truncated body, a part that is only headers, too many fields, a field too
// large, two files, a multipart type other than form-data, text instead of a
// form, and files over the limit. Guests and members without the right are
// refused before the body is read; the right caller gets a 4xx with a
// sentence. Nothing is ever stored, and nothing answers 500.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { after, before, it } from 'node:test';
import { SESSION_COOKIE } from '../../src/auth/guard.ts';
import { IMAGE_RULES } from '../../src/emoji/images/store.ts';
import { uploadRoutes } from '../../src/http/multipart.ts';
import { asReader } from '../../src/i18n/context.ts';
import { formatBytes } from '../../src/i18n/sizes.ts';
import { AVATAR_RULES } from '../../src/users/avatars/avatar-image.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { makeEmoji } from '../helpers/emoji.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

/** Who sends a request: headers (a token) and cookies (a session), with the session's CSRF token as a header. */
interface Caller {
  name: string;
  headers: Record<string, string>;
  cookies: Record<string, string>;
}

interface Route {
  /** The route's pattern, as the app registered it. */
  pattern: string;
  url: string;
  page: boolean;
  /** The file's field and the largest file the route takes. */
  field: string;
  limit: number;
  /** Text fields a well-formed submission carries besides its file. */
  fields: Record<string, string>;
  right: Caller;
  /** A signed-in caller without the right to upload here; none where every member may. */
  wrong: Caller | undefined;
}

interface BodyCase {
  name: string;
  contentType: string;
  payload: Buffer;
  status: number;
  /** The sentence of the answer (the general envelope's message, or the text of the error page). */
  message: string;
}

const BOUNDARY = 'Upl0adTestBoundary7MA4YWxk';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function textPart(name: string, value: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

function filePart(name: string, bytes: Buffer, filename = 'upload.bin'): Buffer {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from('\r\n')]);
}

function form(route: Route, file: Buffer | null, extra: string[] = []): Buffer {
  const fields = Object.entries(route.fields).map(([name, value]) => textPart(name, value));
  return Buffer.concat([
    Buffer.from([...fields, ...extra].join('')),
    ...(file === null ? [] : [filePart(route.field, file)]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
}

/** Deterministic bytes that are no multipart body. */
function garbage(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let seed = 7;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed & 0xff;
  }
  return bytes;
}

const CUT_SHORT =
  'The upload cannot be read: the body ends before its closing boundary (it was cut short, or it is not divided by the boundary its Content-Type names).';

function malformedBodies(route: Route): BodyCase[] {
  const whole = form(route, Buffer.from('content'));
  return [
    {
      name: 'no boundary',
      contentType: 'multipart/form-data',
      payload: whole,
      status: 400,
      message: 'The upload cannot be read: its Content-Type, multipart/form-data, names no boundary.',
    },
    { name: 'a wrong boundary', contentType: 'multipart/form-data; boundary=SomethingElse', payload: whole, status: 400, message: CUT_SHORT },
    { name: 'garbage', contentType: TYPE, payload: garbage(4096), status: 400, message: CUT_SHORT },
    { name: 'a truncated body', contentType: TYPE, payload: whole.subarray(0, whole.length - 30), status: 400, message: CUT_SHORT },
    {
      name: 'a part that is only headers',
      contentType: TYPE,
      payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${route.field}"; filename="a.png"\r\nContent-Type: image/png\r\n`),
      status: 400,
      message: CUT_SHORT,
    },
    {
      name: 'too many fields',
      contentType: TYPE,
      payload: form(
        route,
        null,
        Array.from({ length: 60 }, (_, i) => textPart(`extra${i}`, 'x')),
      ),
      status: 413,
      message: 'The form has more than 50 fields.',
    },
    {
      name: 'an oversized field',
      contentType: TYPE,
      payload: form(route, Buffer.from('content'), [textPart('note', 'x'.repeat(300 * 1024))]),
      status: 413,
      message: 'The form field “note” is larger than 256 KiB.',
    },
    {
      name: 'two files',
      contentType: TYPE,
      payload: Buffer.concat([
        form(route, Buffer.from('one')).subarray(0, -(BOUNDARY.length + 6)),
        filePart('second', Buffer.from('two')),
        Buffer.from(`--${BOUNDARY}--\r\n`),
      ]),
      status: 400,
      message: 'Send one file at a time: this address takes a single file.',
    },
    {
      name: 'a multipart type other than form-data',
      contentType: `multipart/mixed; boundary=${BOUNDARY}`,
      payload: whole,
      // Pages take form encodings only, whatever the route (http/form-bodies.ts).
      status: route.page ? 415 : 400,
      message: route.page
        ? 'This address takes forms only: send the form as application/x-www-form-urlencoded or multipart/form-data.'
        : 'Send files as multipart/form-data.',
    },
  ];
}

/** A body that notes whether anyone read it: a refusal before parsing leaves it untouched. */
class WatchedBody extends Readable {
  touched = false;
  override _read(): void {
    this.touched = true;
    this.push(garbage(64));
    this.push(null);
  }
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

describeEachDatabase('upload routes: malformed multipart bodies and callers without the right', (db) => {
  let t: TestApp;
  let routes: Route[];
  const guest: Caller = { name: 'guest', headers: {}, cookies: {} };

  before(async () => {
    t = await db.start({ env: { TRACKER_MAX_TORRENT_BYTES: String(64 * 1024) } });
    const token = async (role: 'user' | 'moderator' | 'admin', name: string): Promise<Caller & { id: number }> => {
      const row = await createUser(t, { role });
      const issued = await t.services.auth.issueToken(row);
      return { name, id: row.id, headers: { authorization: `Bearer ${issued.token}` }, cookies: {} };
    };
    const session = async (role: 'user' | 'moderator' | 'admin', name: string): Promise<Caller & { id: number }> => {
      const row = await createUser(t, { role });
      const started = await t.services.auth.startSession(row.id);
      return { name, id: row.id, headers: { 'x-csrf-token': started.csrfToken }, cookies: { [SESSION_COOKIE]: started.cookieValue } };
    };
    const adminToken = await token('admin', 'admin token');
    const moderatorToken = await token('moderator', 'moderator token');
    const alice = await token('user', 'member token');
    const bob = await token('user', 'another member token');
    const adminSession = await session('admin', 'admin session');
    const moderatorSession = await session('moderator', 'moderator session');
    const author = await session('user', 'topic author session');
    const stranger = await session('user', 'another member session');
    const forum = await createForum(t, 'Uploads');
    const authorRow = await t.services.users.get(author.id);
    const aliceRow = await t.services.users.get(alice.id);
    const topic = await createTopic(t, authorRow, forum, 'Their topic');
    const apiTopic = await createTopic(t, aliceRow, forum, 'API topic');
    const emoji = await makeEmoji(t);
    const custom = IMAGE_RULES.custom.maxBytes;
    const sprites = IMAGE_RULES.sprites.maxBytes;
    const torrent = t.services.tracker.torrents.maxTorrentBytes;
    const emojiForm = { title: 'Picture', emoji_shortcode: ':picture_upload:', kind: 'image', display_order: '0' };
    routes = [
      {
        pattern: '/api/emoji/images',
        url: '/api/emoji/images',
        page: false,
        field: 'file',
        limit: custom,
        fields: {},
        right: adminToken,
        wrong: moderatorToken,
      },
      {
        pattern: '/api/emoji/sprite-sheets',
        url: '/api/emoji/sprite-sheets',
        page: false,
        field: 'file',
        limit: sprites,
        fields: {},
        right: adminToken,
        wrong: moderatorToken,
      },
      {
        pattern: '/api/users/:id/avatar',
        url: `/api/users/${alice.id}/avatar`,
        page: false,
        field: 'file',
        limit: AVATAR_RULES.maxBytes,
        fields: {},
        right: alice,
        wrong: bob,
      },
      // Every member may attach a .torrent to a topic of theirs: the topic's rights are judged once topic_id is read.
      {
        pattern: '/api/torrents',
        url: '/api/torrents',
        page: false,
        field: 'file',
        limit: torrent,
        fields: { topic_id: String(apiTopic.id) },
        right: alice,
        wrong: undefined,
      },
      {
        pattern: '/tracker/upload/',
        url: `/tracker/upload/?topic=${topic.id}`,
        page: true,
        field: 'file',
        limit: torrent,
        fields: {},
        right: author,
        wrong: stranger,
      },
      {
        pattern: '/settings/avatar/',
        url: '/settings/avatar/',
        page: true,
        field: 'file',
        limit: AVATAR_RULES.maxBytes,
        fields: {},
        right: author,
        wrong: undefined,
      },
      {
        pattern: '/settings/avatar',
        url: '/settings/avatar',
        page: true,
        field: 'file',
        limit: AVATAR_RULES.maxBytes,
        fields: {},
        right: author,
        wrong: undefined,
      },
      {
        pattern: '/admin/emoji-images/custom/',
        url: '/admin/emoji-images/custom/',
        page: true,
        field: 'file',
        limit: custom,
        fields: {},
        right: adminSession,
        wrong: moderatorSession,
      },
      {
        pattern: '/admin/emoji-images/sprites/',
        url: '/admin/emoji-images/sprites/',
        page: true,
        field: 'file',
        limit: sprites,
        fields: {},
        right: adminSession,
        wrong: moderatorSession,
      },
      {
        pattern: '/admin/emojis/',
        url: '/admin/emojis/',
        page: true,
        field: 'image_file',
        limit: custom,
        fields: emojiForm,
        right: adminSession,
        wrong: moderatorSession,
      },
      {
        pattern: '/admin/emojis/:id/',
        url: `/admin/emojis/${emoji.id}/`,
        page: true,
        field: 'image_file',
        limit: custom,
        fields: emojiForm,
        right: adminSession,
        wrong: moderatorSession,
      },
    ];
    // First uses write a token's or session's "last used" time: done here, so that the requests below change nothing.
    for (const caller of [adminToken, moderatorToken, alice, bob, adminSession, moderatorSession, author, stranger]) {
      await t.app.inject({ method: 'GET', url: '/api/user', headers: caller.headers, cookies: caller.cookies });
    }
  });
  after(() => t.close());

  async function send(route: Route, caller: Caller, contentType: string, payload: Buffer | Readable, language?: string) {
    return t.app.inject({
      method: 'POST',
      url: route.url,
      headers: { ...caller.headers, 'content-type': contentType, ...(language === undefined ? {} : { 'accept-language': language }) },
      cookies: caller.cookies,
      payload,
    });
  }

  /** The sentence an answer gives: the API's message, or the text of the page. */
  function says(route: Route, response: { body: string; json(): { message?: string } }, message: string): void {
    if (route.page) assert.ok(response.body.includes(message), `the page says "${message}"`);
    else assert.equal(response.json().message, message);
  }

  async function changesNothing(work: () => Promise<void>): Promise<void> {
    const tables = await snapshotTables(t);
    const files = filesUnder(t.config.uploadDir);
    await work();
    assert.deepEqual(snapshotDifferences(tables, await snapshotTables(t)), [], 'no row changed');
    assert.deepEqual(filesUnder(t.config.uploadDir), files, 'no file stored');
  }

  it('tests every route that takes uploads', () => {
    const registered = new Set(uploadRoutes(t.app).map((route) => `${route.method} ${route.url}`));
    const tested = new Set(routes.map((route) => `POST ${route.pattern}`));
    assert.deepEqual([...registered].sort(), [...tested].sort());
  });

  it('refuses guests and members without the right before reading a byte of the body (401/403 or the login page)', async () => {
    for (const route of routes) {
      for (const caller of [guest, ...(route.wrong === undefined ? [] : [route.wrong])]) {
        const cases = [...malformedBodies(route), { name: 'text', contentType: 'text/plain', payload: Buffer.from('hello'), status: 0, message: '' }];
        for (const body of cases) {
          await changesNothing(async () => {
            const response = await send(route, caller, body.contentType, body.payload);
            const what = `${caller.name}, ${body.name}, POST ${route.url}: ${response.statusCode} ${response.body.slice(0, 200)}`;
            if (caller === guest && route.page) {
              assert.equal(response.statusCode, 303, what);
              assert.match(String(response.headers.location), /^\/login\/\?next=/, what);
            } else assert.equal(response.statusCode, caller === guest ? 401 : 403, what);
          });
        }
        const watched = new WatchedBody();
        const response = await send(route, caller, TYPE, watched);
        assert.ok([303, 401, 403].includes(response.statusCode), `${caller.name}, POST ${route.url}: ${response.statusCode}`);
        assert.equal(watched.touched, false, `${caller.name}, POST ${route.url}: the body was read before the refusal`);
        watched.destroy();
      }
    }
  });

  it('answers each malformed body to the right caller with a 400, 413 or 415 that says what is wrong, storing nothing', async () => {
    for (const route of routes) {
      for (const body of malformedBodies(route)) {
        await changesNothing(async () => {
          const response = await send(route, route.right, body.contentType, body.payload);
          const what = `${body.name}, POST ${route.url}: ${response.statusCode} ${response.body.slice(0, 300)}`;
          assert.equal(response.statusCode, body.status, what);
          says(route, response, body.message);
        });
      }
    }
  });

  it('answers text where a form was expected without a 5xx, storing nothing', async () => {
    for (const route of routes) {
      await changesNothing(async () => {
        const response = await send(route, route.right, 'text/plain', Buffer.from('just some text'));
        assert.ok(response.statusCode >= 400 && response.statusCode < 500, `POST ${route.url}: ${response.statusCode}`);
      });
    }
  });

  it('refuses a second file with a 400 that says one file is taken, not a 413 about the body', async () => {
    for (const route of routes) {
      const response = await send(route, route.right, TYPE, malformedBodies(route).find((body) => body.name === 'two files')!.payload);
      assert.equal(response.statusCode, 400, route.url);
      says(route, response, 'Send one file at a time: this address takes a single file.');
    }
  });

  it('refuses a file over the limit on its field (422), naming its real size and the limit so that they differ', async () => {
    for (const route of routes) {
      const cases: Array<[Buffer, string]> = [
        // Just over: binary units would round both to the same text, so both are written in bytes.
        [
          garbage(route.limit + 1),
          `The file is ${(route.limit + 1).toLocaleString('en')} bytes, more than the limit of ${route.limit.toLocaleString('en')} bytes.`,
        ],
        [garbage(route.limit * 3), `The file is ${formatBytes(route.limit * 3)}, more than the limit of ${formatBytes(route.limit)}.`],
      ];
      for (const [bytes, message] of cases) {
        await changesNothing(async () => {
          const response = await send(route, route.right, TYPE, form(route, bytes));
          const what = `${bytes.length} bytes to POST ${route.url}: ${response.statusCode} ${response.body.slice(0, 300)}`;
          assert.equal(response.statusCode, 422, what);
          if (route.page) assert.ok(response.body.includes(message), `${what}: says "${message}"`);
          else assert.deepEqual(response.json().errors, { [route.field]: [message] }, what);
        });
      }
    }
  });

  it('says how far it read when a file is too large to read to its end', async () => {
    const route = routes.find((candidate) => candidate.pattern === '/api/emoji/images')!;
    await changesNothing(async () => {
      const response = await send(route, route.right, TYPE, form(route, Buffer.alloc(20 * 1024 * 1024, 1)));
      assert.equal(response.statusCode, 422);
      assert.match(response.json().errors.file[0], /^The file is larger than 16\.\d+ MiB \(reading stopped there\), more than the limit of 256 KiB\.$/);
      assert.equal(response.headers.connection, 'close');
    });
  });

  it('says it on pages in the reader’s language', async () => {
    const route = routes.find((candidate) => candidate.pattern === '/tracker/upload/')!;
    const response = await send(route, route.right, TYPE, form(route, garbage(route.limit * 3)), 'ru');
    assert.equal(response.statusCode, 422);
    const [size, limit] = asReader({ locale: 'ru', timeZone: 'UTC' }, () => [formatBytes(route.limit * 3), formatBytes(route.limit)]);
    assert.ok(response.body.includes(`Размер файла — ${size}, это больше допустимого предела в ${limit}.`), response.body.slice(0, 2000));
    const broken = await send(route, route.right, TYPE, garbage(100), 'ru');
    assert.equal(broken.statusCode, 400);
    assert.ok(broken.body.includes('Загрузку не удалось прочитать'));
  });
});
