// The reader's choice of colours (web/theme.ts): light, dark or as the
// system says, kept in a cookie for members and guests alike, named on the
// page's <html data-theme> for the style sheet, and back to the same page.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { loggedIn } from '../helpers/forum.ts';

describeEachDatabase('the theme switch', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const theme = (page: { body: string }) => dom(page).one('html').getAttribute('data-theme') ?? 'auto';

  it('keeps a guest’s choice and comes back to the page; auto forgets it', async () => {
    const guest = new Browser(t);
    const first = await guest.get('/members/');
    assert.equal(theme(first), 'auto');
    assert.deepEqual(
      dom(first)
        .links('nav.themes')
        .map((link) => link.href),
      ['/theme/light/?next=%2Fmembers%2F', '/theme/dark/?next=%2Fmembers%2F'],
      'the theme in use is not a link',
    );
    const chosen = await guest.get('/theme/dark/?next=%2Fmembers%2F');
    assert.equal(chosen.status, 303);
    assert.equal(chosen.headers['location'], '/members/');
    assert.equal(theme(await guest.get('/members/')), 'dark');
    assert.equal(theme(await guest.get('/')), 'dark', 'on every page');
    await guest.get('/theme/auto/?next=%2F');
    assert.equal(theme(await guest.get('/')), 'auto');
  });

  it('is a member’s too', async () => {
    const member = await loggedIn(t);
    await member.browser.get('/theme/light/?next=%2Fsettings%2F');
    assert.equal(theme(await member.browser.get('/settings/')), 'light');
  });

  it('goes back only to a page of this site, and knows no other theme', async () => {
    const guest = new Browser(t);
    assert.equal((await guest.get('/theme/dark/?next=https%3A%2F%2Fevil.example%2F')).headers['location'], '/');
    assert.equal((await guest.get('/theme/dark/?next=%2F%2Fevil.example%2F')).headers['location'], '/');
    assert.equal((await guest.get('/theme/neon/')).status, 404);
    const forged = new Browser(t);
    forged.cookies.set('theme', '"><script>');
    assert.equal(theme(await forged.get('/')), 'auto', 'a forged cookie names no theme');
  });
});
