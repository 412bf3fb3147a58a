import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import type { WordFilterRecord } from '../../src/word-filters/repository.ts';
import { createRule, MICROSECOND_TIMESTAMP } from './helpers.ts';

describeEachDatabase('word-filter reads', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;
  let user: SignedIn;
  // Created oldest first: a, b, c, d, e.
  let a: WordFilterRecord;
  let b: WordFilterRecord;
  let c: WordFilterRecord;
  let d: WordFilterRecord;
  let e: WordFilterRecord;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin');
    moderator = await signIn(t, 'moderator');
    user = await signIn(t, 'user');
    a = await createRule(
      t,
      { pattern: 'Alpha', filter_type: 'block', pattern_type: 'exact', severity: 'high', applies_to: ['posts', 'topics'], notes: 'slur list' },
      admin.user.id,
    );
    b = await createRule(
      t,
      { pattern: 'b*ta', filter_type: 'replace', replacement: '***', pattern_type: 'wildcard', severity: 'low', applies_to: ['comments'] },
      admin.user.id,
    );
    c = await createRule(
      t,
      {
        pattern: '/gam+a/i',
        filter_type: 'moderate',
        pattern_type: 'regex',
        severity: 'medium',
        is_active: false,
        applies_to: ['posts'],
        notes: 'spam wave of May',
      },
      admin.user.id,
    );
    d = await createRule(
      t,
      { pattern: 'delta', filter_type: 'moderate', pattern_type: 'exact', severity: 'high', applies_to: ['signatures'], notes: 'ALPHA team asked' },
      admin.user.id,
    );
    e = await createRule(
      t,
      { pattern: 'epsilon alpha', filter_type: 'block', pattern_type: 'exact', severity: 'low', applies_to: ['posts', 'usernames'] },
      admin.user.id,
    );
  });
  after(() => t.close());

  const get = (url: string, who: SignedIn | null = moderator) => t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const ids = async (url: string): Promise<number[]> => {
    const response = await get(url);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data.map((rule: { id: number }) => rule.id);
  };

  describe('GET /api/word-filters', () => {
    it('lists newest first, paginated with links and meta {current_page, from, last_page, per_page, to, total}', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/word-filters?per_page=2&page=2', headers: { ...moderator.headers, host: 'forum.test' } });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(
        body.data.map((rule: { id: number }) => rule.id),
        [c.id, b.id],
      );
      assert.deepEqual(body.meta, { current_page: 2, from: 3, last_page: 3, per_page: 2, to: 4, total: 5 });
      assert.equal(body.links.prev, 'http://forum.test/api/word-filters?per_page=2&page=1');
      assert.equal(body.links.next, 'http://forum.test/api/word-filters?per_page=2&page=3');
      assert.deepEqual(await ids('/api/word-filters'), [e.id, d.id, c.id, b.id, a.id]);
    });

    it('shows each rule in full', async () => {
      const rule = (await get('/api/word-filters?per_page=100')).json().data.find((item: { id: number }) => item.id === b.id);
      assert.deepEqual(
        { ...rule, created_at: undefined, updated_at: undefined },
        {
          id: b.id,
          pattern: 'b*ta',
          replacement: '***',
          filter_type: 'replace',
          pattern_type: 'wildcard',
          severity: 'low',
          is_active: true,
          case_sensitive: false,
          applies_to: ['comments'],
          notes: null,
          creator: { id: admin.user.id, name: admin.user.name, email: admin.user.email },
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.match(rule.created_at, MICROSECOND_TIMESTAMP);
    });

    it('filters by filter_type, pattern_type, severity, is_active, applies_to and search, together', async () => {
      assert.deepEqual(await ids('/api/word-filters?filter_type=moderate'), [d.id, c.id]);
      assert.deepEqual(await ids('/api/word-filters?pattern_type=exact'), [e.id, d.id, a.id]);
      assert.deepEqual(await ids('/api/word-filters?severity=high'), [d.id, a.id]);
      assert.deepEqual(await ids('/api/word-filters?is_active=0'), [c.id]);
      assert.deepEqual(await ids('/api/word-filters?is_active=false'), [c.id]);
      assert.deepEqual(await ids('/api/word-filters?is_active=true'), [e.id, d.id, b.id, a.id]);
      assert.deepEqual(await ids('/api/word-filters?applies_to=posts'), [e.id, c.id, a.id]);
      assert.deepEqual(await ids('/api/word-filters?search=alpha'), [e.id, d.id, a.id]);
      assert.deepEqual(await ids('/api/word-filters?search=SPAM'), [c.id]);
      assert.deepEqual(await ids('/api/word-filters?search=alpha&applies_to=posts&severity=low&is_active=1'), [e.id]);
      assert.deepEqual(await ids('/api/word-filters?search=%25'), []);
    });

    it('sorts by sort+order and by sort_by+sort_order, severity by weight, ascending unless told', async () => {
      // By code point, ignoring case, on both databases: "/" before letters.
      assert.deepEqual(await ids('/api/word-filters?sort=pattern'), [c.id, a.id, b.id, d.id, e.id]);
      assert.deepEqual(await ids('/api/word-filters?sort=pattern&order=desc'), [e.id, d.id, b.id, a.id, c.id]);
      assert.deepEqual(await ids('/api/word-filters?sort_by=id&sort_order=asc'), [a.id, b.id, c.id, d.id, e.id]);
      assert.deepEqual(await ids('/api/word-filters?sort_by=severity&sort_order=desc'), [d.id, a.id, c.id, e.id, b.id]);
      assert.deepEqual(await ids('/api/word-filters?sort=filter_type'), [a.id, e.id, c.id, d.id, b.id]);
      assert.deepEqual(await ids('/api/word-filters?sort=is_active&order=asc&per_page=1'), [c.id]);
      assert.deepEqual(await ids('/api/word-filters?order=asc'), [a.id, b.id, c.id, d.id, e.id]);
    });

    it('rejects invalid list parameters with 422 on each', async () => {
      const response = await get(
        '/api/word-filters?filter_type=delete&pattern_type=glob&severity=0&is_active=maybe&applies_to=wiki&per_page=101&sort=name&order=up&sort_by=x&sort_order=y',
      );
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), [
        'applies_to',
        'filter_type',
        'is_active',
        'order',
        'pattern_type',
        'per_page',
        'severity',
        'sort',
        'sort_by',
        'sort_order',
      ]);
      assert.deepEqual(response.json().errors.is_active, ['The is active field must be true or false.']);
    });

    it('is for admins and moderators: 401 for guests, 403 for users', async () => {
      assert.equal((await get('/api/word-filters', admin)).statusCode, 200);
      assert.equal((await get('/api/word-filters', null)).statusCode, 401);
      assert.equal((await get('/api/word-filters', user)).statusCode, 403);
    });
  });

  describe('GET /api/word-filters/search', () => {
    it('finds text in pattern and notes, pattern matches first and closest first, without links or meta', async () => {
      const response = await get('/api/word-filters/search?q=alpha');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['data']);
      assert.deepEqual(
        body.data.map((rule: { id: number }) => rule.id),
        [a.id, e.id, d.id],
      );
    });

    it('applies filter_type, pattern_type, severity and is_active before the limit', async () => {
      assert.deepEqual(await ids('/api/word-filters/search?q=alpha&limit=1&filter_type=block&severity=low'), [e.id]);
      assert.deepEqual(await ids('/api/word-filters/search?q=alpha&limit=1&pattern_type=exact&filter_type=moderate'), [d.id]);
      assert.deepEqual(await ids('/api/word-filters/search?q=a&is_active=0'), [c.id]);
      // All five contain "a": the shortest patterns first, then the newest.
      assert.deepEqual(await ids('/api/word-filters/search?q=a&limit=3'), [b.id, d.id, a.id]);
    });

    it('answers 400 {message, errors} when q is missing or empty, or limit is not 1..100', async () => {
      for (const [query, field] of [
        ['', 'q'],
        ['q=', 'q'],
        ['q=%20', 'q'],
        ['q=a&limit=0', 'limit'],
        ['q=a&limit=101', 'limit'],
        ['q=a&limit=ten', 'limit'],
      ] as const) {
        const response = await get(`/api/word-filters/search?${query}`);
        assert.equal(response.statusCode, 400, query);
        assert.deepEqual(Object.keys(response.json().errors), [field], query);
        assert.equal(typeof response.json().message, 'string');
      }
    });

    it('is for admins and moderators (403 for users)', async () => {
      assert.equal((await get('/api/word-filters/search?q=a', user)).statusCode, 403);
    });
  });

  describe('GET /api/word-filters/:id', () => {
    it('shows one rule', async () => {
      const response = await get(`/api/word-filters/${c.id}`);
      assert.equal(response.statusCode, 200);
      const { data } = response.json();
      assert.equal(data.id, c.id);
      assert.equal(data.pattern, '/gam+a/i');
      assert.equal(data.is_active, false);
      assert.deepEqual(data.applies_to, ['posts']);
    });

    it('answers 404 {message: "Word filter not found."} for an unknown id, and 404 for a non-integer id', async () => {
      const response = await get('/api/word-filters/999999');
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'Word filter not found.' });
      assert.equal((await get('/api/word-filters/abc')).statusCode, 404);
    });

    it('shows creator null once the creating user is deleted', async () => {
      const departing = await signIn(t, 'admin');
      const rule = await createRule(t, { pattern: 'orphan' }, departing.user.id);
      assert.equal((await get(`/api/word-filters/${rule.id}`)).json().data.creator.id, departing.user.id);
      await t.services.users.delete(departing.user.id);
      const response = await get(`/api/word-filters/${rule.id}`);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.creator, null);
      await t.services.wordFilters.delete(rule.id);
    });
  });

  it('documents every endpoint under the word-filters tag', async () => {
    const document = (await get('/api/openapi.json')).json();
    const operations = [
      document.paths['/api/word-filters/']?.get ?? document.paths['/api/word-filters']?.get,
      document.paths['/api/word-filters/']?.post ?? document.paths['/api/word-filters']?.post,
      document.paths['/api/word-filters/search']?.get,
      document.paths['/api/word-filters/check']?.post,
      document.paths['/api/word-filters/{id}']?.get,
      document.paths['/api/word-filters/{id}']?.patch,
      document.paths['/api/word-filters/{id}']?.delete,
    ];
    for (const operation of operations) {
      assert.ok(operation, 'documented');
      assert.deepEqual(operation.tags, ['word-filters']);
    }
    assert.equal(document.paths['/api/word-filters/{id}'].put, undefined);
  });
});
