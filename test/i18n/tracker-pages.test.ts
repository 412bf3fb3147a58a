// The tracker's pages in Russian (docs/i18n.md): the torrent block on a topic,
// attaching a .torrent, the /tracker/ list, the passkey on the profile and the
// bonus page, as TorrentPier and rutracker name statuses and counts. The
// English versions are tested in test/tracker.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { profilePath } from '../../src/urls/paths.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createTopic, loggedIn, type Member } from '../helpers/forum.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const BASE = 'http://forum.test';

describeEachDatabase('tracker pages in Russian', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let author: Member;
  let moderator: Member;

  before(async () => {
    t = await db.start({ env: { BASE_URL: BASE } });
    forum = await createForum(t, 'Раздачи');
    author = await loggedIn(t, { name: 'Раздающий' });
    moderator = await loggedIn(t, { name: 'Модератор трекера', role: 'moderator' });
    for (const member of [author, moderator]) await t.services.users.update(member.user.id, { locale: 'ru' });
  });
  after(() => t.close());

  /** The facts of the torrent block: each term and what it says. */
  const facts = (page: { body: string }) => {
    const terms = dom(page).texts('section.torrent dl.facts dt');
    const values = dom(page).texts('section.torrent dl.facts dd');
    return Object.fromEntries(terms.map((term, index) => [term, values[index]]));
  };

  describe('the torrent block on a topic page', () => {
    it('names the facts, the status and the counts in Russian, plural forms included', async () => {
      const topic = await createTopic(t, author.user, forum, 'Три файла');
      const files = [
        { path: ['a.txt'], data: Buffer.alloc(10, 'a') },
        { path: ['b.txt'], data: Buffer.alloc(20, 'b') },
        { path: ['c.txt'], data: Buffer.alloc(30, 'c') },
      ];
      await t.services.tracker.torrents.upload(asAuthUser(author.user), topic.id, makeTorrent({ name: 'Сборник', files }), BASE);
      const path = (await t.services.presenter.heading(topic)).path;

      const guest = await new Browser(t, { 'accept-language': 'ru' }).get(path);
      const shown = facts(guest);
      assert.equal(shown['Размер'], '60 байт (3 файла)');
      assert.equal(shown['Статус'], '* Не проверено');
      assert.equal(shown['Фрилич'], 'Нет');
      assert.equal(shown['Скачан'], '0 раз');
      assert.match(shown['Зарегистрирован'] ?? '', /, загрузил\(а\) Раздающий$/);
      assert.equal(dom(guest).text('section.torrent details summary'), 'Файлы (3)');
      assert.equal(dom(guest).text('section.torrent p:last-of-type'), 'Войдите, чтобы скачать этот торрент.');

      const staff = await moderator.browser.get(path);
      assert.deepEqual(
        dom(staff)
          .all('section.torrent select[name="status"] option')
          .slice(0, 3)
          .map((option) => option.textContent),
        ['Не проверено', 'Проверено', 'Недооформлено'],
      );
      assert.equal(dom(staff).text('section.torrent .actions a.button'), 'Скачать .torrent');
      const closed = await moderator.browser.post(dom(staff).one('section.torrent form.inline-edit').getAttribute('action')!, {
        status: 'closed',
        freeleech: 'gold',
      });
      assert.equal(closed.status, 303);
      const frozen = await moderator.browser.get(path);
      assert.equal(dom(frozen).text('section.torrent p.notice'), 'Статус раздачи — «закрыто»: её нельзя скачать, и трекер её не обслуживает.');
      assert.equal(facts(frozen)['Фрилич'], 'Золото (скачанное не учитывается)');
    });
  });

  describe('attaching a .torrent', () => {
    it('asks for the file in Russian and says why a file is refused', async () => {
      const topic = await createTopic(t, author.user, forum, 'Куда прикрепить');
      const url = `/tracker/upload/?topic=${topic.id}`;
      const form = await author.browser.get(url);
      assert.equal(dom(form).one('h1').textContent, 'Прикрепить .torrent-файл к теме «Куда прикрепить»');
      assert.equal(dom(form).text('label[for="torrent-file"]'), '.torrent-файл');
      const refused = await author.browser.postFile(url, {}, { bytes: Buffer.alloc(0), name: 'empty.torrent', type: 'application/x-bittorrent' });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).text('main [role=alert]'), 'Исправьте отмеченные ниже поля.');
      assert.equal(dom(refused).text('#torrent-file-error'), 'Поле «Файл» обязательно для заполнения.');
      await author.browser.get(url);
      const broken = await author.browser.postFile(url, {}, { bytes: Buffer.from('not a torrent'), name: 'broken.torrent', type: 'application/x-bittorrent' });
      assert.match(dom(broken).text('#torrent-file-error'), /^Это неправильный \.torrent-файл \(bencode\): /);

      const forumForm = await author.browser.get(`/tracker/upload/?forum=${forum.id}`);
      assert.equal(dom(forumForm).one('h1').textContent, 'Новая тема с .torrent-файлом в форуме «Раздачи»');
      assert.deepEqual(dom(forumForm).texts('main form label'), ['Заголовок', 'Описание', '.torrent-файл']);
    });
  });

  describe('the tracker list', () => {
    it('counts, sorts and heads its columns in Russian', async () => {
      const topic = await createTopic(t, author.user, forum, 'Серебряная раздача');
      const torrent = await t.services.tracker.torrents.upload(asAuthUser(author.user), topic.id, makeTorrent(), BASE);
      await t.services.tracker.torrents.update(torrent.id, asAuthUser(moderator.user), { freeleech: 'silver' });
      const page = await new Browser(t, { 'accept-language': 'ru' }).get('/tracker/');
      assert.equal(dom(page).one('h1').textContent, 'Трекер');
      assert.match(dom(page).text('main p.muted'), /^\d+ торрент(а|ов)?$/);
      assert.deepEqual(dom(page).texts('table.releases th'), ['Раздача', 'Статус', 'Форум', 'Размер', 'Сиды', 'Личи', 'Скачан', 'Добавлен', 'Скачать']);
      assert.equal(dom(page).text('table.releases td[data-label="Статус"]'), '* Не проверено', 'the status with its sign, labelled for the card a phone shows');
      assert.equal(dom(page).one('select[name="sort"] option').textContent, 'Дате регистрации');
      assert.equal(dom(page).text('table.releases .badge'), 'серебро');
      const none = await new Browser(t, { 'accept-language': 'ru' }).get('/tracker/?search=nothing-like-this');
      assert.equal(dom(none).text('main p.muted'), '0 торрентов');
      assert.equal(dom(none).text('main p:not(.muted)'), 'Торренты не найдены.');
    });
  });

  describe('a member’s own tracker pages', () => {
    it('show the passkey and the bonus points in Russian', async () => {
      const profile = await author.browser.get(profilePath({ id: author.user.id, name: author.user.username }));
      assert.equal(dom(profile).text('#passkey-heading'), 'Ваш passkey для трекера');
      assert.equal(
        dom(profile).text('section[aria-labelledby="passkey-heading"] p:not(.muted)'),
        'Passkey у вас пока нет: он появится, когда вы впервые скачаете .torrent-файл.',
      );
      assert.equal(dom(profile).text('section[aria-labelledby="passkey-heading"] button'), 'Создать passkey');

      await t.database.db
        .insertInto('tracker_user_stats')
        .values({ user_id: author.user.id, bonus_points: 1500, updated_at: new Date().toISOString() })
        .execute();
      const bonus = await author.browser.get('/profile/bonus/');
      assert.equal(dom(bonus).one('h1').textContent, 'Ваши бонусы');
      assert.equal(dom(bonus).text('p.score'), 'Ваш бонусный счёт: 15.');
      assert.deepEqual(dom(bonus).texts('main h2'), ['Как их заработать', 'Обмен бонусов на отдачу', 'История']);
      const exchanged = await author.browser.post('/profile/bonus/', { offer: '1', key: 'russian-click-1' });
      assert.equal(exchanged.status, 303);
      const after = await author.browser.get(exchanged.location!);
      assert.equal(dom(after).text('[role=status]'), 'К вашей отдаче добавлено 1 ГиБ.');
      assert.equal(dom(after).text('table.list:last-of-type tbody td:nth-child(2)'), 'Обмен на 1 ГиБ отдачи');
      const refused = await author.browser.post('/profile/bonus/', { offer: '1', key: 'russian-click-2' });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).text('main [role=alert]'), 'Для этого предложения не хватает бонусов.');
    });
  });
});
