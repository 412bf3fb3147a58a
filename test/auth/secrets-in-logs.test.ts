import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';

describeEachDatabase('logs', (db) => {
  let t: TestApp;
  let logged = '';
  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    t = await db.start({ logger: pino({ level: 'trace' }, sink) });
  });
  after(() => t.close());

  it('write one line per request and never a password, token or session id', async () => {
    await createUser(t, { name: 'Logged Lou' });
    const before = logged.split('\n').filter(Boolean).length;
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'Logged Lou', password: TEST_PASSWORD } });
    const token: string = login.json().data.token;
    await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ method: 'GET', url: `/api/hello?token=${token}` });
    await t.app.inject({ method: 'GET', url: '/activate/12/secret-activation-key/' });
    const session = await t.services.auth.startSession(login.json().data.user.id);
    await t.app.inject({ method: 'GET', url: '/api/user', cookies: { forum_session: session.cookieValue } });

    const lines = logged.split('\n').filter(Boolean).slice(before);
    const requestLines = lines.filter((line) => JSON.parse(line).msg === 'request');
    assert.equal(requestLines.length, 5, 'one line per request');
    for (const secret of [TEST_PASSWORD, token, 'secret-activation-key', session.cookieValue, session.csrfToken]) {
      assert.ok(!logged.includes(secret), `log contains ${secret.slice(0, 6)}…`);
    }
    assert.match(requestLines[2]!, /"url":"\/api\/hello\?token=\*\*\*"/);
  });
});
