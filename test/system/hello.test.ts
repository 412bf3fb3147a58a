import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import packageJson from '../../package.json' with { type: 'json' };
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';

describeEachDatabase('GET /api/hello', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  it('answers 200 with message, version, runtime version and Unix time, without authentication', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await t.app.inject({ method: 'GET', url: '/api/hello', headers: { accept: 'application/json' } });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] ?? '', /^application\/json/);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['data', 'success']);
    assert.equal(body.success, true);
    assert.deepEqual(Object.keys(body.data).sort(), ['message', 'php_version', 'timestamp', 'version']);
    assert.equal(typeof body.data.message, 'string');
    assert.ok(body.data.message.length > 0);
    assert.equal(body.data.version, packageJson.version);
    assert.equal(body.data.php_version, process.versions.node);
    assert.ok(Number.isInteger(body.data.timestamp));
    assert.ok(body.data.timestamp >= before && body.data.timestamp <= before + 5);
  });

  it('is the same under /api/v1', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/hello' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().success, true);
  });
});

describeEachDatabase('probes', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  it('GET /healthz answers 200 while the process lives', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
  });

  it('GET /readyz answers 200 when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ready' });
  });

  it('GET /readyz answers 503 in the envelope once the database is gone', async () => {
    const other = await db.start();
    await other.database.close();
    const response = await other.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().error.code, 'SERVICE_UNAVAILABLE');
    await other.testDatabase.drop();
  });
});
