import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Type } from 'typebox';
import { ApiError } from '../../src/http/errors.ts';
import { PageQueryProperties, PaginatedOf, pageRequest, paginated } from '../../src/http/pagination.ts';
import { IdParams, QueryFlag, RequiredText, SearchQueryProperties, isOn } from '../../src/http/schemas.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';

// Routes that exercise the shared conventions the way every module uses them.
async function addConventionRoutes(t: TestApp): Promise<void> {
  const { app } = t;
  app.post(
    '/api/test/things',
    {
      schema: {
        body: Type.Object({
          title: RequiredText(10),
          display_order: Type.Integer({ minimum: 0 }),
          sprite_params: Type.Optional(Type.Object({ x: Type.Integer(), sheet: Type.String() })),
          tags: Type.Optional(Type.Array(Type.Union([Type.Literal('a'), Type.Literal('b')]), { minItems: 1 })),
        }),
      },
    },
    async (request) => ({ data: request.body }),
  );

  app.get(
    '/api/test/things/search',
    {
      config: { validationStatus: 400 },
      schema: { querystring: Type.Object(SearchQueryProperties) },
    },
    async (request) => ({ data: [request.query] }),
  );

  app.get('/api/test/things/:id', { schema: { params: IdParams } }, async (request) => ({ data: { id: request.params.id } }));

  const items = Array.from({ length: 7 }, (_, i) => i + 1);
  app.get(
    '/api/test/numbers',
    {
      schema: {
        querystring: Type.Object({ ...PageQueryProperties, odd: Type.Optional(QueryFlag) }),
        response: { 200: PaginatedOf(Type.Integer()) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const all = isOn(request.query.odd) ? items.filter((n) => n % 2 === 1) : items;
      return paginated(request, t.config.baseUrl, page, all.slice(page.offset, page.offset + page.perPage), all.length);
    },
  );

  app.get('/api/test/boom', async () => {
    throw new Error('SQLITE_ERROR: no such column: password_hash in SELECT * FROM users');
  });
  app.get('/api/test/forbidden', async () => {
    throw new ApiError('FORBIDDEN', 'You may not do that.');
  });
}

describeEachDatabase('HTTP conventions', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
    await addConventionRoutes(t);
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers an unknown /api route with 404 in the general envelope', async () => {
    const response = await get('/api/nothing-here');
    assert.equal(response.statusCode, 404);
    const body = response.json();
    assert.equal(body.success, false);
    assert.equal(body.error.code, 'NOT_FOUND');
    assert.equal(typeof body.message, 'string');
    assert.equal(body.error.message, body.message);
    assert.ok('details' in body.error);
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/hello' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.json().error.code, 'METHOD_NOT_ALLOWED');
    assert.match(String(response.headers['allow']), /GET/);
  });

  it('answers pages with an HTML error page, sent as HTML (not as a JSON string)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/login/',
      payload: 'username=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.statusCode, 403);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.ok(response.body.startsWith('<!doctype html>'), response.body.slice(0, 40));
  });

  it('answers a missing file under a static path with 404, not 405 (the method was right)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/no-such-file.css' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.headers['allow'], undefined);
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/things', headers: { 'content-type': 'application/json' }, payload: '{"title": ' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error.code, 'BAD_REQUEST');
  });

  it('answers an unsupported content type with 400 BAD_REQUEST', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/things', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error.code, 'BAD_REQUEST');
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/things',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().error.code, 'PAYLOAD_TOO_LARGE');
  });

  it('reports every invalid field at once with 422, dotted nested keys and Laravel wording', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/things',
      payload: { title: '   ', display_order: -1, sprite_params: { x: 'left' }, tags: ['a', 'z'] },
    });
    assert.equal(response.statusCode, 422);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['errors', 'message']);
    assert.deepEqual(body.errors['title'], ['The title field is required.']);
    assert.deepEqual(body.errors['display_order'], ['The display order field must be at least 0.']);
    assert.deepEqual(body.errors['sprite_params.x'], ['The sprite params.x field must be an integer.']);
    assert.deepEqual(body.errors['sprite_params.sheet'], ['The sprite params.sheet field is required.']);
    assert.deepEqual(body.errors['tags.1'], ['The selected tags.1 is invalid.']);
    assert.equal(body.message, 'The title field is required. (and 4 more errors)');
  });

  it('counts length in code points: a seven-code-point family emoji fits in 10', async () => {
    const family = '👨‍👩‍👧‍👦'; // 7 code points, 11 UTF-16 units
    const ok = await t.app.inject({ method: 'POST', url: '/api/test/things', payload: { title: family, display_order: 0 } });
    assert.equal(ok.statusCode, 200);
    const tooLong = await t.app.inject({ method: 'POST', url: '/api/test/things', payload: { title: 'x'.repeat(11), display_order: 0 } });
    assert.deepEqual(tooLong.json().errors.title, ['The title field must not be greater than 10 characters.']);
  });

  it('does not coerce JSON types in bodies', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/things', payload: { title: 5, display_order: '3' } });
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json().errors, {
      title: ['The title field must be a string.'],
      display_order: ['The display order field must be an integer.'],
    });
  });

  it('answers invalid search input with 400 and the same body shape', async () => {
    const missing = await get('/api/test/things/search');
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json().errors, { q: ['The q field is required.'] });
    const bad = await get('/api/test/things/search?q=a&limit=101');
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json().errors, { limit: ['The limit field must not be greater than 100.'] });
    const empty = await get('/api/test/things/search?q=&limit=abc');
    assert.deepEqual(Object.keys(empty.json().errors).sort(), ['limit', 'q']);
  });

  it('treats a non-integer path id as 404', async () => {
    for (const id of ['abc', '1.5', '0', '99999999999']) {
      const response = await get(`/api/test/things/${id}`);
      assert.equal(response.statusCode, 404, id);
      assert.equal(response.json().error.code, 'NOT_FOUND');
    }
    assert.equal((await get('/api/test/things/12')).json().data.id, 12);
  });

  it('paginates with absolute links that keep the other query parameters', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/test/numbers?odd=1&per_page=2&page=2', headers: { host: 'forum.test' } });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(body.data, [5, 7]);
    assert.deepEqual(body.meta, { current_page: 2, per_page: 2, total: 4, last_page: 2, from: 3, to: 4 });
    assert.equal(body.links.first, 'http://forum.test/api/v1/test/numbers?odd=1&per_page=2&page=1');
    assert.equal(body.links.last, 'http://forum.test/api/v1/test/numbers?odd=1&per_page=2&page=2');
    assert.equal(body.links.prev, 'http://forum.test/api/v1/test/numbers?odd=1&per_page=2&page=1');
    assert.equal(body.links.next, null);
  });

  it('defaults to page 1 of 50, and reports an empty page with from/to null', async () => {
    const first = (await get('/api/test/numbers')).json();
    assert.deepEqual(first.meta, { current_page: 1, per_page: 50, total: 7, last_page: 1, from: 1, to: 7 });
    assert.equal(first.links.prev, null);
    const beyond = (await get('/api/test/numbers?page=9')).json();
    assert.deepEqual(beyond.data, []);
    assert.equal(beyond.meta.from, null);
    assert.equal(beyond.meta.to, null);
  });

  it('rejects per_page above 100 and non-boolean flags with 422', async () => {
    const response = await get('/api/test/numbers?per_page=101&odd=maybe');
    assert.equal(response.statusCode, 422);
    assert.deepEqual(response.json().errors, {
      per_page: ['The per page field must not be greater than 100.'],
      odd: ['The odd field must be true or false.'],
    });
  });

  it('accepts 1/0/true/false as query booleans', async () => {
    for (const [flag, total] of [
      ['1', 4],
      ['true', 4],
      ['0', 7],
      ['false', 7],
    ] as const) {
      assert.equal((await get(`/api/test/numbers?odd=${flag}`)).json().meta.total, total, flag);
    }
  });

  it('answers an unexpected error with 500 that leaks no detail', async () => {
    const response = await get('/api/test/boom');
    assert.equal(response.statusCode, 500);
    const body = response.json();
    assert.equal(body.error.code, 'INTERNAL_ERROR');
    assert.doesNotMatch(response.body, /SQLITE|SELECT|password_hash|at .*\.ts/);
  });

  it('answers thrown API errors in the general envelope', async () => {
    const response = await get('/api/test/forbidden');
    assert.equal(response.statusCode, 403);
    assert.deepEqual(response.json(), {
      success: false,
      message: 'You may not do that.',
      error: { code: 'FORBIDDEN', message: 'You may not do that.', details: null },
    });
  });

  it('puts a request id on every response and keeps a sane incoming one', async () => {
    const generated = await get('/api/hello');
    assert.match(String(generated.headers['x-request-id']), /^[\w-]{8,}$/);
    const kept = await t.app.inject({ method: 'GET', url: '/api/nothing', headers: { 'x-request-id': 'trace-123' } });
    assert.equal(kept.headers['x-request-id'], 'trace-123');
    const replaced = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { 'x-request-id': 'bad id\nwith newline' } });
    assert.notEqual(replaced.headers['x-request-id'], 'bad id\nwith newline');
  });

  it('serves /api/v2 as an unknown version (404 envelope)', async () => {
    const response = await get('/api/v2/hello');
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().error.code, 'NOT_FOUND');
  });

  it('answers unknown pages with an HTML 404', async () => {
    const response = await get('/no/such/page');
    assert.equal(response.statusCode, 404);
    assert.match(response.headers['content-type'] ?? '', /^text\/html/);
  });

  it('publishes the OpenAPI document and the docs page', async () => {
    const spec = await get('/api/openapi.json');
    assert.equal(spec.statusCode, 200);
    const document = spec.json();
    assert.equal(document.openapi, '3.1.0');
    assert.ok(document.paths['/api/hello']?.get, 'hello is documented');
    const docs = await get('/api/docs/');
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });
});
