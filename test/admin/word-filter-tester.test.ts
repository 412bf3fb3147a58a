import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { highlightMatches } from '../../src/admin/word-filter-tester.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createRule } from '../word-filters/helpers.ts';
import { HTMX, fieldError, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';

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
    replaceRule = (await createRule(t, { pattern: 'gosh', filter_type: 'replace', replacement: 'g**h', applies_to: ['posts', 'signatures'] }, admin.user.id))
      .id;
    await createRule(t, { pattern: 'sleepy', filter_type: 'moderate', applies_to: ['posts'], is_active: false }, admin.user.id);
  });
  after(() => t.close());

  it('shows the verdict, the text after replacements and every match highlighted, as the API’s check does', async () => {
    const text = 'Gosh, call 555-1234 now';
    await moderator.browser.get('/admin/word-filters/tester/');
    const page = await moderator.browser.post('/admin/word-filters/tester/', { text, content_type: 'posts' });
    assert.equal(page.status, 200);

    const token = (await t.services.auth.issueToken(await t.services.users.get(moderator.user.id))).token;
    const api = (
      await t.app.inject({
        method: 'POST',
        url: '/api/word-filters/check',
        headers: { authorization: `Bearer ${token}` },
        payload: { text, content_type: 'posts' },
      })
    ).json().data;
    assert.equal(api.action, 'block');

    const result = dom(page);
    assert.equal(result.text('[data-action="block"] > strong:first-child'), 'Block');
    assert.equal(api.text, 'g**h, call 555-1234 now');
    assert.equal(result.one('div.tested[data-testid="replaced"]').innerHTML, api.text, 'the API’s text, as plain text');
    const highlighted = result.one('div.tested[data-testid="highlighted"]');
    assert.equal(textOf(highlighted), 'Gosh, call 555-1234 now');
    const marks = highlighted.querySelectorAll('mark');
    assert.deepEqual(
      marks.map((mark) => mark.text),
      ['Gosh', '555-1234'],
    );
    assert.match(marks[0]!.getAttribute('title') ?? '', /^rule #\d+ \(replace\)$/);
    assert.match(marks[1]!.getAttribute('title') ?? '', /^rule #\d+ \(block\)$/);
    for (const [id, pattern] of [
      [blockRule, String.raw`\d{3}-\d{4}`],
      [replaceRule, 'gosh'],
    ] as const) {
      const link = result.one(`a[href="/admin/word-filters/${id}/"]`);
      assert.equal(textOf(link), `#${id}`);
      assert.equal(link.nextElementSibling?.tagName, 'CODE');
      assert.equal(link.nextElementSibling?.text, pattern);
    }
    assert.equal(result.one('textarea#tester-text[name="text"]').text, 'Gosh, call 555-1234 now', 'the text stays in the form');
  });

  it('applies only the rules of the chosen content type, and only active ones', async () => {
    const page = await admin.browser.post('/admin/word-filters/tester/', { text: 'gosh 555-1234 sleepy', content_type: 'signatures' });
    assert.ok(dom(page).has('[data-action="allow"]'));
    assert.equal(dom(page).one('div.tested[data-testid="replaced"]').innerHTML, 'g**h 555-1234 sleepy');
    const posts = await admin.browser.post('/admin/word-filters/tester/', { text: 'sleepy', content_type: 'posts' });
    assert.match(dom(posts).textContent, /No rule matches this text\./);
  });

  it('answers the panel alone to htmx', async () => {
    const response = await admin.browser.post('/admin/word-filters/tester/', { text: 'gosh', content_type: 'posts' }, HTMX);
    assert.equal(response.status, 200);
    assert.ok(response.body.startsWith('<div id="tester">'));
    assert.equal(dom(response).count('html, body'), 0, 'no page around the panel');
    assert.ok(dom(response).has('[data-action="allow"]'));
  });

  it('shows the API’s messages for missing text or an unknown content type (422)', async () => {
    const response = await admin.browser.post('/admin/word-filters/tester/', { text: '', content_type: 'emails' });
    assert.equal(response.status, 422);
    assert.equal(fieldError(response.body, 'tester', 'text'), 'The text field is required.');
    assert.equal(fieldError(response.body, 'tester', 'content_type'), 'The selected content type is invalid.');
    assert.equal(dom(response).count('#tester-result'), 0);
  });
});
