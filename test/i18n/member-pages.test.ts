// A member's own pages in Russian (docs/i18n.md): the settings and the
// address confirmation, a profile's mail form and ban panel, and the field
// errors and notices the form toolkit puts on them. The English versions are
// tested with their pages (test/accounts, test/forum).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, lastMailTo, linkIn, loggedIn, type Member } from '../helpers/forum.ts';
import { asReader } from '../../src/i18n/context.ts';
import { profileEmailPath } from '../../src/urls/paths.ts';

describeEachDatabase('member pages in Russian', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  /** A member whose language setting is Russian (the browser asks for English). */
  async function russianMember(name: string, role?: 'moderator'): Promise<Member> {
    const member = await loggedIn(t, { name, ...(role === undefined ? {} : { role }) });
    await t.services.users.update(member.user.id, { locale: 'ru' });
    return member;
  }

  describe('the settings', () => {
    it('name every section, hint and button in Russian and confirm what was saved', async () => {
      const member = await russianMember('Настройщик');
      const page = await member.browser.get('/settings/');
      assert.equal(dom(page).one('h1').textContent, 'Настройки');
      assert.deepEqual(dom(page).texts('main h2'), ['Адрес e-mail', 'Пароль', 'Подпись', 'Аватар', 'Язык и время', 'Приватность', 'Письма всем участникам']);
      assert.equal(dom(page).text('label[for="mass_mails"]'), 'Получать письма, которые администрация рассылает всем участникам');
      assert.equal(dom(page).text('label[for="password-current-password"]'), 'Текущий пароль');
      assert.equal(
        dom(page).text('#signature-hint'),
        'Показывается под вашими сообщениями и в профиле. Не больше 500 символов; оставьте поле пустым, если подпись не нужна.',
      );
      assert.equal(dom(page).text('p.muted'), `Сейчас: ${member.user.email}. Адрес видите только вы и администраторы.`);

      const unsubscribed = await member.browser.post('/settings/mass-mail/', {});
      assert.equal(dom(await member.browser.get(unsubscribed.location!)).text('[role=status]'), 'Выбор о письмах всем участникам сохранён.');
      const saved = await member.browser.post('/settings/signature/', { signature: 'Подпись' });
      assert.equal(saved.status, 303);
      assert.equal(dom(await member.browser.get(saved.location!)).text('[role=status]'), 'Подпись сохранена.');
      const moved = await member.browser.post('/settings/email/', { email: 'nastroishchik.new@example.test', current_password: TEST_PASSWORD });
      assert.equal(
        dom(await member.browser.get(moved.location!)).text('[role=status]'),
        'Мы отправили ссылку для подтверждения на новый адрес. Адрес сменится, когда вы её откроете (в течение 24 часов).',
      );
    });

    it('ask to confirm a new address in Russian, and say so when the link does not work', async () => {
      const member = await russianMember('Переезжающий');
      await member.browser.get('/settings/');
      await member.browser.post('/settings/email/', { email: 'pereezd@example.test', current_password: TEST_PASSWORD });
      const link = linkIn(await lastMailTo(t, 'pereezd@example.test'), '/settings/email/');
      const russian = new Browser(t, { 'accept-language': 'ru' });
      const question = await russian.get(link);
      assert.equal(dom(question).one('h1').textContent, 'Подтвердите новый адрес e-mail');
      assert.equal(dom(question).text('form p'), 'Использовать pereezd@example.test для учётной записи Переезжающий?');
      const done = await russian.post(link, {});
      assert.equal(dom(done).text('[role=status]'), 'Учётная запись Переезжающий теперь использует адрес pereezd@example.test.');
      const used = await russian.post(link, {});
      assert.equal(used.status, 410);
      assert.equal(dom(used).one('h1').textContent, 'Ссылка для подтверждения недействительна');
      assert.equal(dom(used).text('[role=alert]'), 'Эта ссылка уже использована.');
    });
  });

  describe('a profile', () => {
    it('gives a moderator the ban panel in Russian', async () => {
      const moderator = await russianMember('Русский модератор', 'moderator');
      const target = await loggedIn(t, { name: 'Ban Target' });
      const path = `/profile/ban-target.${target.user.id}/`;
      const page = await moderator.browser.get(path);
      assert.equal(dom(page).text('details.moderation summary'), 'Заблокировать Ban Target');
      assert.equal(dom(page).text('label[for="reason"]'), 'Причина (пользователь увидит её при входе)');
      const banned = await moderator.browser.post(`${path}ban/`, { reason: 'Грубость', until: '' });
      assert.equal(banned.status, 303);
      const shown = await moderator.browser.get(banned.location!);
      assert.equal(dom(shown).text('[role=status]'), 'Ban Target заблокирован(а).');
      assert.equal(dom(shown).text('#ban-heading'), 'Блокировка');
      assert.equal(dom(shown).text('section.moderation p'), 'Причина: Грубость. До снятия блокировки.');
      assert.equal(dom(shown).text('section.moderation button'), 'Снять блокировку');
    });

    it('lets a member write by e-mail in Russian, and the mail goes in its recipient’s language', async () => {
      const sender = await russianMember('Пишущий');
      const recipient = await russianMember('Читающий');
      const english = await loggedIn(t, { name: 'English Reader' });
      await t.services.users.update(english.user.id, { locale: 'en' });
      const path = profileEmailPath({ id: recipient.user.id, name: recipient.user.username });
      const form = await sender.browser.get(path);
      assert.equal(dom(form).one('h1').textContent, 'Написать Читающий письмо');
      assert.equal(dom(form).text('label[for="subject"]'), 'Тема');
      assert.equal(dom(form).text('main form button[type=submit]'), 'Отправить');
      const sent = await sender.browser.post(path, { subject: 'Привет', message: 'Как дела?' });
      assert.equal(sent.status, 303);
      assert.equal(dom(await sender.browser.get(sent.location!)).text('[role=status]'), 'Письмо для Читающий отправлено.');
      const mail = await lastMailTo(t, recipient.user.email);
      assert.equal(mail.subject, 'Сообщение от Пишущий: Привет');
      assert.match(mail.body, /^Пишущий \(http:\/\/\S+\/profile\/\S+\) отправил\(а\) вам это сообщение через форум:\n\nКак дела\?\n/);

      const englishPath = profileEmailPath({ id: english.user.id, name: english.user.username });
      await sender.browser.get(englishPath);
      assert.equal((await sender.browser.post(englishPath, { subject: 'Hi', message: 'In English' })).status, 303);
      assert.equal((await lastMailTo(t, english.user.email)).subject, 'Message from Пишущий: Hi', 'an English reader’s mail is English');
    });
  });

  describe('mails', () => {
    it('about the account go in its owner’s language', async () => {
      const member = await russianMember('Владелец');
      const oldEmail = member.user.email;
      await member.browser.get('/settings/');
      await member.browser.post('/settings/password/', {
        current_password: TEST_PASSWORD,
        password: 'a new long secret',
        password_confirmation: 'a new long secret',
      });
      const changed = await lastMailTo(t, oldEmail);
      assert.equal(changed.subject, 'Пароль на форуме изменён');
      assert.match(changed.body, /^Здравствуйте, Владелец!\n\nПароль вашей учётной записи «Владелец» на форуме только что изменён/);

      await member.browser.get('/settings/');
      await member.browser.post('/settings/email/', { email: 'vladelets.new@example.test', current_password: 'a new long secret' });
      const confirm = await lastMailTo(t, 'vladelets.new@example.test');
      assert.equal(confirm.subject, 'Подтвердите новый адрес e-mail на форуме');
      assert.match(confirm.body, /Ссылка срабатывает один раз и действует 24 часа\./);
      const link = linkIn(confirm, '/settings/email/');
      const browser = new Browser(t);
      await browser.get(link);
      await browser.post(link, {});
      const moved = await lastMailTo(t, oldEmail);
      assert.equal(moved.subject, 'Адрес e-mail на форуме изменён');
      assert.match(moved.body, /теперь адрес e-mail vladelets\.new@example\.test\./);

      const other = await loggedIn(t, { name: 'Other Owner' });
      await other.browser.get('/settings/');
      await other.browser.post('/settings/email/', { email: 'vladelets.new@example.test', current_password: TEST_PASSWORD });
      assert.equal((await lastMailTo(t, 'vladelets.new@example.test')).subject, 'Кто-то пытался использовать ваш адрес e-mail', 'in the holder’s language');

      const english = new Browser(t);
      await english.get('/register/');
      await english.post('/register/', {
        username: 'Someone Else',
        email: 'vladelets.new@example.test',
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
      });
      const registered = await lastMailTo(t, 'vladelets.new@example.test');
      assert.equal(registered.subject, 'Кто-то пытался зарегистрироваться с вашим адресом', 'the owner’s setting over the registering browser’s English');
      assert.match(registered.body, /^Здравствуйте, Владелец!\n\nКто-то пытался зарегистрировать на форуме новую учётную запись/);
    });

    it('about a watched topic go in each watcher’s language', async () => {
      const author = await loggedIn(t, { name: 'Topic Author' });
      const russian = await russianMember('Наблюдатель');
      const english = await loggedIn(t, { name: 'English Watcher' });
      const forum = await t.services.forum.createForum({ name: 'Watched', description: '' });
      const topic = await t.services.forum.createTopic(asAuthUser(author.user), { forum_id: forum.id, title: 'Watch this', body: 'Opening.' });
      for (const watcher of [russian, english]) await t.services.forum.watch(asAuthUser(watcher.user), topic.id);
      await t.services.forum.reply(topic.id, asAuthUser(author.user), 'A reply.');
      const ru = await lastMailTo(t, russian.user.email);
      assert.equal(ru.subject, 'Новый ответ в теме «Watch this»');
      assert.match(ru.body, /^В теме, за которой вы следите, новый ответ: «Watch this»\.\n\nhttp/);
      assert.equal((await lastMailTo(t, english.user.email)).subject, 'New reply in "Watch this"');
    });

    it('about a rejected post go in its author’s language, whatever the rejecting moderator reads', async () => {
      const moderator = await loggedIn(t, { name: 'Rejecting Moderator', role: 'moderator' });
      const author = await russianMember('Rejected Author');
      const forum = await t.services.forum.createForum({ name: 'Held', description: '' });
      const topic = await t.services.forum.createTopic(asAuthUser(moderator.user), { forum_id: forum.id, title: 'Rules', body: 'Opening.' });
      await t.services.wordFilters.create({ pattern: 'holdme', pattern_type: 'exact', filter_type: 'moderate', applies_to: ['posts'] }, null);
      const held = await t.services.forum.reply(topic.id, asAuthUser(author.user), 'Please holdme');
      // The moderator rejects it from the queue page in English.
      await moderator.browser.get('/admin/moderation/');
      const rejected = await moderator.browser.post(`/admin/moderation/${held.id}/reject/`, { confirmed: '1' });
      assert.equal(rejected.status, 303);
      const mail = await lastMailTo(t, author.user.email);
      assert.equal(mail.subject, 'Ваш ответ в теме «Rules» не одобрен');
      assert.match(mail.body, /^Здравствуйте, Rejected Author!\n\nМодератор не одобрил ваше сообщение в теме «Rules»:\n\nPlease holdme\n/);

      // An author without a setting gets the language of the request that rejects it (memberReader).
      const unset = await loggedIn(t, { name: 'Unset Author' });
      const another = await t.services.forum.reply(topic.id, asAuthUser(unset.user), 'Holdme again');
      await asReader({ locale: 'ru', timeZone: 'UTC' }, () => t.services.forum.rejectPost(another.id, asAuthUser(moderator.user)));
      assert.equal((await lastMailTo(t, unset.user.email)).subject, 'Ваш ответ в теме «Rules» не одобрен');
      const english = await t.services.forum.reply(topic.id, asAuthUser(unset.user), 'Holdme in English');
      await t.services.forum.rejectPost(english.id, asAuthUser(moderator.user));
      assert.equal((await lastMailTo(t, unset.user.email)).subject, 'Your reply in "Rules" was not approved');
    });
  });

  describe('form errors', () => {
    it('are Russian on pages: the schema’s, the services’ and the notice above the form', async () => {
      const member = await russianMember('Ошибающийся');
      await member.browser.get('/settings/');
      const wrong = await member.browser.post('/settings/password/', {
        current_password: 'not the password',
        password: 'a new long secret',
        password_confirmation: 'another secret',
      });
      assert.equal(wrong.status, 422);
      assert.equal(dom(wrong).text('#password-heading + [role=alert]'), 'Исправьте отмеченные ниже поля.');
      assert.equal(dom(wrong).text('#password-confirmation-error'), 'Пароли не совпадают.');
      const short = await member.browser.post('/settings/password/', { current_password: TEST_PASSWORD, password: 'short', password_confirmation: 'short' });
      assert.equal(dom(short).text('#password-new-error'), 'В поле «Пароль» должно быть не меньше 8 символов.');
      const mismatch = await member.browser.post('/settings/email/', { email: 'elsewhere@example.test', current_password: 'not the password' });
      assert.equal(dom(mismatch).text('#email-current-password-error'), 'Неверный пароль.');
      const long = await member.browser.post('/settings/signature/', { signature: 'я'.repeat(501) });
      assert.equal(dom(long).text('#signature-error'), 'В поле «Подпись» должно быть не больше 500 символов.');
      await t.services.wordFilters.create({ pattern: 'запретка', pattern_type: 'exact', filter_type: 'block', applies_to: ['signatures'] }, null);
      const blocked = await member.browser.post('/settings/signature/', { signature: 'Тут запретка' });
      assert.equal(dom(blocked).text('#signature-error'), 'Поле «Подпись» содержит слова, которые здесь запрещены.');

      const guest = new Browser(t, { 'accept-language': 'ru-RU' });
      await guest.get('/register/');
      const registering = await guest.post('/register/', {
        username: 'ab',
        email: 'not an address',
        password: 'correct horse battery',
        password_confirmation: '',
      });
      assert.equal(dom(registering).text('#username-error'), 'В поле «Имя пользователя» должно быть не меньше 3 символов.');
      assert.equal(dom(registering).text('#email-error'), 'В поле «Адрес e-mail» должен быть действительный адрес e-mail.');
    });

    it('are Russian when a login is refused', async () => {
      const guest = new Browser(t, { 'accept-language': 'ru' });
      await guest.get('/login/');
      const wrong = await guest.post('/login/', { username: 'Nobody At All', password: 'whatever it is' });
      assert.equal(dom(wrong).text('main [role=alert]'), 'Неверное имя пользователя или пароль.');
      const moderator = await loggedIn(t, { name: 'Banning Moderator', role: 'moderator' });
      const banned = await loggedIn(t, { name: 'Banned Member' });
      await t.services.bans.ban(asAuthUser(moderator.user), banned.user.id, { reason: 'Спам', until: null });
      const refused = await guest.post('/login/', { username: 'Banned Member', password: TEST_PASSWORD });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).text('main [role=alert]'), 'Эта учётная запись заблокирована. Причина: Спам.');
    });

    it('are Russian when a form expired or the login ended meanwhile', async () => {
      const member = await russianMember('Забывчивый');
      await member.browser.get('/settings/');
      const expired = await member.browser.post('/settings/signature/', { signature: 'Черновик', _csrf: 'stale' });
      assert.equal(expired.status, 403);
      assert.match(dom(expired).text('#signature-heading + [role=alert]'), /^Срок действия формы истёк/);
      assert.equal(dom(expired).one('textarea[name="signature"]').text, 'Черновик');

      const russian = new Browser(t, { 'accept-language': 'ru' });
      await russian.get('/login/');
      const loggedOut = await russian.post('/settings/signature/', { signature: 'Черновик', _csrf: 'of a login that ended' });
      assert.equal(loggedOut.status, 403);
      assert.equal(dom(loggedOut).one('h1').textContent, 'Не сохранено: вы вышли из системы');
      assert.equal(dom(loggedOut).text('label[for="draft-signature"]'), 'Подпись (что вы написали)');
      assert.equal(dom(loggedOut).one('[role=alert] a').textContent, 'войдите');
    });

    it('stay English in the JSON API, whatever the member’s language, the browser’s or the spelling of the address', async () => {
      const member = await russianMember('Апишник');
      const issued = await t.services.auth.issueToken(await t.services.users.get(member.user.id));
      const headers = { authorization: `Bearer ${issued.token}`, 'accept-language': 'ru' };
      for (const url of ['/api/messages', '/%61pi/messages']) {
        const schema = await t.app.inject({ method: 'POST', url, headers, payload: { to: 'Nobody Here', subject: ' ', body: 'Текст' } });
        assert.equal(schema.statusCode, 422, url);
        assert.deepEqual(schema.json().errors, { subject: ['The subject field is required.'] }, url);
        const service = await t.app.inject({ method: 'POST', url, headers, payload: { to: 'Nobody Here', subject: 'Тема', body: 'Текст' } });
        assert.deepEqual(service.json().errors, { to: ['There is no member called “Nobody Here”.'] }, url);
      }
    });
  });
});
