import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { highlightMatches } from '../../src/admin/word-filter-tester.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createRule } from '../word-filters/helpers.ts';
import { HTMX, fieldError, signedInBrowser, type SignedInBrowser } from './helpers.ts';

describe('highlightMatches', () => {
  const match = (filter_id: number, start: number, end: number, text: string) =>
    ({ filter_id, filter_type: 'block', severity: 'medium', start, end, match: text.slice(start, end) }) as const;

  it('marks each match and escapes the text around and inside it', () => {
    const text = 'a <darn> & darn';
    assert.equal(
      highlightMatches(text, [match(1, 3, 7, text), match(1, 11, 15, text)]).value,
      'a &lt;<mark title="rule #1 (block)">darn</mark>&gt; &amp; <mark title="rule #1 (block)">darn</mark>',
    );
  });

  it('marks overlapping matches of several rules as one stretch naming every rule', () => {
    const text = 'xx badword yy';
    assert.equal(
      highlightMatches(text, [match(2, 3, 10, text), match(1, 6, 10, text)]).value,
      'xx <mark title="rule #2 (block), rule #1 (block)">badword</mark> yy',
    );
  });
});

describeEachDatabase('admin word-filter tester', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let moderator: SignedInBrowser;
  let blockRule: number;
  let replaceRule: number;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    moderator = await signedInBrowser(t, 'moderator');
    blockRule = (await createRule(t, { pattern: '\\d{3}-\\d{4}', pattern_type: 'regex', filter_type: 'block', applies_to: ['posts'] }, admin.user.id)).id;
    replaceRule = (await createRule(t, { pattern: 'gosh', filter_type: 'replace', replacement: 'g**h', applies_to: ['posts', 'signatures'] }, admin.user.id)).id;
    await createRule(t, { pattern: 'sleepy', filter_type: 'moderate', applies_to: ['posts'], is_active: false }, admin.user.id);
  });
  after(() => t.close());

  it('shows the verdict, the text after replacements and every match highlighted, as the API’s check does', async () => {
    const text = 'Gosh, call 555-1234 now';
    await moderator.browser.get('/admin/word-filters/tester/');
    const page = await moderator.browser.post('/admin/word-filters/tester/', { text, content_type: 'posts' });
    assert.equal(page.status, 200);

    const token = (await t.services.auth.issueToken(await t.services.users.get(moderator.user.id))).token;
    const api = (await t.app.inject({ method: 'POST', url: '/api/word-filters/check', headers: { authorization: `Bearer ${token}` }, payload: { text, content_type: 'posts' } })).json().data;
    assert.equal(api.action, 'block');

    assert.match(page.body, /data-action="block"><strong>Block<\/strong>/);
    assert.equal(api.text, 'g**h, call 555-1234 now');
    assert.ok(page.body.includes(`<div class="tested" data-testid="replaced">${api.text}</div>`));
    assert.match(page.body, /<mark title="rule #\d+ \(replace\)">Gosh<\/mark>, call <mark title="rule #\d+ \(block\)">555-1234<\/mark> now/);
    assert.match(page.body, new RegExp(`<a href="/admin/word-filters/${blockRule}/">#${blockRule}</a> <code>\\\\d\\{3\\}-\\\\d\\{4\\}</code>`));
    assert.match(page.body, new RegExp(`<a href="/admin/word-filters/${replaceRule}/">#${replaceRule}</a> <code>gosh</code>`));
    assert.match(page.body, /<textarea id="tester-text" name="text"[^>]*>Gosh, call 555-1234 now<\/textarea>/, 'the text stays in the form');
  });

  it('applies only the rules of the chosen content type, and only active ones', async () => {
    const page = await admin.browser.post('/admin/word-filters/tester/', { text: 'gosh 555-1234 sleepy', content_type: 'signatures' });
    assert.match(page.body, /data-action="allow"/);
    assert.match(page.body, /<div class="tested" data-testid="replaced">g\*\*h 555-1234 sleepy<\/div>/);
    const posts = await admin.browser.post('/admin/word-filters/tester/', { text: 'sleepy', content_type: 'posts' });
    assert.match(posts.body, /No rule matches this text\./);
  });

  it('answers the panel alone to htmx', async () => {
    const response = await admin.browser.post('/admin/word-filters/tester/', { text: 'gosh', content_type: 'posts' }, HTMX);
    assert.equal(response.status, 200);
    assert.ok(response.body.startsWith('<div id="tester">'));
    assert.doesNotMatch(response.body, /<html/);
    assert.match(response.body, /data-action="allow"/);
  });

  it('shows the API’s messages for missing text or an unknown content type (422)', async () => {
    const response = await admin.browser.post('/admin/word-filters/tester/', { text: '', content_type: 'emails' });
    assert.equal(response.status, 422);
    assert.equal(fieldError(response.body, 'tester', 'text'), 'The text field is required.');
    assert.equal(fieldError(response.body, 'tester', 'content_type'), 'The selected content type is invalid.');
    assert.doesNotMatch(response.body, /id="tester-result"/);
  });
});
