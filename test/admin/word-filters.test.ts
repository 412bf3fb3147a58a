import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createRule } from '../word-filters/helpers.ts';
import { HTMX, fieldError, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';

const everything = { page: 1, perPage: 100, offset: 0 };
const byId = { field: 'id', direction: 'asc' } as const;

describeEachDatabase('admin word-filter pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let moderator: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    moderator = await signedInBrowser(t, 'moderator');
  });
  after(() => t.close());

  const newRule = {
    pattern: 'heck',
    pattern_type: 'exact',
    filter_type: 'replace',
    replacement: 'h*ck',
    severity: 'low',
    applies_to: ['posts', 'topics'],
    is_active: '1',
    notes: 'Mild',
  };

  describe('creating a rule', () => {
    it('stores it through the service and goes back to the list with a notice', async () => {
      await admin.browser.get('/admin/word-filters/new/');
      const response = await admin.browser.post('/admin/word-filters/', newRule);
      assert.equal(response.status, 303);
      assert.equal(response.location, '/admin/word-filters/');
      const { records } = await t.services.wordFilters.list({ search: 'heck' }, byId, everything);
      assert.equal(records.length, 1);
      const rule = records[0]!;
      assert.deepEqual(
        {
          pattern: rule.pattern,
          pattern_type: rule.pattern_type,
          filter_type: rule.filter_type,
          replacement: rule.replacement,
          severity: rule.severity,
          applies_to: rule.applies_to,
          is_active: rule.is_active,
          case_sensitive: rule.case_sensitive,
          notes: rule.notes,
        },
        {
          pattern: 'heck',
          pattern_type: 'exact',
          filter_type: 'replace',
          replacement: 'h*ck',
          severity: 'low',
          applies_to: ['posts', 'topics'],
          is_active: true,
          case_sensitive: false,
          notes: 'Mild',
        },
      );
      assert.equal(rule.creator?.id, admin.user.id, 'the creator is the admin who submitted the form');
      const list = await admin.browser.get('/admin/word-filters/');
      assert.deepEqual(notice(list.body), { kind: 'ok', text: `Rule #${rule.id} “heck” created.` });
      assert.ok(row(list.body, `rule-${rule.id}`));
      assert.equal(notice((await admin.browser.get('/admin/word-filters/')).body), undefined, 'the notice is shown once');
    });

    it('shows the API’s messages next to every invalid field, keeps what was typed, and stores nothing (422)', async () => {
      const before = (await t.services.wordFilters.list({}, byId, everything)).total;
      const response = await admin.browser.post('/admin/word-filters/', {
        pattern: '   ',
        pattern_type: 'globbing',
        filter_type: 'replace',
        replacement: '',
        notes: 'kept text',
      });
      assert.equal(response.status, 422);
      assert.equal(fieldError(response.body, 'rule', 'pattern'), 'The pattern field is required.');
      assert.equal(fieldError(response.body, 'rule', 'pattern_type'), 'The selected pattern type is invalid.');
      assert.equal(fieldError(response.body, 'rule', 'applies_to'), 'The applies to field is required.');
      const form = dom(response);
      assert.equal(form.one('textarea#rule-notes[name="notes"]').text, 'kept text');
      const pattern = form.one('input#rule-pattern[name="pattern"][type="text"]');
      assert.equal(pattern.getAttribute('value'), '   ');
      assert.ok(pattern.hasAttribute('required'));
      assert.equal(pattern.getAttribute('aria-invalid'), 'true');
      assert.ok(form.has('[role="alert"]'));
      assert.equal((await t.services.wordFilters.list({}, byId, everything)).total, before);
    });

    it('reports an invalid regular expression as the engine does', async () => {
      const viaApi = await t.app.inject({
        method: 'POST',
        url: '/api/word-filters',
        headers: { authorization: `Bearer ${(await t.services.auth.issueToken(await t.services.users.get(admin.user.id))).token}` },
        payload: { pattern: '(unclosed', pattern_type: 'regex', filter_type: 'block', applies_to: ['posts'] },
      });
      assert.equal(viaApi.statusCode, 422);
      const response = await admin.browser.post('/admin/word-filters/', {
        pattern: '(unclosed',
        pattern_type: 'regex',
        filter_type: 'block',
        applies_to: 'posts',
      });
      assert.equal(response.status, 422);
      assert.equal(fieldError(response.body, 'rule', 'pattern'), viaApi.json().errors.pattern[0]);
    });

    it('needs a replacement for a replace rule (the service’s rule)', async () => {
      const response = await admin.browser.post('/admin/word-filters/', {
        pattern: 'nope',
        pattern_type: 'exact',
        filter_type: 'replace',
        replacement: '',
        applies_to: 'posts',
      });
      assert.equal(response.status, 422);
      assert.equal(fieldError(response.body, 'rule', 'replacement'), 'The replacement field is required when filter type is replace.');
    });
  });

  describe('editing a rule', () => {
    it('shows the form filled in and saves every field, clearing emptied optional ones', async () => {
      const rule = await createRule(t, { pattern: 'editme', notes: 'old note', applies_to: ['posts', 'comments'] }, admin.user.id);
      const form = await admin.browser.get(`/admin/word-filters/${rule.id}/`);
      const fields = dom(form).fields('form:has(#rule-notes)');
      assert.equal(fields['pattern'], 'editme');
      assert.deepEqual(fields['applies_to'], ['posts', 'comments']);
      assert.equal(fields['notes'], 'old note');

      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/`, {
        pattern: 'edit*',
        pattern_type: 'wildcard',
        filter_type: 'moderate',
        replacement: '',
        severity: 'high',
        applies_to: ['signatures'],
        case_sensitive: '1',
        notes: '',
      });
      assert.equal(response.status, 303);
      const saved = await t.services.wordFilters.get(rule.id);
      assert.deepEqual(
        {
          pattern: saved.pattern,
          pattern_type: saved.pattern_type,
          filter_type: saved.filter_type,
          replacement: saved.replacement,
          severity: saved.severity,
          applies_to: saved.applies_to,
          case_sensitive: saved.case_sensitive,
          is_active: saved.is_active,
          notes: saved.notes,
        },
        {
          pattern: 'edit*',
          pattern_type: 'wildcard',
          filter_type: 'moderate',
          replacement: null,
          severity: 'high',
          applies_to: ['signatures'],
          case_sensitive: true,
          is_active: false,
          notes: null,
        },
      );
    });

    it('keeps the stored rule when the change is invalid (422 with the message)', async () => {
      const rule = await createRule(t, { pattern: 'stays' }, admin.user.id);
      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/`, {
        pattern: '*',
        pattern_type: 'wildcard',
        filter_type: 'block',
        applies_to: 'posts',
        is_active: '1',
      });
      assert.equal(response.status, 422);
      assert.equal(fieldError(response.body, 'rule', 'pattern'), 'The pattern must contain at least one letter or digit besides the wildcards * and ?.');
      assert.equal((await t.services.wordFilters.get(rule.id)).pattern, 'stays');
    });
  });

  describe('activating and deactivating inline', () => {
    it('with htmx: answers the table row in its new state', async () => {
      const rule = await createRule(t, { pattern: 'toggle' }, admin.user.id);
      await admin.browser.get('/admin/word-filters/');
      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/active/`, { is_active: '0', return: '/admin/word-filters/?page=1' }, HTMX);
      assert.equal(response.status, 200);
      assert.ok(response.body.startsWith(`<tr id="rule-${rule.id}">`));
      const tr = dom(response);
      assert.equal(tr.count('html, body'), 0, 'the row alone');
      assert.ok(tr.texts('span.badge.off').includes('Inactive'));
      assert.equal(tr.attr('input[name="is_active"]', 'value'), '1');
      const activate = tr.one('button:has(span.visually-hidden)');
      assert.equal(textOf(activate), 'Activate rule “toggle”');
      assert.equal(dom(activate).text('span.visually-hidden'), 'rule “toggle”');
      assert.equal((await t.services.wordFilters.get(rule.id)).is_active, false);
    });

    it('without JavaScript: goes back to the list page it came from, with a notice', async () => {
      const rule = await createRule(t, { pattern: 'plainform', is_active: false }, admin.user.id);
      await admin.browser.get('/admin/word-filters/');
      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/active/`, { is_active: '1', return: '/admin/word-filters/?severity=medium' });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/admin/word-filters/?severity=medium');
      assert.equal((await t.services.wordFilters.get(rule.id)).is_active, true);
      assert.deepEqual(notice((await admin.browser.get(response.location!)).body), { kind: 'ok', text: `Rule #${rule.id} “plainform” activated.` });
    });

    it('never sends the admin to another site or section', async () => {
      const rule = await createRule(t, { pattern: 'staylocal' }, admin.user.id);
      await admin.browser.get('/admin/word-filters/');
      for (const back of ['https://evil.example/', '//evil.example/', '/admin/users/']) {
        const response = await admin.browser.post(`/admin/word-filters/${rule.id}/active/`, { is_active: '0', return: back });
        assert.equal(response.location, '/admin/word-filters/', back);
      }
    });
  });

  describe('deleting', () => {
    it('asks first without JavaScript, then deletes', async () => {
      const rule = await createRule(t, { pattern: 'deleteme' }, admin.user.id);
      await admin.browser.get('/admin/word-filters/');
      const asked = await admin.browser.post(`/admin/word-filters/${rule.id}/delete/`, {});
      assert.equal(asked.status, 200);
      assert.match(dom(asked).textContent, /Delete the rule “deleteme”/);
      assert.equal(dom(asked).attr('input[name="confirmed"]', 'value'), '1');
      assert.equal((await t.services.wordFilters.get(rule.id)).id, rule.id, 'not deleted before confirming');
      const done = await admin.browser.post(`/admin/word-filters/${rule.id}/delete/`, { confirmed: '1' });
      assert.equal(done.status, 303);
      await assert.rejects(t.services.wordFilters.get(rule.id));
    });

    it('with htmx (the button confirms in a dialog): answers an empty row', async () => {
      const rule = await createRule(t, { pattern: 'htmxdelete' }, admin.user.id);
      const list = await admin.browser.get('/admin/word-filters/');
      const button = dom(row(list.body, `rule-${rule.id}`)!).one('[hx-confirm]');
      assert.equal(button.getAttribute('hx-confirm'), 'Delete rule “htmxdelete”?');
      assert.deepEqual(JSON.parse(button.getAttribute('hx-vals') ?? 'null'), { confirmed: '1' });
      const response = await admin.browser.post(`/admin/word-filters/${rule.id}/delete/`, { confirmed: '1' }, HTMX);
      assert.equal(response.status, 200);
      assert.equal(response.body, '');
      await assert.rejects(t.services.wordFilters.get(rule.id));
    });
  });

  describe('the list', () => {
    it('filters with the API’s list parameters and keeps them in the form', async () => {
      await createRule(t, { pattern: 'listalpha', severity: 'high', filter_type: 'block' }, admin.user.id);
      await createRule(t, { pattern: 'listbeta', severity: 'low', filter_type: 'block', applies_to: ['usernames'] }, admin.user.id);
      const high = await admin.browser.get('/admin/word-filters/?search=list&severity=high&filter_type=&pattern_type=');
      assert.equal(high.status, 200);
      assert.ok(dom(high).texts('code').includes('listalpha'));
      assert.ok(!dom(high).texts('code').includes('listbeta'));
      assert.equal(dom(high).text('option[value="high"][selected]'), 'High');
      assert.equal(dom(high).attr('input[name="search"][type="search"]', 'value'), 'list');

      const usernames = await admin.browser.get('/admin/word-filters/?search=list&applies_to=usernames');
      assert.ok(dom(usernames).texts('code').includes('listbeta'));
      assert.ok(!dom(usernames).texts('code').includes('listalpha'));
    });

    it('sorts by a column (the header link flips the direction) and pages through the rules', async () => {
      for (const name of ['sortc', 'sorta', 'sortb']) await createRule(t, { pattern: name }, admin.user.id);
      const ascending = await admin.browser.get('/admin/word-filters/?search=sort&sort=pattern&order=asc');
      const patterns = (page: { body: string }) =>
        dom(page)
          .texts('code')
          .filter((code) => /^sort\w$/.test(code));
      assert.deepEqual(patterns(ascending), ['sorta', 'sortb', 'sortc']);
      const sorted = dom(ascending).one('th[scope="col"][aria-sort="ascending"]');
      assert.equal(dom(sorted).links()[0]?.href, '/admin/word-filters/?search=sort&sort=pattern&order=desc');
      assert.match(textOf(sorted), /^Pattern/);

      const second = await admin.browser.get('/admin/word-filters/?search=sort&sort=pattern&order=asc&per_page=2&page=2');
      assert.deepEqual(patterns(second), ['sortc']);
      assert.match(dom(second).textContent, /Showing 3–3 of 3 rules\./);
      assert.equal(dom(second).attr('a[rel="prev"]', 'href'), '/admin/word-filters/?search=sort&sort=pattern&order=asc&per_page=2&page=1');
      assert.equal(dom(second).text('a[rel="prev"]'), 'Previous');
      assert.ok(dom(second).texts('a[aria-current="page"]').includes('2'), 'the pager marks page 2 as current');
    });

    it('shows an invalid filter’s message instead of a table (422)', async () => {
      const response = await admin.browser.get('/admin/word-filters/?per_page=500&severity=extreme');
      assert.equal(response.status, 422);
      assert.equal(fieldError(response.body, 'filters', 'severity'), 'The selected severity is invalid.');
      assert.match(dom(response).textContent, /The per page field must not be greater than 100\./);
      assert.equal(dom(response).count('table'), 0);
    });

    it('is read-only for moderators: no forms to change rules, a view page instead of the editor', async () => {
      const rule = await createRule(t, { pattern: 'modview', notes: 'For moderators' }, admin.user.id);
      const list = await moderator.browser.get(`/admin/word-filters/?search=modview`);
      assert.equal(list.status, 200);
      const tr = row(list.body, `rule-${rule.id}`)!;
      assert.equal(dom(tr).count('form'), 0);
      assert.match(dom(tr).linkText(`/admin/word-filters/${rule.id}/`) ?? '', /^View/);
      assert.doesNotMatch(dom(list).text('body'), /New rule/);
      const view = await moderator.browser.get(`/admin/word-filters/${rule.id}/`);
      assert.equal(view.status, 200);
      assert.ok(dom(view).texts('dd').includes('For moderators'));
      assert.equal(dom(view).count('form[method="post"][action^="/admin/word-filters/"]'), 0);
    });

    it('escapes rule text everywhere it is shown', async () => {
      const rule = await createRule(t, { pattern: '<b>bold</b>', notes: '<script>alert(1)</script>' }, admin.user.id);
      const list = await admin.browser.get('/admin/word-filters/?search=bold');
      assert.ok(
        dom(row(list.body, `rule-${rule.id}`)!)
          .texts('code')
          .includes('<b>bold</b>'),
        'the pattern shown as text',
      );
      assert.equal(dom(row(list.body, `rule-${rule.id}`)!).count('b'), 0, 'not as markup');

      const view = await moderator.browser.get(`/admin/word-filters/${rule.id}/`);
      assert.ok(dom(view).textContent.includes('<script>alert(1)</script>'), 'the notes shown as text');
      assert.ok(
        dom(view)
          .all('script')
          .every((script) => !script.text.includes('alert')),
        'not as a script',
      );
    });
  });
});
