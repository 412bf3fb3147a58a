import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';

describe('the site icon', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(() => t.close());

  it('is linked from every page, served as SVG, and /favicon.ico leads to it', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    assert.equal(dom(page.body).one('link[rel="icon"]').getAttribute('href'), '/assets/favicon.svg');
    const icon = await t.app.inject({ method: 'GET', url: '/assets/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.match(icon.headers['content-type'] ?? '', /^image\/svg\+xml/);
    assert.match(icon.body, /^<svg /);
    const legacy = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(legacy.statusCode, 301);
    assert.equal(legacy.headers.location, '/assets/favicon.svg');
  });
});
