// The site's icon, stylesheet and scripts: fingerprinted names kept a year,
// precompressed; the plain names still answer (issue 33).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { ADMIN_ASSETS } from '../../src/admin/assets.ts';

describe('the site’s static files', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(() => t.close());

  it('links the icon from every page, served as SVG, and /favicon.ico leads to it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const href = dom(page.body).one('link[rel="icon"]').getAttribute('href') ?? '';
    assert.match(href, /^\/assets\/favicon\.[0-9a-f]{12}\.svg$/);
    const icon = await t.app.inject({ method: 'GET', url: href });
    assert.equal(icon.statusCode, 200);
    assert.match(icon.headers['content-type'] ?? '', /^image\/svg\+xml/);
    assert.match(icon.body, /^<svg /);
    const legacy = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(legacy.statusCode, 301);
    assert.equal(legacy.headers.location, href);
  });

  it('serves the stylesheet under its digest for a year, in the coding the browser takes, and the plain name for an hour', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const href = dom(page.body).one('link[rel="stylesheet"]').getAttribute('href') ?? '';
    assert.match(href, /^\/assets\/style\.[0-9a-f]{12}\.css$/);
    const plain = await t.app.inject({ method: 'GET', url: href });
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /accept-encoding/);
    const br = await t.app.inject({ method: 'GET', url: href, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    const gzip = await t.app.inject({ method: 'GET', url: href, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
    const old = await t.app.inject({ method: 'GET', url: '/assets/style.css' });
    assert.equal(old.body, plain.body);
    assert.equal(old.headers['cache-control'], 'public, max-age=3600');
    assert.equal((await t.app.inject({ method: 'GET', url: '/assets/style.000000000000.css' })).statusCode, 404, 'a stale digest is not served');
  });

  it('serves the admin pages’ htmx, script and stylesheet the same way', async () => {
    for (const url of [ADMIN_ASSETS.htmx, ADMIN_ASSETS.script, ADMIN_ASSETS.stylesheet]) {
      assert.match(url, /^\/assets\/admin\/[\w.-]+\.[0-9a-f]{12}\.(js|css)$/);
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable', url);
      assert.equal(response.headers['content-encoding'], 'br', url);
    }
  });
});
