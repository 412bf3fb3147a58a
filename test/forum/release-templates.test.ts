// Release templates (docs/release-templates.md): an admin gives a forum the
// fields its releases ask for and the layout of their title and opening post;
// a new topic there is built from the fields, stays an ordinary editable
// post, and keeps its values; refusals name the field and change nothing.
// Through the API, the forum page's new-topic form and the admin page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

const TEMPLATE = {
  title_layout: '{title} ({year}) [{quality}]',
  body_layout: '[img]{poster}[/img]\n[b]Year:[/b] {year}\n[b]Quality:[/b] {quality}\n[b]Size:[/b] {size}\n\n{description}',
  fields: [
    { key: 'year', label: 'Year', kind: 'number', required: true },
    { key: 'quality', label: 'Quality', kind: 'choice', required: true, filterable: true, choices: ['720p', '1080p', '2160p'] },
    { key: 'poster', label: 'Poster', kind: 'image' },
    { key: 'size', label: 'Size', kind: 'size' },
  ],
};

interface TopicJson {
  id: number;
  title: string;
  url: string;
}

describeEachDatabase('release templates', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;
  let films: ForumRow;
  let talk: ForumRow;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const release = (values: Record<string, string>, title = 'The Long Goodbye', forumId = films.id) =>
    api('POST', '/api/topics', member, { forum_id: forumId, title, body: 'A fine transfer.', release: values });
  const opening = async (topicId: number) =>
    (await t.database.db.selectFrom('posts').select('body').where('topic_id', '=', topicId).orderBy('id').executeTakeFirstOrThrow()).body;
  const unchanged = async (request: () => Promise<{ statusCode: number; body: string }>, status: number, field?: string) => {
    await api('GET', '/api/user', member);
    await api('GET', '/api/user', admin);
    const before = await snapshotTables(t);
    const answer = await request();
    assert.equal(answer.statusCode, status, answer.body);
    if (field !== undefined)
      assert.ok(Object.hasOwn((JSON.parse(answer.body) as { errors?: Record<string, unknown> }).errors ?? {}, field), `${field} in ${answer.body}`);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
  };

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Template Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Uploader' });
    films = await t.services.forum.createForum({ name: 'Films' });
    talk = await t.services.forum.createForum({ name: 'Talk' });
  });
  after(() => t.close());

  describe('through the API', () => {
    it('lays out a release’s title and post from its fields, keeps its values, and leaves the post editable', async () => {
      const set = await api('PUT', `/api/forums/${films.id}/release-template`, admin, TEMPLATE);
      assert.equal(set.statusCode, 200, set.body);
      const read = await api('GET', `/api/forums/${films.id}/release-template`, null);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(
        read.json<{ data: { fields: Array<{ key: string }> } }>().data.fields.map((field) => field.key),
        ['year', 'quality', 'poster', 'size'],
      );

      const made = await release({ year: '1973', quality: '1080p', poster: 'https://img.example.org/goodbye.jpg', size: '1.5 GB' });
      assert.equal(made.statusCode, 201, made.body);
      const topic = made.json<{ data: TopicJson }>().data;
      assert.equal(topic.title, 'The Long Goodbye (1973) [1080p]');
      assert.equal(
        await opening(topic.id),
        '[img]https://img.example.org/goodbye.jpg[/img]\n[b]Year:[/b] 1973\n[b]Quality:[/b] 1080p\n[b]Size:[/b] 1.5 GiB\n\nA fine transfer.',
      );
      const values = await api('GET', `/api/topics/${topic.id}/release`, null);
      assert.deepEqual(
        values.json<{ data: Array<{ key: string; value: string }> }>().data.map((value) => [value.key, value.value]),
        [
          ['year', '1973'],
          ['quality', '1080p'],
          ['poster', 'https://img.example.org/goodbye.jpg'],
          ['size', String(1.5 * 1024 ** 3)],
        ],
      );
      const page = dom(await member.browser.get(topic.url));
      assert.equal(page.attr('main article img.bb-img', 'src') ?? page.attr('main article img', 'src'), 'https://img.example.org/goodbye.jpg');

      const bare = await release({ year: '1974', quality: '720p' }, 'Chinatown');
      assert.equal(
        await opening(bare.json<{ data: TopicJson }>().data.id),
        '[b]Year:[/b] 1974\n[b]Quality:[/b] 720p\n\nA fine transfer.',
        'the lines of empty fields are left out',
      );
      const firstPost = await t.database.db.selectFrom('posts').select('id').where('topic_id', '=', topic.id).executeTakeFirstOrThrow();
      const edited = await api('PATCH', `/api/posts/${firstPost.id}`, member, { body: 'Rewritten by its author.' });
      assert.equal(edited.statusCode, 200, edited.body);

      const plain = await api('POST', '/api/topics', member, { forum_id: films.id, title: 'A question', body: 'Without the template?' });
      assert.equal(plain.statusCode, 422, 'required fields: a topic here is a release');
    });

    it('refuses wrong values, naming the field, and changes nothing', async () => {
      await unchanged(() => release({ quality: '1080p' }), 422, 'release.year');
      await unchanged(() => release({ year: '1973', quality: '4K' }), 422, 'release.quality');
      await unchanged(() => release({ year: 'nineteen', quality: '720p' }), 422, 'release.year');
      await unchanged(() => release({ year: '1973', quality: '720p', poster: 'javascript:alert(1)' }), 422, 'release.poster');
      await unchanged(() => release({ year: '1973', quality: '720p', size: 'huge' }), 422, 'release.size');
      await unchanged(() => release({ year: '1973', quality: '720p', unknown: 'x' }), 422, 'release.unknown');
      await unchanged(() => release({ year: '1973', quality: '720p' }, 'x'.repeat(250)), 422, 'title');
      await unchanged(() => release({ year: '1973', quality: '720p', poster: 'https://a.example/\u0000' }), 422);
      await unchanged(() => release({ year: '1973' }, 'Elsewhere', talk.id), 422, 'release');
    });

    it('refuses a wrong template, and keeps releases’ values by key when it changes', async () => {
      const put =
        (body: object, who: MemberWithToken | null = admin, forumId = films.id) =>
        () =>
          api('PUT', `/api/forums/${forumId}/release-template`, who, body);
      const field = (extra: object) => ({ fields: [{ key: 'year', label: 'Year', kind: 'number', ...extra }] });
      await unchanged(put({ fields: [{ key: 'Bad Key', label: 'X', kind: 'text' }] }), 422, 'fields.0.key');
      await unchanged(put({ fields: [{ key: 'title', label: 'X', kind: 'text' }] }), 422, 'fields.0.key');
      await unchanged(
        put({
          fields: [
            { key: 'a', label: 'A', kind: 'text' },
            { key: 'a', label: 'B', kind: 'text' },
          ],
        }),
        422,
        'fields.1.key',
      );
      await unchanged(put({ fields: [{ key: 'q', label: 'Q', kind: 'choice', choices: ['only one'] }] }), 422, 'fields.0.choices');
      await unchanged(put({ fields: [{ key: 'q', label: 'Q', kind: 'text', filterable: true }] }), 422, 'fields.0.filterable');
      await unchanged(put({ fields: [{ key: 'q', label: '\u200b', kind: 'text' }] }), 422, 'fields.0.label');
      await unchanged(put({ fields: [] }), 422);
      await unchanged(put(field({}), member), 403);
      await unchanged(put(field({}), null), 401);
      await unchanged(put(field({}), admin, 99999999), 404);

      const kept = await api('PUT', `/api/forums/${films.id}/release-template`, admin, {
        ...TEMPLATE,
        fields: [{ ...TEMPLATE.fields[0], label: 'Year of release' }, TEMPLATE.fields[1]],
      });
      assert.equal(kept.statusCode, 200, kept.body);
      const rows = await t.database.db
        .selectFrom('release_values')
        .innerJoin('release_fields', 'release_fields.id', 'release_values.field_id')
        .select(['release_fields.key', 'release_fields.label'])
        .distinct()
        .orderBy('release_fields.key', 'desc')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.key, row.label]),
        [
          ['year', 'Year of release'],
          ['quality', 'Quality'],
        ],
        'the kept fields keep their values; the dropped ones go with theirs',
      );
      assert.equal((await api('DELETE', `/api/forums/${talk.id}/release-template`, admin)).statusCode, 404);
    });
  });

  describe('filters', () => {
    it('select torrents by a filterable field of the chosen forum, on the API and the tracker list', async () => {
      const made: number[] = [];
      for (const [title, quality] of [
        ['Filter one', '720p'],
        ['Filter two', '2160p'],
        ['Filter three', '2160p'],
      ] as const) {
        const topic = (await release({ year: '1999', quality }, title)).json<{ data: TopicJson }>().data;
        await t.services.tracker.torrents.upload(asAuthUser(member.user), topic.id, makeTorrent({ name: `${title}.mkv` }), 'http://localhost');
        made.push(topic.id);
      }
      const names = async (query: string) => {
        const answer = await api('GET', `/api/torrents?${query}`, member);
        assert.equal(answer.statusCode, 200, answer.body);
        return answer
          .json<{ data: Array<{ name: string }> }>()
          .data.map((row) => row.name)
          .sort();
      };
      assert.deepEqual(await names(`forum=${films.id}&release.quality=2160p`), ['Filter three.mkv', 'Filter two.mkv']);
      assert.deepEqual(await names(`forum=${films.id}&release.quality=720p&search=Filter`), ['Filter one.mkv']);
      assert.equal((await api('GET', `/api/torrents?release.quality=720p`, member)).statusCode, 422, 'a filter needs its forum');
      assert.equal((await api('GET', `/api/torrents?forum=${films.id}&release.year=1999`, member)).statusCode, 422, 'year is no filter');
      assert.equal((await api('GET', `/api/torrents?forum=${films.id}&release.nothing=1`, member)).statusCode, 422);

      const page = dom(await member.browser.get(`/tracker/?forum=${films.id}&release.quality=2160p`));
      assert.equal(page.attr('select[name="release.quality"] option[selected]', 'value'), '2160p');
      assert.equal(page.count('main table tbody tr'), 2);
      assert.equal((await member.browser.get(`/tracker/?release.quality=2160p`)).status, 422);
    });

    it('asks for the fields on the .torrent upload page of a template forum', async () => {
      const form = dom(await member.browser.get(`/tracker/upload/?forum=${films.id}`));
      assert.ok(form.has('fieldset.release select[name="release.quality"]'));
    });
  });

  describe('on the pages', () => {
    it('asks for the fields in the new-topic form, previews and posts the laid-out release, and shows refusals at their fields', async () => {
      const forumPath = `/forum/films.${films.id}/`;
      const form = dom(await member.browser.get(forumPath));
      assert.deepEqual(
        form.all('fieldset.release [name^="release."]').map((control) => control.getAttribute('name')),
        ['release.year', 'release.quality'],
      );
      const missing = await member.browser.post(forumPath, { title: 'Chinatown', body: 'Noir.', 'release.year': '', 'release.quality': '720p' });
      assert.equal(missing.status, 422);
      assert.match(dom(missing).text('#release-year-error'), /Fill in “Year of release”/);
      const preview = await member.browser.post(forumPath, {
        title: 'Chinatown',
        body: 'Noir.',
        'release.year': '1974',
        'release.quality': '720p',
        preview: '1',
      });
      assert.equal(preview.status, 200);
      assert.match(dom(preview).text(), /Chinatown \(1974\) \[720p\]/);
      const posted = await member.browser.post(forumPath, { title: 'Chinatown', body: 'Noir.', 'release.year': '1974', 'release.quality': '720p' });
      assert.equal(posted.status, 303);
      const topic = await t.database.db.selectFrom('topics').select('id').where('title', '=', 'Chinatown (1974) [720p]').executeTakeFirst();
      assert.ok(topic, 'the topic is titled by the template');
    });

    it('lets an admin write the template without a script, naming a wrong row, and remove it after asking', async () => {
      const base = `/admin/forums/${talk.id}/release-template/`;
      const page = dom(await admin.browser.get(base));
      assert.equal(page.count('input[name$=".key"]'), 3, 'a new template: three blank rows');
      const refused = await admin.browser.post(base, {
        title_layout: '{title} [{format}]',
        body_layout: '',
        'fields.0.key': 'format',
        'fields.0.label': 'Format',
        'fields.0.kind': 'choice',
        'fields.0.choices': 'FLAC\nMP3',
        'fields.1.key': '',
        'fields.1.label': '',
        'fields.1.kind': 'text',
        'fields.1.choices': '',
        'fields.2.key': 'Bad Key',
        'fields.2.label': 'Bad',
        'fields.2.kind': 'text',
        'fields.2.choices': '',
      });
      assert.equal(refused.status, 422);
      assert.ok(dom(refused).find('#release-fields-2-key-error') !== null, 'the error stands at the third row, where the bad key was typed');
      const saved = await admin.browser.post(base, {
        title_layout: '{title} [{format}]',
        body_layout: '',
        'fields.0.key': 'format',
        'fields.0.label': 'Format',
        'fields.0.kind': 'choice',
        'fields.0.filterable': '1',
        'fields.0.choices': 'FLAC\nMP3',
        'fields.1.key': '',
        'fields.1.label': '',
        'fields.1.kind': 'text',
        'fields.1.choices': '',
      });
      assert.equal(saved.status, 303);
      const template = await t.services.forum.releases.of(talk.id);
      assert.deepEqual(
        template?.fields.map((field) => [field.key, field.kind, field.filterable, field.choices]),
        [['format', 'choice', true, ['FLAC', 'MP3']]],
      );
      const asked = await admin.browser.post(`${base}delete/`, {});
      assert.equal(asked.status, 200);
      assert.ok(await t.services.forum.releases.of(talk.id), 'asking removes nothing');
      assert.equal((await admin.browser.post(`${base}delete/`, { confirmed: '1' })).status, 303);
      assert.equal(await t.services.forum.releases.of(talk.id), null);
      assert.equal((await member.browser.get(base)).status, 403);
    });
  });
});
