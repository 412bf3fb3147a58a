// The error pages in the reader's language (docs/i18n.md): their title and
// message, for a page that does not exist, a request that cannot be read and
// an unexpected failure; the API's envelope stays English.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('error pages in Russian', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
    t.app.get('/test/boom/', async () => {
      throw new Error('SQLITE_ERROR: a detail no reader should see');
    });
  });
  after(() => t.close());

  const russian = () => new Browser(t, { 'accept-language': 'ru' });

  it('say a page does not exist in Russian, and in English to an English reader', async () => {
    const missing = await russian().get('/forum/no-such-forum.999999/');
    assert.equal(missing.status, 404);
    assert.equal(dom(missing).one('html').getAttribute('lang'), 'ru');
    assert.equal(dom(missing).one('h1').textContent, 'Страница не найдена');
    assert.equal(dom(missing).text('main p'), 'Такой страницы нет.');
    assert.equal(dom(missing).text('main p:last-child a'), 'Вернуться к форумам');
    const nowhere = await russian().get('/nowhere/at/all/');
    assert.equal(dom(nowhere).text('main p'), 'Адрес GET /nowhere/at/all/ не найден.');
    const english = await new Browser(t).get('/nowhere/at/all/');
    assert.deepEqual([dom(english).one('h1').textContent, dom(english).text('main p')], ['Not found', 'The route GET /nowhere/at/all/ could not be found.']);
  });

  it('say what went wrong in Russian without its detail', async () => {
    const failed = await russian().get('/test/boom/');
    assert.equal(failed.status, 500);
    assert.equal(dom(failed).one('h1').textContent, 'Что-то пошло не так');
    assert.equal(dom(failed).text('main p'), 'Произошла непредвиденная ошибка. Она записана в журнал.');
    assert.doesNotMatch(failed.body, /SQLITE_ERROR/);

    const unreadable = await t.app.inject({
      method: 'POST',
      url: '/login/',
      headers: { 'accept-language': 'ru', 'content-type': 'application/json' },
      payload: '{"not json',
    });
    assert.equal(unreadable.statusCode, 415, 'a page form takes form encodings only');
    assert.equal(dom(unreadable.body).one('h1').textContent, 'Неверный запрос');
    assert.equal(
      dom(unreadable.body).text('main p'),
      'Этот адрес принимает только формы: отправьте форму как application/x-www-form-urlencoded или multipart/form-data.',
    );
  });

  it('leave the API’s envelope English for a Russian browser', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { 'accept-language': 'ru' } });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().message, 'The route GET /api/nothing-here could not be found.');
  });
});
