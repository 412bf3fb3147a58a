// Pages in the reader's language and time zone (docs/i18n.md): the browser's
// Accept-Language and time zone cookie for guests, the member's settings over
// both, dates in that zone, and cached page fragments kept apart per reader.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createTopic, linkIn, loggedIn, mailsTo } from '../helpers/forum.ts';

describeEachDatabase('languages and time zones', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  const clock = new TestClock('2026-01-02T03:04:00.000Z');

  before(async () => {
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    forum = await createForum(t, 'Languages');
    const author = await loggedIn(t, { name: 'Polyglot' });
    await createTopic(t, await t.services.users.get(author.user.id), forum, 'Written at 03:04 UTC');
  });
  after(() => t.close());

  const forumUrl = () => `/forum/languages.${forum.id}/`;
  const navOf = (page: { body: string }) =>
    dom(page)
      .all('header nav[aria-label] ul > li > a')
      .map((link) => link.textContent);
  const topicTime = (page: { body: string }) => dom(page).one('table.topics time').textContent;

  describe('for guests', () => {
    it('answer in English by default and in Russian when the browser asks for it first', async () => {
      const english = await new Browser(t).get('/');
      assert.equal(dom(english).one('html').getAttribute('lang'), 'en');
      assert.deepEqual(navOf(english), ['Forums', 'Search', 'Members', 'Groups', 'Log in', 'Register']);

      const russian = await new Browser(t, { 'accept-language': 'ru-RU,ru;q=0.9,en-US;q=0.8' }).get('/');
      assert.equal(dom(russian).one('html').getAttribute('lang'), 'ru');
      assert.deepEqual(navOf(russian), ['Форумы', 'Поиск', 'Пользователи', 'Группы', 'Вход', 'Регистрация']);
      assert.equal(dom(russian).one('h1').textContent, 'Форумы');

      const fallback = await new Browser(t, { 'accept-language': 'de-DE, fr;q=0.5, ru;q=0.1' }).get('/');
      assert.equal(dom(fallback).one('html').getAttribute('lang'), 'ru', 'the only language we have of those asked');
      const unknown = await new Browser(t, { 'accept-language': 'x'.repeat(5000) }).get('/');
      assert.equal(dom(unknown).one('html').getAttribute('lang'), 'en');
    });

    it('render a quote’s “wrote:” in each reader’s language, the same post cached once per language', async () => {
      const quoter = await createTopic(
        t,
        (await loggedIn(t, { name: 'Quote Giver' })).user,
        await createForum(t, 'Quotes'),
        'Quoted here',
        '[quote="Аня"]Сидируйте![/quote]',
      );
      const path = `/topic/quoted-here.${quoter.id}/`;
      const english = await new Browser(t).get(path);
      assert.equal(dom(english).text('article.post cite'), 'Аня wrote:');
      const russian = await new Browser(t, { 'accept-language': 'ru' }).get(path);
      assert.equal(dom(russian).text('article.post cite'), 'Аня писал(а):');
      assert.equal(dom(await new Browser(t).get(path)).text('article.post cite'), 'Аня wrote:', 'English again after the Russian rendering');
    });

    it('let a guest choose the language in the footer, over the browser’s, and come back to the same page', async () => {
      const guest = new Browser(t, { 'accept-language': 'en-GB' });
      const page = await guest.get('/members/?page=1');
      const links = dom(page).all('footer nav.languages a');
      assert.deepEqual(
        links.map((link) => [link.textContent, link.getAttribute('href')]),
        [['Русский', '/language/ru/?next=%2Fmembers%2F']],
        'back to the page’s canonical address',
      );
      assert.equal(dom(page).one('footer nav.languages [aria-current="true"]').textContent, 'English');
      const chosen = await guest.get(links[0]!.getAttribute('href')!);
      assert.equal(chosen.status, 303);
      assert.equal(chosen.location, '/members/');
      assert.equal(
        dom(await guest.get('/'))
          .one('html')
          .getAttribute('lang'),
        'ru',
        'the choice outlasts the browser’s English',
      );
      assert.equal((await guest.get('/language/en/?next=/')).status, 303);
      assert.equal(
        dom(await guest.get('/'))
          .one('html')
          .getAttribute('lang'),
        'en',
      );

      for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
        assert.equal((await guest.get(`/language/ru/?next=${encodeURIComponent(next)}`)).location, '/', next);
      }
      assert.equal((await guest.get('/language/de/?next=/')).status, 404);
      const member = await loggedIn(t, { name: 'Switchless Member' });
      assert.equal(dom(await member.browser.get('/')).count('footer nav.languages'), 0, 'members choose in Settings');
    });

    it('show times in the browser’s zone (its cookie), each reader with its own cached page', async () => {
      assert.equal(topicTime(await new Browser(t).get(forumUrl())), '2 Jan 2026, 03:04 UTC');
      const tokyo = new Browser(t);
      tokyo.cookies.set('tz', 'Asia/Tokyo');
      assert.equal(topicTime(await tokyo.get(forumUrl())), '2 Jan 2026, 12:04');
      const moscowInRussian = new Browser(t, { 'accept-language': 'ru' });
      moscowInRussian.cookies.set('tz', 'Europe/Moscow');
      assert.equal(topicTime(await moscowInRussian.get(forumUrl())), '2 янв. 2026 г., 06:04');
      const nonsense = new Browser(t);
      nonsense.cookies.set('tz', 'Mars/Olympus_Mons');
      assert.equal(topicTime(await nonsense.get(forumUrl())), '2 Jan 2026, 03:04 UTC', 'an unknown zone is UTC');
    });
  });

  describe('the forum and topic pages in Russian', () => {
    it('name their parts, counts and links in Russian, plural forms included', async () => {
      const russian = new Browser(t, { 'accept-language': 'ru' });
      const forumPage = await russian.get(forumUrl());
      assert.deepEqual(
        dom(forumPage)
          .all('table.topics th')
          .map((cell) => cell.textContent),
        ['Тема', 'Автор', 'Сообщения', 'Просмотры', 'Последнее сообщение'],
      );
      assert.equal(dom(forumPage).one('#new-topic').textContent, 'Новая тема');
      const login = dom(forumPage).one('#new-topic + p a');
      assert.deepEqual([login.textContent, login.getAttribute('href')], ['Войдите', `/login/?next=${encodeURIComponent(forumUrl())}`]);

      const topicPath = dom(forumPage).one('table.topics td a').getAttribute('href')!;
      const topicPage = await russian.get(topicPath);
      assert.match(dom(topicPage).one('main p.muted').textContent, /^1 сообщение · \d+ просмотр(а|ов)?$/);
      assert.equal(dom(topicPage).one('main > p:last-child').textContent, 'Войдите, чтобы ответить.');
      assert.deepEqual(
        dom(topicPage)
          .all('nav[aria-label="Навигация"] a')
          .map((link) => link.textContent),
        ['Форумы', 'Languages'],
      );
    });
  });

  describe('the account pages in Russian', () => {
    it('let a new member register and log in in Russian', async () => {
      const russian = new Browser(t, { 'accept-language': 'ru' });
      const register = await russian.get('/register/');
      assert.equal(dom(register).one('h1').textContent, 'Регистрация');
      assert.equal(dom(register).one('label[for="username"]').textContent.trim(), 'Имя пользователя');
      const login = dom(register).one('main > p:last-of-type a');
      assert.deepEqual([login.textContent, login.getAttribute('href')], ['Войдите', '/login/']);
      const members = await russian.get('/members/?search=polyglot');
      const profile = await russian.get(dom(members).one('table.members a').getAttribute('href')!);
      assert.deepEqual(dom(profile).texts('dl.facts dt').slice(0, 2), ['Зарегистрирован', 'Сообщений']);
      const search = await russian.get('/search/?search=opening');
      assert.equal(dom(search).one('[role=status]').textContent, 'Найдено 1 сообщение');
      assert.match(dom(search).one('.search-results .meta').textContent, /^в Languages · Polyglot · 2 янв\. 2026 г\., 03:04$/);
      const refusedSearch = await russian.get('/search/?search=-spam&author=nobody&from=2026-13-01');
      assert.equal(refusedSearch.status, 422);
      const refusals = dom(refusedSearch).one('main').textContent;
      for (const text of ['Укажите хотя бы одно слово, которое нужно найти', 'Пользователя с таким именем нет.', 'Поле «С (дата)» должно быть датой']) {
        assert.ok(refusals.includes(text), text);
      }
      const refusedApi = await russian.get('/api/search?search=-spam&author=nobody');
      assert.deepEqual((JSON.parse(refusedApi.body) as { errors: Record<string, string[]> }).errors, {
        search: ['Give at least one word to find, not only words to leave out.'],
        author: ['No member has this name.'],
      });
      const recovery = await russian.get('/password-recovery/');
      assert.equal(dom(recovery).one('h1').textContent, 'Забыли пароль?');
      const loginPage = await russian.get('/login/');
      assert.equal(dom(loginPage).one('button[type=submit]').textContent, 'Войти');
      const refused = await russian.post('/login/', { username: '', password: '' });
      assert.equal(dom(refused).one('[role=alert]').textContent, 'Введите имя пользователя и пароль.');

      await russian.get('/register/');
      const registered = await russian.post('/register/', {
        username: 'Новый Участник',
        email: 'novyi@example.test',
        password: 'correct horse battery',
        password_confirmation: 'correct horse battery',
      });
      assert.equal(dom(registered).one('h1').textContent, 'Проверьте почту');
      const [mail] = await mailsTo(t, 'novyi@example.test');
      assert.equal(mail!.subject, 'Активируйте учётную запись на форуме', 'the activation mail in the language the member registered in');
      assert.match(mail!.body, /^Здравствуйте, Новый Участник!/);
      const activation = await russian.get(linkIn(mail!, '/activate/'));
      assert.equal(dom(activation).one('h1').textContent, 'Активация учётной записи');
    });
  });

  describe('for members', () => {
    it('follow the language and time zone chosen in the settings over the browser’s', async () => {
      const member = await loggedIn(t, { name: 'Settled Reader' });
      const settings = await member.browser.get('/settings/');
      assert.equal(dom(settings).one('#locale option').textContent, 'As my browser asks', 'the first choice, chosen while nothing is set');
      assert.equal(dom(settings).count('#locale option[selected]'), 0);
      const saved = await member.browser.post('/settings/reading/', { locale: 'ru', time_zone: 'Asia/Vladivostok' });
      assert.equal(saved.status, 303);
      const page = await member.browser.get(forumUrl());
      assert.equal(dom(page).one('html').getAttribute('lang'), 'ru');
      assert.equal(topicTime(page), '2 янв. 2026 г., 13:04');
      const picker = JSON.parse(dom(page).one('textarea[data-emoji-picker]').getAttribute('data-emoji-picker')!) as Record<string, unknown>;
      assert.equal(picker['open'], 'Вставить эмодзи', 'the emoji picker speaks the reader’s language');
      const inbox = await member.browser.get('/messages/');
      assert.equal(dom(inbox).one('h1').textContent, 'Входящие');
      assert.equal(dom(inbox).one('main > p').textContent, 'Сообщений нет. Когда вам напишут, сообщение появится здесь.');
      const writer = await loggedIn(t, { name: 'Letter Writer' });
      await t.services.messages.send(asAuthUser(writer.user), member.user.username, { subject: 'Привет', body: 'Как дела?' });
      assert.equal(dom(await member.browser.get('/messages/')).text('tbody .badge'), 'новое', 'an unread message is marked in Russian');
      const row = await t.services.users.get(member.user.id);
      assert.deepEqual([row.locale, row.time_zone], ['ru', 'Asia/Vladivostok']);

      const refused = await member.browser.post('/settings/reading/', { locale: 'ru', time_zone: 'Nowhere/Land' });
      assert.equal(refused.status, 422);
      const wrongLanguage = await member.browser.post('/settings/reading/', { locale: 'xx', time_zone: '' });
      assert.equal(wrongLanguage.status, 422);
      assert.deepEqual([(await t.services.users.get(member.user.id)).time_zone], ['Asia/Vladivostok'], 'nothing saved when refused');

      // A private message's mail goes in the recipient's language, whoever sends it.
      const recipient = await loggedIn(t, { name: 'Reader Of Mail' });
      await t.services.users.update(recipient.user.id, { locale: 'ru' });
      await t.services.messages.setMessageMails(asAuthUser(recipient.user), true);
      await t.services.messages.send(asAuthUser(member.user), 'Reader Of Mail', { subject: 'Hello there', body: 'Written in English' });
      const [notice] = await mailsTo(t, recipient.user.email);
      assert.equal(notice!.subject, 'Новое личное сообщение от Settled Reader: Hello there');

      assert.equal((await member.browser.post('/settings/reading/', { locale: '', time_zone: '' })).status, 303);
      const back = await member.browser.get(forumUrl());
      assert.equal(dom(back).one('html').getAttribute('lang'), 'en', 'back to what the browser asks');
    });
  });
});
