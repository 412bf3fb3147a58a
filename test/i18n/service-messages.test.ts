// The refusals services make where they find the problem (docs/i18n.md): the
// word-filter engine's, the emoji services' and the emoji image checks', the
// users service's and the forum moderation's. An
// admin page shows them in its reader's language; the JSON API keeps the
// contract's English, word for word (the English is tested with each module,
// test/word-filters, test/emoji, test/admin).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveKind, NO_KIND } from '../../src/emoji/emoji-kind.ts';
import { FieldErrorBag, ValidationError } from '../../src/http/errors.ts';
import { asReader } from '../../src/i18n/context.ts';
import { topicPath } from '../../src/urls/paths.ts';
import { compileRegex, RegexProblem } from '../../src/word-filters/engine/regex-patterns.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { makeEmoji } from '../helpers/emoji.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { SVG, multipart, png } from '../helpers/images.ts';
import { fieldError, postMultipart, signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';

const RUSSIAN = { locale: 'ru', timeZone: 'UTC' } as const;

/** The RegexProblem compiling `pattern` throws. */
function problemOf(pattern: string): RegexProblem {
  try {
    compileRegex(pattern, false);
  } catch (error) {
    if (error instanceof RegexProblem) return error;
    throw error;
  }
  assert.fail(`${pattern} compiled`);
}

describe('service refusals made in the reader’s language', () => {
  it('say a regex problem in Russian but keep its message English for the log', () => {
    const problem = asReader(RUSSIAN, () => problemOf('(a)\\1'));
    assert.equal(problem.message, 'The pattern uses a back-reference, which the filter engine (RE2) does not support.');
    assert.equal(
      asReader(RUSSIAN, () => problem.say()),
      'В шаблоне есть обратная ссылка, а движок фильтров (RE2) их не поддерживает.',
    );
    assert.equal(problem.say(), problem.message, 'outside a request: English');
  });

  it('count repetitions in Russian plural forms, numbers as the API writes them in English', () => {
    const few = problemOf('a{102}');
    assert.match(
      asReader(RUSSIAN, () => few.say()),
      /^Шаблон повторяет что-то 102 раза \(\{102\}\); больше 100 повторений нельзя/,
    );
    assert.match(
      asReader(RUSSIAN, () => problemOf('a{105}').say()),
      /^Шаблон повторяет что-то 105 раз \(\{105\}\)/,
    );
    assert.equal(
      few.message,
      'The pattern repeats something 102 times ({102}); counts above 100 are not allowed, as they make the rule too costly to run. Use + or * for "any number".',
    );
  });

  it('name the conflicting emoji kinds in Russian', () => {
    const errors = new FieldErrorBag();
    asReader(RUSSIAN, () => resolveKind(NO_KIND, { emoji_text: '🙂', image_url: '/x.png', sprite_mode: true }, errors));
    assert.deepEqual(errors.errors, {
      emoji_text: ['Поле «Символ» должно быть пустым, когда заполнено поле «Адрес картинки» или включён режим спрайта.'],
      image_url: ['Поле «Адрес картинки» должно быть пустым, когда заполнено поле «Символ» или включён режим спрайта.'],
      sprite_mode: ['Поле «Режим спрайта» должно быть выключено, когда заполнено поле «Символ» или заполнено поле «Адрес картинки».'],
    });
  });
});

describeEachDatabase('service refusals on Russian admin pages, English in the API', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let token: string;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin', 'Админ Словарь');
    await t.services.users.update(admin.user.id, { locale: 'ru' });
    await admin.browser.get('/admin/');
    token = (await t.services.auth.issueToken(await t.services.users.get(admin.user.id))).token;
  });
  after(() => t.close());

  const api = (method: 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload: payload as Record<string, unknown> });

  it('a word filter whose regex the engine refuses', async () => {
    const rule = { pattern: '(?=ahead)x', pattern_type: 'regex', filter_type: 'block' };
    const page = await admin.browser.post('/admin/word-filters/', { ...rule, applies_to: 'posts' });
    assert.equal(page.status, 422);
    assert.equal(
      fieldError(page.body, 'rule', 'pattern'),
      'В шаблоне есть опережающая или ретроспективная проверка ((?=, (?!, (?<=, (?<!), а движок фильтров (RE2) их не поддерживает.',
    );
    const viaApi = await api('POST', '/api/word-filters', { ...rule, applies_to: ['posts'] });
    assert.equal(viaApi.statusCode, 422);
    assert.deepEqual(viaApi.json().errors.pattern, ['The pattern uses look-around ((?=, (?!, (?<=, (?<!), which the filter engine (RE2) does not support.']);
  });

  it('an emoji shortcode already taken, and a sprite missing members', async () => {
    await makeEmoji(t, { emoji_shortcode: ':zanyat:' });
    const taken = await admin.browser.post('/admin/emojis/', {
      title: 'Двойник',
      emoji_shortcode: ':zanyat:',
      display_order: '0',
      kind: 'unicode',
      emoji_text: '🙂',
      intent: 'save',
    });
    assert.equal(taken.status, 422);
    assert.equal(fieldError(taken.body, 'emoji', 'emoji_shortcode'), 'Этот код эмодзи уже занят.');
    const sprite = await admin.browser.post('/admin/emojis/', {
      title: 'Полспрайта',
      emoji_shortcode: ':polsprite:',
      display_order: '0',
      kind: 'sprite',
      'sprite_params.sheet': 'sheet.png',
      'sprite_params.x': '0',
      'sprite_params.y': '0',
      intent: 'save',
    });
    assert.equal(sprite.status, 422);
    assert.equal(fieldError(sprite.body, 'emoji', 'sprite_params-width'), 'Поле «Спрайт: ширина» обязательно, когда включён режим спрайта.');

    const twin = await api('POST', '/api/emoji/emojis', { title: 'Twin', emoji_shortcode: ':zanyat:', display_order: 0, emoji_text: '🙂' });
    assert.deepEqual(twin.json().errors.emoji_shortcode, ['The emoji shortcode has already been taken.']);
    const half = await api('POST', '/api/emoji/emojis', {
      title: 'Half',
      emoji_shortcode: ':half_sprite:',
      display_order: 0,
      sprite_mode: true,
      sprite_params: { sheet: 'sheet.png', x: 0, y: 0 },
    });
    assert.deepEqual(half.json().errors['sprite_params.width'], ['The sprite params.width field is required when sprite mode is true.']);
  });

  it('an emoji image refused by its checks', async () => {
    const svg = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: SVG, name: 'logo.svg', type: 'image/svg+xml' } });
    assert.equal(svg.status, 422);
    assert.equal(
      fieldError(svg.body, 'upload-custom', 'file'),
      'Файлы SVG не принимаются (в них могут быть скрипты); загрузите картинку PNG, GIF, WebP или JPEG.',
    );
    const big = await postMultipart(t, admin.browser, '/admin/emoji-images/custom/', { file: { bytes: png(600, 520), name: 'big.png', type: 'image/png' } });
    assert.equal(big.status, 422);
    assert.equal(fieldError(big.body, 'upload-custom', 'file'), 'Картинка эмодзи должна быть не больше 512×512 пикселей (а эта — 600×520).');

    const body = await multipart({ file: { bytes: png(600, 520), name: 'big.png', type: 'image/png' } });
    const viaApi = await t.app.inject({
      method: 'POST',
      url: '/api/emoji/images',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${token}` },
    });
    assert.equal(viaApi.statusCode, 422);
    assert.deepEqual(viaApi.json().errors.file, ['The emoji image must be at most 512×512 pixels (this one is 600×520).']);
  });

  it('an admin refused a change of their own role and status', async () => {
    const refused = await admin.browser.post(`/admin/users/${admin.user.id}/`, { role: 'user', status: 'banned' });
    assert.equal(refused.status, 422);
    assert.match(dom(refused).textContent, /Свою роль изменить нельзя\./);
    assert.match(dom(refused).textContent, /Себя нельзя заблокировать или отключить\./);
  });

  it('a topic moved into the forum it is in, and a moderator who is no member', async () => {
    const general = await createForum(t, 'Общий');
    // The move form lists the other forums: one is needed for it to be shown.
    await createForum(t, 'Архив');
    const topic = await createTopic(t, await t.services.users.get(admin.user.id), general, 'Тема на месте');
    const path = topicPath(topic);
    await admin.browser.get(path);
    const move = await admin.browser.post(`${path}move/`, { forum_id: String(general.id) });
    assert.equal(move.status, 422);
    assert.match(dom(move).text('details.moderation'), /Тема уже в этом форуме\./);

    await assert.rejects(
      asReader(RUSSIAN, () => t.services.forum.moderators.replace(general.id, [999_999])),
      (error: unknown) => error instanceof ValidationError && error.errors['user_ids.0']?.[0] === 'Выбрано недопустимое значение поля «user ids.0».',
    );
    await assert.rejects(
      asReader(RUSSIAN, () => t.services.forum.moderators.replace(general.id, [admin.user.id, admin.user.id])),
      (error: unknown) => error instanceof ValidationError && error.errors['user_ids']?.[0] === 'В поле «Модераторы» есть повторяющиеся значения.',
    );
  });
});
