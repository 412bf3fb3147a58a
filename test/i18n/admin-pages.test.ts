// The administration pages, the moderation queue and log and the topic
// page's moderators' panel in Russian (docs/i18n.md): headings, tables,
// forms, notices and confirmations from the catalogs, counts in their plural
// forms, dates in the reader's zone; the refusals of the forum's moderation
// rules in the page's language but the API's English. The English versions
// are tested with their pages (test/admin, test/forum).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import { topicPath } from '../../src/urls/paths.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom, textOf } from '../helpers/dom.ts';
import { makeCategory, makeEmoji } from '../helpers/emoji.ts';
import { asAuthUser, loggedIn } from '../helpers/forum.ts';
import { createRule } from '../word-filters/helpers.ts';
import { fieldError, notice, row, signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';

describeEachDatabase('admin pages in Russian', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  const clock = new TestClock('2026-01-02T03:04:00.000Z');

  /** A signed-in browser whose member reads Russian in Moscow (their settings). */
  async function russian(role: 'admin' | 'moderator' | 'user', name: string): Promise<SignedInBrowser> {
    const signed = await signedInBrowser(t, role, name);
    await t.services.users.update(signed.user.id, { locale: 'ru', time_zone: 'Europe/Moscow' });
    await signed.browser.get('/admin/');
    return signed;
  }

  before(async () => {
    t = await db.start({ clock });
    admin = await russian('admin', 'Главный Админ');
  });
  after(() => t.close());

  describe('the frame and the dashboard', () => {
    it('name every section, card and count in Russian, with plural forms', async () => {
      await signedInBrowser(t, 'user', 'Заблокированный');
      const banned = await t.database.db.selectFrom('users').select('id').where('username', '=', 'Заблокированный').executeTakeFirstOrThrow();
      await t.services.users.update(banned.id, { status: 'banned' });
      const page = await admin.browser.get('/admin/');
      assert.equal(dom(page).one('html').getAttribute('lang'), 'ru');
      assert.equal(dom(page).text('title'), 'Обзор · Администрирование · Forum');
      assert.equal(dom(page).text('h1'), 'Администрирование');
      assert.deepEqual(dom(page).texts('nav[aria-label="Разделы администрирования"] a'), [
        'Обзор',
        'Очередь модерации',
        'Жалобы',
        'Торренты',
        'Словесные фильтры',
        'Эмодзи',
        'Категории эмодзи',
        'Картинки эмодзи',
        'Пользователи',
        'Форумы',
        'Категории форумов',
        'Группы',
        'Звания',
        'Страницы',
        'Журнал модерации',
        'Рассылка',
        'Исходящая почта',
        'Настройки сайта',
      ]);
      const card = (id: string) => dom(dom(page).one(`li#card-${id}`));
      assert.equal(card('users').text('h2'), 'Пользователи');
      assert.equal(card('users').text('p.count'), '2 пользователя');
      assert.equal(card('users').text('p.count + p'), 'заблокировано: 1');
      assert.equal(card('moderation-log').text('p.count'), '0 действий');
      assert.equal(
        card('word-filters').text('p.muted:last-child'),
        'Правила, которые заменяют, запрещают или задерживают написанное пользователями, и проверка текста.',
      );
      assert.equal(card('torrents').text('p.count + p'), 'Сейчас 0 пиров: 0 сидов, 0 личей');
      assert.equal(
        dom(page).attr('div.admin', 'data-failed'),
        'Не получилось (ошибка {status}). Обновите страницу и попробуйте ещё раз.',
        'the admin script’s messages come with the page',
      );
    });

    it('stay English for an English reader', async () => {
      const english = await signedInBrowser(t, 'admin', 'English Admin');
      const page = await english.browser.get('/admin/');
      assert.equal(dom(page).text('title'), 'Dashboard · Admin · Forum');
      assert.equal(dom(page).text('h1'), 'Administration');
      assert.deepEqual(dom(page).texts('nav[aria-label="Admin sections"] a').slice(0, 3), ['Dashboard', 'Moderation queue', 'Reports']);
      assert.equal(dom(page).text('li#card-moderation-log p.count'), '0 actions');
    });

    it('refuse a section the member may not use in Russian, the API in English', async () => {
      const moderator = await russian('moderator', 'Модератор Без Прав');
      const refused = await moderator.browser.get('/admin/users/');
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).text('main p'), 'У вас нет доступа к этой странице.');
    });
  });

  describe('users', () => {
    it('list, filter and change members in Russian, dates in the reader’s zone', async () => {
      const member = await signedInBrowser(t, 'user', 'Новичок');
      const list = await admin.browser.get('/admin/users/?search=Новичок');
      assert.equal(dom(list).text('h1'), 'Пользователи');
      assert.equal(dom(list).text('label[for="filters-search"]'), 'Имя или e-mail содержит');
      assert.deepEqual(dom(list).texts('#filters-role option'), ['Все', 'Пользователь', 'Модератор', 'Администратор']);
      assert.deepEqual(dom(list).texts('#filters-status option'), ['Все', 'Не активирован', 'Активен', 'Заблокирован']);
      assert.equal(dom(list).text('form[role=search] button'), 'Найти');
      assert.equal(dom(list).text('.admin-content > p.muted'), 'Показаны 1–1 из 1 пользователя.');
      assert.deepEqual(dom(list).texts('thead th'), ['Имя', 'E-mail', 'Бонусные очки', 'Зарегистрирован', 'Роль и статус']);
      const tr = dom(row(list.body, `user-${member.user.id}`)!);
      assert.equal(tr.text('td time'), '2 янв. 2026 г., 06:04');
      assert.equal(tr.text('button'), 'Сохранить Новичок');

      const changed = await admin.browser.post(`/admin/users/${member.user.id}/`, { role: 'moderator', status: 'active', return: '/admin/users/' });
      assert.equal(changed.status, 303);
      assert.deepEqual(notice((await admin.browser.get('/admin/users/')).body), { kind: 'ok', text: 'Новичок теперь модератор (активен).' });

      const none = await admin.browser.get('/admin/users/?search=никого-нет');
      assert.equal(dom(none).text('.admin-content > p.muted'), 'Пользователи не найдены.');
      const wrong = await admin.browser.get('/admin/users/?role=king');
      assert.equal(wrong.status, 422);
      assert.equal(dom(wrong).text('[role=alert] p'), 'Поиск задан неверно:');

      const own = await admin.browser.get(`/admin/users/${member.user.id}/`);
      assert.deepEqual(dom(own).texts('dl.facts dt'), ['E-mail', 'Бонусные очки', 'Отдано', 'Скачано', 'Зарегистрирован', 'Профиль']);
      assert.equal(dom(own).text('main h2:last-of-type'), 'Passkey трекера');
      assert.equal(dom(own).text(`form[action="/admin/users/${member.user.id}/passkey/revoke/"] button`), 'Отозвать passkey');
      const revoked = await admin.browser.post(`/admin/users/${member.user.id}/passkey/revoke/`, {});
      assert.deepEqual(notice((await admin.browser.get(revoked.location!)).body), { kind: 'ok', text: 'У пользователя Новичок не было passkey.' });
      const self = await admin.browser.get(`/admin/users/${admin.user.id}/`);
      assert.match(dom(self).text('main'), /Роль и статус Администратор, активен \(это вы: свои роль и статус меняет другой администратор\) Passkey трекера/);
    });
  });

  describe('forums', () => {
    it('create, refuse and delete forums in Russian', async () => {
      const list = await admin.browser.get('/admin/forums/');
      assert.equal(dom(list).text('h1'), 'Форумы');
      assert.equal(dom(list).text('#new-forum-title'), 'Новый форум');
      assert.equal(dom(list).text('label[for="new-forum-parent_id"]'), 'Внутри форума');
      assert.equal(dom(list).text('#new-forum-parent_id option'), 'Нет: форум верхнего уровня');
      assert.equal(dom(list).text('form.stacked button'), 'Создать форум');

      const empty = await admin.browser.post('/admin/forums/', { name: '', description: '', display_order: '0' });
      assert.equal(empty.status, 422);
      assert.equal(fieldError(empty.body, 'new-forum', 'name'), 'Поле «Название» обязательно для заполнения.');

      const created = await admin.browser.post('/admin/forums/', { name: 'Кино', description: '', display_order: '0' });
      assert.equal(created.status, 303);
      const after = await admin.browser.get('/admin/forums/');
      assert.deepEqual(notice(after.body), { kind: 'ok', text: 'Форум «Кино» создан.' });
      assert.deepEqual(dom(after).texts('#forums thead th'), ['Форум', 'Темы', 'Сообщения', 'Позиция', 'Действия']);
      const forum = await t.database.db.selectFrom('forums').select('id').where('name', '=', 'Кино').executeTakeFirstOrThrow();
      const tr = dom(row(after.body, `forum-${forum.id}`)!);
      assert.equal(tr.attr('form.inline', 'hx-confirm'), 'Удалить форум «Кино»?');

      const unknown = await admin.browser.post(`/admin/forums/${forum.id}/`, { name: 'Кино', description: '', display_order: '0', moderators: 'Никто, Некто' });
      assert.equal(unknown.status, 422);
      assert.equal(dom(unknown).text('h1'), 'Редактирование форума «Кино»');
      assert.equal(fieldError(unknown.body, 'forum', 'moderators'), 'Нет пользователей с именами «Никто», «Некто».');

      const topic = await t.services.forum.createTopic(asAuthUser(admin.user), { forum_id: forum.id, title: 'Занимает место', body: 'Открытие.' });
      const kept = await admin.browser.post(`/admin/forums/${forum.id}/delete/`, { confirmed: '1' });
      assert.deepEqual(notice((await admin.browser.get(kept.location!)).body), {
        kind: 'error',
        text: '«Кино»: В форуме ещё есть темы. Сначала перенесите или удалите их.',
      });
      await t.services.forum.deleteTopic(topic.id, asAuthUser(admin.user));
      const asked = await admin.browser.post(`/admin/forums/${forum.id}/delete/`, {});
      assert.equal(dom(asked).text('h1'), 'Удаление форума «Кино»');
      assert.equal(dom(asked).text('main h1 + p'), 'Удалить форум «Кино»? Удалить можно только пустой форум.');
      assert.deepEqual(dom(asked).texts('form.actions button, form.actions a'), ['Удалить форум', 'Отмена']);
      await admin.browser.post(`/admin/forums/${forum.id}/delete/`, { confirmed: '1' });
      assert.deepEqual(notice((await admin.browser.get('/admin/forums/')).body), { kind: 'ok', text: 'Форум «Кино» удалён.' });
    });
  });

  describe('word filters', () => {
    it('list, edit and test rules in Russian, with their kinds named', async () => {
      const rule = await createRule(t, { pattern: 'плохослово', filter_type: 'replace', replacement: '***', applies_to: ['posts', 'private_messages'] });
      const list = await admin.browser.get('/admin/word-filters/?search=плохослово');
      assert.equal(dom(list).text('h1'), 'Словесные фильтры');
      assert.deepEqual(dom(list).texts('#filters-filter_type option'), ['Все', 'Замена', 'Запрет', 'На проверку']);
      assert.deepEqual(dom(list).texts('thead th'), ['Шаблон', 'Действие', 'Тип шаблона', 'Где действует', 'Важность', 'Состояние', 'Создано ▼', 'Действия']);
      assert.equal(dom(list).text('.admin-content > p.muted'), 'Показаны 1–1 из 1 правила.');
      const tr = dom(row(list.body, `rule-${rule.id}`)!);
      assert.deepEqual(tr.texts('td').slice(1, 5), ['Замена → ***', 'Точное', 'Сообщения, Личные сообщения', 'Средняя']);

      const edit = await admin.browser.get(`/admin/word-filters/${rule.id}/`);
      assert.equal(dom(edit).text('h1'), `Редактирование правила №${rule.id}`);
      assert.equal(dom(edit).text('label[for="rule-replacement"]'), 'Замена');
      const refused = await admin.browser.post(`/admin/word-filters/${rule.id}/`, {
        pattern: '',
        pattern_type: 'exact',
        filter_type: 'block',
        applies_to: 'posts',
      });
      assert.equal(refused.status, 422);
      assert.equal(fieldError(refused.body, 'rule', 'pattern'), 'Поле «Шаблон» обязательно для заполнения.');
      const everything = await admin.browser.post(`/admin/word-filters/${rule.id}/`, {
        pattern: '*',
        pattern_type: 'wildcard',
        filter_type: 'replace',
        applies_to: 'posts',
      });
      assert.equal(fieldError(everything.body, 'rule', 'pattern'), 'Кроме знаков * и ?, в шаблоне должна быть хотя бы одна буква или цифра.');
      assert.equal(fieldError(everything.body, 'rule', 'replacement'), 'Поле «Замена» обязательно, когда действие — замена.');

      const tester = await admin.browser.get('/admin/word-filters/tester/');
      await admin.browser.post('/admin/word-filters/tester/', { text: 'тут плохослово', content_type: 'posts' });
      const checked = await admin.browser.post('/admin/word-filters/tester/', { text: 'тут плохослово', content_type: 'posts' });
      assert.equal(dom(tester).text('h1'), 'Проверка текста словесными фильтрами');
      assert.equal(dom(checked).text('#tester-result [data-action]'), 'Разрешить — Разрешено: текст будет опубликован.');
      assert.equal(dom(checked).attr('[data-testid="highlighted"] mark', 'title'), `правило №${rule.id} (замена)`);
      assert.deepEqual(dom(checked).texts('#tester-result thead th'), ['Совпавший текст', 'Правило', 'Действие', 'Важность', 'Позиция']);

      const moderator = await russian('moderator', 'Читатель Правил');
      const detail = await moderator.browser.get(`/admin/word-filters/${rule.id}/`);
      assert.equal(dom(detail).text('h1'), `Правило №${rule.id}`);
      assert.equal(dom(detail).text('dl.facts dd:nth-of-type(6)'), 'Не учитывается');
      assert.equal(dom(detail).text('dl.facts dd:nth-of-type(10)'), '2 янв. 2026 г., 06:04');
    });
  });

  describe('emojis', () => {
    it('list, edit and delete emojis, categories and images in Russian', async () => {
      const faces = await makeCategory(t, { title: 'Лица' });
      const smile = await makeEmoji(t, { emoji_shortcode: ':ulybka:', title: 'Улыбка', emoji_category_id: faces.id });
      await makeEmoji(t, { emoji_shortcode: ':bez:', title: 'Без категории' });
      const list = await admin.browser.get('/admin/emojis/?search=ulybka');
      assert.equal(dom(list).text('h1'), 'Эмодзи');
      assert.deepEqual(dom(list).texts('thead th'), ['Эмодзи', 'Код', 'Название', 'Вид', 'Категория', 'Позиция ▲', 'Псевдонимы', 'Действия']);
      assert.equal(dom(row(list.body, `emoji-${smile.id}`)!).text('td:nth-child(4)'), 'Символ Unicode');

      const edit = await admin.browser.get(`/admin/emojis/${smile.id}/`);
      assert.equal(dom(edit).text('h1'), 'Редактирование :ulybka:');
      assert.deepEqual(dom(edit).texts('fieldset.kind-fields legend'), ['Символ Unicode', 'Своя картинка', 'CSS-спрайт']);
      assert.equal(dom(edit).text('#aliases-title'), 'Псевдонимы');
      assert.equal(dom(edit).text('#alias-list'), 'Псевдонимов пока нет.');
      assert.equal(dom(edit).text('.admin-content > p.muted:last-child'), 'Создан 2 янв. 2026 г., 06:04, изменён 2 янв. 2026 г., 06:04.');
      const noKind = await admin.browser.postFile(
        '/admin/emojis/',
        { title: 'Пусто', emoji_shortcode: ':pusto:', display_order: '0', intent: 'save' },
        undefined,
      );
      assert.equal(noKind.status, 422);
      assert.equal(fieldError(noKind.body, 'emoji', 'kind'), 'Выберите вид эмодзи: символ Unicode, своя картинка или CSS-спрайт.');
      const preview = await admin.browser.post('/admin/emojis/preview/', { kind: 'sprite' });
      assert.equal(dom(preview).text('span.muted'), 'Укажите лист, x, y, ширину и высоту (в пикселях), чтобы увидеть спрайт, вырезанный из листа.');

      const added = await admin.browser.post(`/admin/emojis/${smile.id}/aliases/`, { alias: ':smail:' });
      assert.deepEqual(notice((await admin.browser.get(added.location!)).body), { kind: 'ok', text: 'Псевдоним :smail: добавлен к :ulybka:.' });
      const asked = await admin.browser.post(`/admin/emojis/${smile.id}/delete/`, {});
      assert.equal(dom(asked).text('main h1 + p'), 'Удалить эмодзи :ulybka: («Улыбка») и его псевдонимы :smail:?');
      await admin.browser.post(`/admin/emojis/${smile.id}/delete/`, { confirmed: '1' });
      assert.deepEqual(notice((await admin.browser.get('/admin/emojis/')).body), { kind: 'ok', text: 'Эмодзи :ulybka: удалён вместе с 1 псевдонимом.' });

      const categories = await admin.browser.get('/admin/emoji-categories/');
      assert.equal(dom(categories).text('h1'), 'Категории эмодзи');
      assert.match(dom(categories).text('#categories > p.muted'), /^\d+ категори(я|и|й), по позиции\. \d+ эмодзи без категории\.$/);
      assert.deepEqual(dom(categories).texts('#categories thead th'), ['Название и позиция', 'Эмодзи', 'Действия']);
      const deleting = await admin.browser.post(`/admin/emoji-categories/${faces.id}/delete/`, {});
      assert.equal(dom(deleting).text('main h1 + p'), 'Удалить категорию «Лица»? В ней нет эмодзи.');

      const images = await admin.browser.get('/admin/emoji-images/');
      assert.equal(dom(images).text('h1'), 'Картинки эмодзи');
      assert.deepEqual(dom(images).texts('section h2'), ['Свои картинки эмодзи', 'Листы спрайтов']);
      assert.equal(dom(images).text('label[for="upload-custom-file"]'), 'Загрузить картинку');
      assert.match(dom(images).text('#upload-custom-file-hint'), /^PNG, GIF, WebP или JPEG; не больше .+ и \d+×\d+ пикселей\. SVG не принимается\.$/);
    });
  });

  describe('torrents and the outbox', () => {
    it('name their columns and states in Russian', async () => {
      const torrents = await admin.browser.get('/admin/torrents/');
      assert.equal(dom(torrents).text('h1'), 'Торренты');
      assert.equal(dom(torrents).texts('#filters-status option')[2], 'Проверено');
      assert.equal(dom(torrents).text('.admin-content > p.muted:last-of-type'), 'Торренты не найдены.');

      await t.services.mailer.send({ to: 'kto-to@example.test', subject: 'Письмо', text: 'Текст.' });
      const outbox = await admin.browser.get('/admin/outbox/');
      assert.equal(dom(outbox).text('h1'), 'Исходящая почта');
      assert.deepEqual(dom(outbox).texts('thead th'), ['Тема', 'Кому', 'Создано', 'Доставка']);
      assert.ok(
        dom(outbox)
          .texts('tbody .badge')
          .every((badge) => ['Отправлено', 'Не отправлено', 'Только здесь'].includes(badge)),
      );
      assert.match(dom(outbox).text('.admin-content > p.muted:nth-of-type(2)'), /^Показаны 1–\d+ из \d+ (письма|писем)\.$/);
    });
  });

  describe('the moderation queue', () => {
    let moderator: SignedInBrowser;
    let author: AuthUser;
    let topicId: number;
    before(async () => {
      moderator = await russian('moderator', 'Модератор Очереди');
      author = (await signIn(t, 'user', 'Задержанный Автор')).user;
      await createRule(t, { pattern: 'спамное', filter_type: 'moderate', applies_to: ['posts'] });
      const forum = await t.services.forum.createForum({ name: 'Очередь' });
      topicId = (await t.services.forum.createTopic(author, { forum_id: forum.id, title: 'Чистая тема', body: 'Открытие.' })).id;
    });

    it('lists, approves and rejects held posts in Russian', async () => {
      const first = await t.services.forum.reply(topicId, author, 'Одно спамное');
      const second = await t.services.forum.reply(topicId, author, 'Другое спамное');
      const queue = await moderator.browser.get('/admin/moderation/');
      assert.equal(dom(queue).text('h1'), 'Очередь модерации');
      assert.match(dom(queue).text('#queue-count'), /^Показаны 1–\d+ из \d+ сообщени(я|й) на проверке\.$/);
      assert.deepEqual(dom(queue).texts('thead th'), ['Сообщение', 'Автор', 'Тема', 'Задержано правилом', 'Написано', 'Решение']);
      const tr = dom(row(queue.body, `pending-${first.id}`)!);
      assert.equal(tr.text('span.muted'), '(точное)');
      assert.deepEqual(tr.texts('button'), [`Одобрить сообщение №${first.id}`, `Отклонить сообщение №${first.id}`]);

      await moderator.browser.post(`/admin/moderation/${first.id}/approve/`, { return: '/admin/moderation/' });
      assert.deepEqual(notice((await moderator.browser.get('/admin/moderation/')).body), {
        kind: 'ok',
        text: `Сообщение №${first.id} одобрено и опубликовано.`,
      });
      const asked = await moderator.browser.post(`/admin/moderation/${second.id}/reject/`, {});
      assert.equal(dom(asked).text('h1'), `Отклонение сообщения №${second.id}`);
      assert.equal(dom(asked).text('main h1 + p'), 'Отклонить это сообщение пользователя Задержанный Автор? Оно будет удалено, а автору придёт письмо.');
      await moderator.browser.post(`/admin/moderation/${second.id}/reject/`, { confirmed: '1' });
      assert.deepEqual(notice((await moderator.browser.get('/admin/moderation/')).body), {
        kind: 'ok',
        text: `Сообщение №${second.id} отклонено и удалено; автору отправлено письмо.`,
      });
      const again = await moderator.browser.post(`/admin/moderation/${first.id}/reject/`, { confirmed: '1' });
      assert.deepEqual(notice((await moderator.browser.get(again.location!)).body), {
        kind: 'error',
        text: 'Отклонить можно только сообщение, ждущее проверки.',
      });
    });
  });

  describe('the moderation log', () => {
    it('names actions and places in Russian, times in the reader’s zone', async () => {
      const moderator = await signIn(t, 'moderator', 'Журналист');
      const forum = await t.services.forum.createForum({ name: 'Журнальный' });
      const topic = await t.services.forum.createTopic(moderator.user, { forum_id: forum.id, title: 'Под замком', body: 'Открытие.' });
      await t.services.forum.topicModeration.lock(topic.id, moderator.user, true);
      const log = await admin.browser.get('/admin/moderation-log/?moderator=Журналист');
      assert.equal(dom(log).text('h1'), 'Журнал модерации');
      assert.deepEqual(dom(log).texts('#filters-action option').slice(0, 4), ['Все', 'Одобрено', 'Отклонено', 'Тема закрыта']);
      assert.deepEqual(dom(log).texts('thead th'), ['Когда', 'Модератор', 'Действие', 'Над чем', 'Где']);
      assert.deepEqual(dom(log).texts('tbody tr:first-child > *'), [
        '2 янв. 2026 г., 06:04',
        'Журналист',
        'Тема закрыта',
        `Под замком (тема ${topic.id})`,
        'Журнальный',
      ]);
      assert.equal(dom(log).text('.admin-content > p.muted:last-of-type'), 'Показаны 1–1 из 1 записи.');
    });
  });

  describe('the topic page’s moderators’ panel and the moderation rules’ refusals', () => {
    it('are Russian on pages and English in the API', async () => {
      const moderator = await loggedIn(t, { name: 'Модератор Темы', role: 'moderator' });
      await t.services.users.update(moderator.user.id, { locale: 'ru' });
      const member = await loggedIn(t, { name: 'Участник' });
      await t.services.users.update(member.user.id, { locale: 'ru' });
      const forum = await t.services.forum.createForum({ name: 'Панель' });
      const topic = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title: 'Тема с панелью', body: 'Открытие.' });
      const reply = await t.services.forum.reply(topic.id, asAuthUser(member.user), 'Ответ.');
      await t.services.forum.topicModeration.lock(topic.id, asAuthUser(moderator.user), true);
      const path = topicPath(topic);
      const page = await moderator.browser.get(path);
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('details.moderation summary'), 'Модерация темы');
      assert.deepEqual(dom(page).texts('details.moderation .actions button'), ['Открыть', 'Закрепить', 'Сделать объявлением', 'Скрыть тему', 'Удалить тему']);
      assert.equal(dom(page).text('label[for="move-forum"]').startsWith('Перенести в форум'), true);
      assert.equal(textOf(dom(page).one(`button[form="hide-post"][value="${reply.id}"]`)), `Скрыть сообщение ${reply.id}`);

      const memberPage = await member.browser.get(path);
      assert.equal(dom(memberPage).text('main p.notice'), 'Тема закрыта: отвечать в ней могут только модераторы.');
      const hide = await member.browser.post(`${path}hide/`, {});
      assert.equal(hide.status, 403);
      assert.equal(dom(hide).text('main p'), 'Скрывать и восстанавливать могут только модераторы.');

      // A moderator of another forum passes the API's guard (they moderate somewhere): the forum's own rule refuses them.
      const elsewhere = await signIn(t, 'user', 'Api Moderator');
      await t.services.forum.moderators.replace((await t.services.forum.createForum({ name: 'Другой' })).id, [elsewhere.user.id]);
      const token = elsewhere.token;
      const api = await t.app.inject({
        method: 'POST',
        url: `/api/topics/${topic.id}/hide`,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'ru' },
      });
      assert.equal(api.statusCode, 403);
      assert.equal(api.json().error.message, 'Only moderators can hide and restore.');
      const locked = await t.app.inject({
        method: 'POST',
        url: `/api/topics/${topic.id}/posts`,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'ru' },
        payload: { body: 'Пытаюсь ответить' },
      });
      assert.equal(locked.json().error.message, 'This topic is locked: only moderators can reply.');
    });
  });

  it('are not reached by a guest, who is sent to log in', async () => {
    const guest = await new Browser(t, { 'accept-language': 'ru' }).get('/admin/forums/');
    assert.equal(guest.status, 303);
  });
});
