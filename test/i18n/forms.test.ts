// Validation messages in the reader's language (docs/i18n.md): pages show
// them in Russian, while the API's, made without a reader, keep the
// contract's English word for word.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { FloodError } from '../../src/auth/flood-control.ts';
import { asReader } from '../../src/i18n/context.ts';
import { CATALOGS } from '../../src/i18n/messages.ts';
import { checkForm } from '../../src/http/validation.ts';
import { label } from '../../src/i18n/field-names.ts';

const Form = Type.Object({
  current_password: Type.String({ minLength: 1 }),
  signature: Type.String({ maxLength: 500 }),
  page: Type.Integer({ minimum: 1 }),
  message: Type.String({ maxLength: 10_000 }),
});

const errorsOf = (data: unknown) => {
  const checked = checkForm(Form, data);
  assert.ok(!checked.ok);
  return checked.errors;
};

describe('validation messages', () => {
  it('name fields in English as Laravel labels them, so the API’s messages stay the contract’s', () => {
    const names = Object.entries(CATALOGS.en).filter(([key]) => key.startsWith('field.'));
    assert.ok(names.length > 10);
    for (const [key, name] of names) assert.equal(name, label(key.slice('field.'.length)), key);
  });

  it('are English without a reader, limits written as the contract writes them', () => {
    assert.deepEqual(errorsOf({ signature: 'x'.repeat(501), page: '0', message: 'x'.repeat(10_001) }), {
      current_password: ['The current password field is required.'],
      signature: ['The signature field must not be greater than 500 characters.'],
      page: ['The page field must be at least 1.'],
      message: ['The message field must not be greater than 10000 characters.'],
    });
  });

  it('are Russian for a Russian reader, fields named and plural forms chosen', () => {
    asReader({ locale: 'ru', timeZone: 'UTC' }, () => {
      assert.deepEqual(errorsOf({ current_password: '', signature: 'x'.repeat(501), page: 'x', message: 'x'.repeat(10_001) }), {
        current_password: ['Поле «Текущий пароль» обязательно для заполнения.'],
        signature: ['В поле «Подпись» должно быть не больше 500 символов.'],
        page: ['Значение поля «Страница» должно быть целым числом.'],
        message: ['В поле «Сообщение» должно быть не больше 10000 символов.'],
      });
      const short = checkForm(Type.Object({ nickname: Type.String({ minLength: 21 }) }), { nickname: 'x' });
      assert.deepEqual(
        short.ok ? null : short.errors,
        { nickname: ['В поле «nickname» должно быть не меньше 21 символа.'] },
        'an unnamed field keeps its label',
      );
    });
  });

  it('tell a member who writes too fast how long to wait, in their language', () => {
    assert.equal(new FloodError('posts', 30, 1).message, 'You can post once every 30 seconds. Please wait 1 second before you post again.');
    asReader({ locale: 'ru', timeZone: 'UTC' }, () => {
      assert.equal(new FloodError('posts', 30, 1).message, 'Писать можно не чаще одного раза в 30 секунд. Подождите ещё 1 секунду, прежде чем написать снова.');
      assert.equal(
        new FloodError('messages', 3600, 22).message,
        'Отправлять сообщения можно не чаще одного раза в 3600 секунд. Подождите ещё 22 секунды, прежде чем отправить следующее.',
      );
    });
  });
});
