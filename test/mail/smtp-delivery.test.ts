// Mail out through SMTP (nodemailer) to a small SMTP server in this process.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** Just enough SMTP to accept mail: no TLS, no authentication. */
function smtpServer(received: Received[]): Server {
  return createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: Received = { from: '', to: [], data: '' };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 test.smtp ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          say('250 2.0.0 queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 test.smtp');
        else if (verb === 'MAIL') {
          current.from = line;
          say('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          current.to.push(line);
          say('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          say('354 go ahead');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') say('250 ok');
        else say('502 not implemented');
      }
    });
    socket.on('error', () => {});
  });
}

describeEachDatabase('mail through SMTP', (db) => {
  const received: Received[] = [];
  let server: Server;
  let t: TestApp;
  before(async () => {
    server = smtpServer(received);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    t = await db.start({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Forum <forum@example.org>', BASE_URL: 'https://forum.example.org' } });
  });
  after(async () => {
    await t.close();
    server.close();
  });

  it('delivers a password-reset mail, with its BASE_URL link, and marks it sent in the outbox', async () => {
    const user = await createUser(t, { name: 'Smtp Sue' });
    const browser = new Browser(t, { host: 'evil.example' });
    await browser.get('/password-recovery/');
    assert.equal((await browser.post('/password-recovery/', { email: user.email })).status, 200);

    const mail = received.find((message) => message.to.some((line) => line.includes(user.email)));
    assert.ok(mail, 'the SMTP server got the mail');
    assert.match(mail.from, /<forum@example\.org>/);
    assert.match(mail.data, /^Subject: Choose a new forum password$/m);
    const body = mail.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    assert.match(body, /https:\/\/forum\.example\.org\/password-recovery\/[\w-]{40,}\//);
    assert.doesNotMatch(body, /evil\.example/);

    const row = await t.database.db.selectFrom('outbox').selectAll().where('to_address', '=', user.email).executeTakeFirstOrThrow();
    assert.notEqual(row.sent_at, null, 'marked sent');
    assert.equal(row.error, null);
  });

  it("delivers a mass mail with the List-Unsubscribe headers of RFC 8058, naming the member's own link", async () => {
    const admin = await createUser(t, { name: 'Smtp Admin', role: 'admin' });
    const member = await createUser(t, { name: 'Smtp Member' });
    await t.services.massSends.create(
      { id: admin.id, name: admin.username, email: admin.email, role: admin.role },
      {
        kind: 'mail',
        audience: { kind: 'role', role: 'user' },
        subject: 'Forum news',
        body: 'Hello.',
      },
    );
    await t.services.massSender.settled();
    const mail = received.find((message) => message.to.some((line) => line.includes(member.email)) && /^Subject: Forum news$/m.test(message.data));
    assert.ok(mail, 'the SMTP server got the mail');
    const key = (await t.database.db.selectFrom('users').select('mass_mail_key').where('id', '=', member.id).executeTakeFirstOrThrow()).mass_mail_key;
    assert.match(key ?? '', /^[\w-]{32}$/);
    // Long header lines come folded (RFC 5322): a line break before white space continues the line.
    const headers = mail.data.slice(0, mail.data.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    assert.match(headers, new RegExp(`^List-Unsubscribe: <https://forum\\.example\\.org/unsubscribe/${key}/>$`, 'm'));
    assert.match(headers, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  });
});
