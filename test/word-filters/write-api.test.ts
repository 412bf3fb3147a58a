import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createRule, MICROSECOND_TIMESTAMP } from './helpers.ts';

describeEachDatabase('word-filter writes', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Filter Admin');
    moderator = await signIn(t, 'moderator');
  });
  after(() => t.close());

  const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: SignedIn | null = admin) =>
    t.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}), headers: who?.headers ?? {} });
  const create = (payload: unknown, who: SignedIn | null = admin) => send('POST', '/api/word-filters', payload, who);
  const valid = { pattern: 'darn', filter_type: 'block', pattern_type: 'exact', applies_to: ['posts'] };

  describe('POST /api/word-filters', () => {
    it('creates a rule with the defaults and the signed-in admin as creator (201)', async () => {
      const response = await create({ ...valid, applies_to: ['topics', 'posts', 'topics'] });
      assert.equal(response.statusCode, 201);
      const { data } = response.json();
      assert.deepEqual(
        { ...data, id: undefined, created_at: undefined, updated_at: undefined },
        {
          id: undefined,
          pattern: 'darn',
          replacement: null,
          filter_type: 'block',
          pattern_type: 'exact',
          severity: 'medium',
          is_active: true,
          case_sensitive: false,
          applies_to: ['posts', 'topics'],
          notes: null,
          creator: { id: admin.user.id, name: 'Filter Admin', email: admin.user.email },
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.match(data.created_at, MICROSECOND_TIMESTAMP);
      assert.equal(data.updated_at, data.created_at);
      assert.ok(Math.abs(Date.parse(data.created_at) - Date.now()) < 60_000);
    });

    it('stores every given field as sent', async () => {
      const payload = {
        pattern: '  Bad Word ',
        replacement: '[removed]',
        filter_type: 'replace',
        pattern_type: 'exact',
        severity: 'high',
        is_active: false,
        case_sensitive: true,
        applies_to: ['usernames', 'signatures'],
        notes: 'From the 2024 list',
      };
      const response = await create(payload);
      assert.equal(response.statusCode, 201);
      const { id, creator, created_at, updated_at, ...stored } = response.json().data;
      assert.deepEqual(stored, { ...payload, applies_to: ['signatures', 'usernames'] });
    });

    it('requires pattern, filter_type, pattern_type and applies_to (422 listing each)', async () => {
      const response = await create({});
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, {
        pattern: ['The pattern field is required.'],
        filter_type: ['The filter type field is required.'],
        pattern_type: ['The pattern type field is required.'],
        applies_to: ['The applies to field is required.'],
      });
      const blank = await create({ ...valid, pattern: '   ' });
      assert.deepEqual(blank.json().errors, { pattern: ['The pattern field is required.'] });
    });

    it('requires replacement when filter_type is replace (422 on replacement)', async () => {
      for (const replacement of [undefined, null, '', '  ']) {
        const response = await create({ ...valid, filter_type: 'replace', ...(replacement !== undefined ? { replacement } : {}) });
        assert.equal(response.statusCode, 422, String(replacement));
        assert.deepEqual(response.json().errors, { replacement: ['The replacement field is required when filter type is replace.'] });
      }
      assert.equal((await create({ ...valid, filter_type: 'replace', replacement: '***' })).statusCode, 201);
    });

    it('rejects filter_type, pattern_type and severity outside the allowed values (422 on each)', async () => {
      const response = await create({ ...valid, filter_type: 'delete', pattern_type: 'glob', severity: 'extreme' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, {
        filter_type: ['The selected filter type is invalid.'],
        pattern_type: ['The selected pattern type is invalid.'],
        severity: ['The selected severity is invalid.'],
      });
    });

    it('rejects an empty applies_to, and unknown content types keyed applies_to.N', async () => {
      assert.deepEqual((await create({ ...valid, applies_to: [] })).json().errors, { applies_to: ['The applies to field is required.'] });
      const response = await create({ ...valid, applies_to: ['posts', 'emails', 'topics', 'wiki'] });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors), ['applies_to.1', 'applies_to.3']);
      assert.equal((await create({ ...valid, applies_to: 'posts' })).json().errors.applies_to[0], 'The applies to field must be an array.');
    });

    it('enforces the length limits in characters: pattern and replacement 255, notes 1000', async () => {
      const response = await create({ ...valid, filter_type: 'replace', pattern: 'a'.repeat(256), replacement: 'r'.repeat(256), notes: 'n'.repeat(1001) });
      assert.deepEqual(response.json().errors, {
        pattern: ['The pattern field must not be greater than 255 characters.'],
        replacement: ['The replacement field must not be greater than 255 characters.'],
        notes: ['The notes field must not be greater than 1000 characters.'],
      });
      // 255 emoji are 510 UTF-16 units but 255 characters.
      assert.equal(
        (await create({ ...valid, filter_type: 'replace', pattern: '😀'.repeat(255), replacement: 'r'.repeat(255), notes: 'n'.repeat(1000) })).statusCode,
        201,
      );
    });

    it('rejects wrong JSON types without coercing them', async () => {
      const response = await create({ ...valid, is_active: 'yes', case_sensitive: 1, pattern: 5 });
      assert.deepEqual(response.json().errors, {
        pattern: ['The pattern field must be a string.'],
        is_active: ['The is active field must be true or false.'],
        case_sensitive: ['The case sensitive field must be true or false.'],
      });
    });

    it('rejects a regex the engine cannot run (422 on pattern)', async () => {
      const cases: Array<[string, RegExp]> = [
        ['(unclosed', /^The pattern is not a valid regular expression .*missing closing \)/],
        ['(?=look-ahead)', /^The pattern uses look-around \(\(\?=, \(\?!, \(\?<=, \(\?<!\), which the filter engine \(RE2\) does not support\.$/],
        ['/(?<!\\w)behind/i', /^The pattern uses look-around/],
        ['(a)\\1', /^The pattern uses a back-reference, which the filter engine \(RE2\) does not support\.$/],
        ['\\p{Nope}', /^The pattern is not a valid regular expression .*invalid character class range/],
        ['/spam/y', /^The pattern flag "y" is not supported; use i, m, s, u or x\.$/],
        ['a*', /^The pattern must not match empty text\.$/],
      ];
      for (const [pattern, message] of cases) {
        const response = await create({ ...valid, pattern, pattern_type: 'regex' });
        assert.equal(response.statusCode, 422, pattern);
        const errors = response.json().errors;
        assert.deepEqual(Object.keys(errors), ['pattern'], pattern);
        assert.match(errors.pattern[0], message);
      }
    });

    it('accepts regexes bare or as /…/flags, and stores /^(a+)+$/ (safe: the engine is linear)', async () => {
      for (const pattern of ['\\b\\d{3}-\\d{4}\\b', '/\\b\\d{3}-\\d{4}\\b/i', '/^(a+)+$/', '/ sp a m # spaced out\n/x']) {
        const response = await create({ ...valid, pattern, pattern_type: 'regex' });
        assert.equal(response.statusCode, 201, pattern);
        assert.equal(response.json().data.pattern, pattern);
      }
    });

    it('rejects a wildcard pattern made of wildcards only (422 on pattern)', async () => {
      for (const pattern of ['*', '* ?', '**!']) {
        const response = await create({ ...valid, pattern, pattern_type: 'wildcard' });
        assert.deepEqual(
          response.json().errors,
          { pattern: ['The pattern must contain at least one letter or digit besides the wildcards * and ?.'] },
          pattern,
        );
      }
      assert.equal((await create({ ...valid, pattern: 'buy * now', pattern_type: 'wildcard' })).statusCode, 201);
    });

    it('is for admins only: 401 for guests, 403 for moderators', async () => {
      assert.equal((await create(valid, null)).statusCode, 401);
      const forbidden = await create(valid, moderator);
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().error.code, 'FORBIDDEN');
    });
  });

  describe('PATCH /api/word-filters/:id', () => {
    it('changes only the given fields and moves updated_at', async () => {
      const rule = await createRule(t, { notes: 'keep me', severity: 'low', applies_to: ['posts', 'comments'] }, admin.user.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, { severity: 'high', is_active: false });
      assert.equal(response.statusCode, 200);
      const { data } = response.json();
      assert.equal(data.severity, 'high');
      assert.equal(data.is_active, false);
      assert.equal(data.notes, 'keep me');
      assert.deepEqual(data.applies_to, ['posts', 'comments']);
      assert.equal(data.pattern, 'darn');
      assert.equal(data.creator.id, admin.user.id);
      assert.match(data.updated_at, MICROSECOND_TIMESTAMP);
      assert.ok(data.updated_at > data.created_at);
    });

    it('requires replacement when filter_type becomes replace (422 on replacement)', async () => {
      const rule = await createRule(t);
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, { filter_type: 'replace' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, { replacement: ['The replacement field is required when filter type is replace.'] });
      const ok = await send('PATCH', `/api/word-filters/${rule.id}`, { filter_type: 'replace', replacement: 'd**n' });
      assert.equal(ok.json().data.replacement, 'd**n');
    });

    it('refuses to clear the replacement of a replace rule, and allows it once the rule blocks instead', async () => {
      const rule = await createRule(t, { filter_type: 'replace', replacement: '***' });
      assert.equal((await send('PATCH', `/api/word-filters/${rule.id}`, { replacement: null })).statusCode, 422);
      const changed = await send('PATCH', `/api/word-filters/${rule.id}`, { replacement: null, filter_type: 'moderate' });
      assert.equal(changed.statusCode, 200);
      assert.equal(changed.json().data.replacement, null);
    });

    it('checks the stored pattern when pattern_type becomes regex (422 on pattern)', async () => {
      const rule = await createRule(t, { pattern: '(oops' });
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, { pattern_type: 'regex' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors), ['pattern']);
      assert.equal((await send('PATCH', `/api/word-filters/${rule.id}`, { pattern_type: 'regex', pattern: '\\(oops' })).statusCode, 200);
    });

    it('writes nothing when any field is invalid', async () => {
      const rule = await createRule(t, { severity: 'low' });
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, { severity: 'high', pattern: '(', pattern_type: 'regex' });
      assert.equal(response.statusCode, 422);
      const stored = await t.services.wordFilters.get(rule.id);
      assert.equal(stored.severity, 'low');
      assert.equal(stored.pattern_type, 'exact');
    });

    it('replaces applies_to as a whole, and validates it like create', async () => {
      const rule = await createRule(t, { applies_to: ['posts', 'topics'] });
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, { applies_to: ['private_messages'] });
      assert.deepEqual(response.json().data.applies_to, ['private_messages']);
      assert.deepEqual(Object.keys((await send('PATCH', `/api/word-filters/${rule.id}`, { applies_to: ['nope'] })).json().errors), ['applies_to.0']);
      assert.deepEqual((await send('PATCH', `/api/word-filters/${rule.id}`, { applies_to: [] })).json().errors, {
        applies_to: ['The applies to field is required.'],
      });
    });

    it("ignores fields that are not the rule's own (id, creator, timestamps)", async () => {
      const rule = await createRule(t, {}, admin.user.id);
      const other = await signIn(t, 'admin');
      const response = await send('PATCH', `/api/word-filters/${rule.id}`, {
        id: 77777,
        creator_id: other.user.id,
        created_at: '2000-01-01T00:00:00.000Z',
        severity: 'low',
      });
      assert.equal(response.statusCode, 200);
      const { data } = response.json();
      assert.equal(data.id, rule.id);
      assert.equal(data.creator.id, admin.user.id);
      assert.equal(data.created_at.slice(0, 23), rule.created_at.slice(0, 23));
      assert.equal(data.severity, 'low');
    });

    it('answers 404 {message} for an unknown id', async () => {
      const response = await send('PATCH', '/api/word-filters/999999', { severity: 'high' });
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'Word filter not found.' });
    });

    it('is the only update route: PUT answers 405 with Allow', async () => {
      const rule = await createRule(t);
      const response = await send('PUT', `/api/word-filters/${rule.id}`, valid);
      assert.equal(response.statusCode, 405);
      assert.equal(response.json().error.code, 'METHOD_NOT_ALLOWED');
      assert.match(String(response.headers['allow']), /PATCH/);
    });

    it('is for admins only (403 for moderators)', async () => {
      const rule = await createRule(t);
      assert.equal((await send('PATCH', `/api/word-filters/${rule.id}`, { severity: 'high' }, moderator)).statusCode, 403);
    });
  });

  describe('DELETE /api/word-filters/:id', () => {
    it('deletes permanently: 204 with an empty body, then 404', async () => {
      const rule = await createRule(t, { applies_to: ['posts', 'topics'] });
      const response = await send('DELETE', `/api/word-filters/${rule.id}`);
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await send('DELETE', `/api/word-filters/${rule.id}`)).statusCode, 404);
      const leftovers = await t.database.db.selectFrom('word_filter_content_types').selectAll().where('word_filter_id', '=', rule.id).execute();
      assert.deepEqual(leftovers, []);
    });

    it('answers 404 for an unknown id and 403 for moderators', async () => {
      assert.deepEqual((await send('DELETE', '/api/word-filters/424242')).json(), { message: 'Word filter not found.' });
      const rule = await createRule(t);
      assert.equal((await send('DELETE', `/api/word-filters/${rule.id}`, undefined, moderator)).statusCode, 403);
    });
  });

  describe('the database behind the rules', () => {
    it('refuses an unknown content type, a duplicate pair and a replace rule without replacement', async () => {
      const rule = await createRule(t);
      const insertType = (content_type: string) =>
        t.database.db
          .insertInto('word_filter_content_types')
          .values({ word_filter_id: rule.id, content_type: content_type as 'posts' })
          .execute();
      await assert.rejects(insertType('emails'));
      await assert.rejects(insertType('posts'));
      await assert.rejects(t.database.db.updateTable('word_filters').set({ filter_type: 'replace', replacement: null }).where('id', '=', rule.id).execute());
    });
  });
});
