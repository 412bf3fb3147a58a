// /admin/mass-send/ (docs/mass-mail.md): the form, the confirmation that says
// how many members a send goes to before anything is sent (no JavaScript
// needed: the fields travel with the question), the way back to change them,
// the send's page with its progress, and refusals that change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { loggedIn, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('admin mass mailing', (db) => {
  let t: TestApp;
  let admin: Member;
  let moderator: Member;
  let groupId: number;

  before(async () => {
    t = await db.start();
    admin = await loggedIn(t, { name: 'Mailing Admin', role: 'admin' });
    moderator = await loggedIn(t, { name: 'Mailing Moderator', role: 'moderator' });
    const group = await t.services.groups.create({ name: 'Translators', type: 'open' });
    groupId = group.id;
    for (const name of ['Translator One', 'Translator Two', 'Translator Three']) {
      const user = await createUser(t, { name });
      await t.services.groups.setMember(groupId, { id: admin.user.id, role: 'admin' }, user.id, 'member');
    }
  });
  after(() => t.close());

  const unchanged = async (work: () => Promise<void>) => {
    const before = await snapshotTables(t);
    await work();
    await t.services.massSender.settled();
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
  };

  describe('access', () => {
    it('is for admins: guests log in first, moderators and members get the 403 page', async () => {
      const guest = await new Browser(t).get('/admin/mass-send/');
      assert.equal(guest.status, 303);
      assert.equal(guest.location, '/login/?next=%2Fadmin%2Fmass-send%2F');
      assert.equal((await moderator.browser.get('/admin/mass-send/')).status, 403);
      await moderator.browser.get('/admin/');
      await unchanged(async () => {
        const posted = await moderator.browser.post('/admin/mass-send/', { kind: 'message', audience: 'all', subject: 'Hi', body: 'Hi', confirmed: '1' });
        assert.equal(posted.status, 403);
      });
    });
  });

  describe('sending', () => {
    it('asks first, saying how many members the send goes to, and sends nothing until confirmed', async () => {
      const page = dom(await admin.browser.get('/admin/mass-send/'));
      assert.equal(page.attr('#mass-send-kind-message', 'checked'), '', 'a private message unless chosen otherwise');
      assert.deepEqual(
        page.all('#mass-send-group_id option').map((option) => option.text),
        ['Choose a group.', 'Translators'],
      );
      let question = '';
      await unchanged(async () => {
        const asked = await admin.browser.post('/admin/mass-send/', {
          kind: 'message',
          audience: 'group',
          group_id: String(groupId),
          role: 'moderator',
          subject: 'Translation sprint',
          body: 'Line one.\nLine two: [b]bold[/b].',
        });
        assert.equal(asked.status, 200);
        question = dom(asked).text('main h1 + p');
        const fields = dom(asked).fields('main form');
        assert.match(String(fields['request_key']), /^[\w-]{24}$/, 'the confirmation has a key of its own');
        assert.deepEqual(
          { ...fields, _csrf: undefined, request_key: undefined },
          {
            _csrf: undefined,
            request_key: undefined,
            kind: 'message',
            audience: 'group',
            group_id: String(groupId),
            role: 'moderator',
            subject: 'Translation sprint',
            body: 'Line one.\nLine two: [b]bold[/b].',
          },
        );
        assert.deepEqual(dom(asked).texts('main form button'), ['Send to 3 members', 'Change it']);
      });
      assert.equal(question, 'A private message will go to 3 members. Send it now?');
    });

    it('goes back to the form with everything typed, to change it', async () => {
      await admin.browser.get('/admin/mass-send/');
      const back = await admin.browser.post('/admin/mass-send/', {
        kind: 'mail',
        audience: 'role',
        role: 'moderator',
        subject: 'Moderators meeting',
        body: 'On Friday.',
        back: '1',
      });
      assert.equal(back.status, 200);
      const form = dom(back).fields('main form');
      assert.equal(form['kind'], 'mail');
      assert.equal(form['audience'], 'role');
      assert.equal(form['role'], 'moderator');
      assert.equal(form['subject'], 'Moderators meeting');
      assert.equal(form['body'], 'On Friday.');
    });

    it('sends once confirmed, then shows the send with its progress, and lists it', async () => {
      await admin.browser.get('/admin/mass-send/');
      const sent = await admin.browser.post('/admin/mass-send/', {
        kind: 'message',
        audience: 'group',
        group_id: String(groupId),
        subject: 'Translation sprint',
        body: 'Join [b]us[/b] at [url=https://example.org/sprint]the sprint[/url].',
        confirmed: '1',
      });
      assert.equal(sent.status, 303);
      const id = Number(/^\/admin\/mass-send\/(\d+)\/$/.exec(sent.location ?? '')?.[1]);
      assert.ok(id > 0, sent.location);
      await t.services.massSender.settled();
      const page = dom(await admin.browser.get(sent.location!));
      assert.match(page.text('#admin-live'), /Sending to 3 members has begun\./);
      assert.match(page.text('#progress'), /3 of 3 done/);
      assert.equal(page.attr('#progress', 'hx-trigger'), undefined, 'done: nothing more to look at');
      assert.equal(page.attr('#progress progress', 'value'), '3');
      assert.match(page.text('dl.facts'), /Members of the group “Translators”/);
      assert.equal(page.text('main .body strong'), 'us', 'the message as members read it');
      assert.equal(page.attr('main .body a', 'href'), 'https://example.org/sprint');
      const list = dom(await admin.browser.get('/admin/mass-send/'));
      assert.equal(list.linkText(`/admin/mass-send/${id}/`), 'Translation sprint');
      assert.match(list.text('tbody tr'), /A private message.*Members of the group “Translators”.*Mailing Admin.*3 of 3 done/s);
      const messages = await t.database.db.selectFrom('private_messages').select('recipient_id').where('mass_send_id', '=', id).execute();
      assert.equal(messages.length, 3);
    });

    it('looks at the progress again every few seconds while a send is under way', async () => {
      const send = await t.database.db
        .insertInto('mass_sends')
        .values({
          kind: 'mail',
          audience: 'all',
          subject: 'Under way',
          body: 'Text.',
          sender_id: admin.user.id,
          sender_name: admin.user.username,
          recipients: 10,
          sent: 4,
          max_user_id: admin.user.id,
          // Held by an instance that is working on it.
          lease_owner: 'another instance',
          lease_until: new Date(Date.now() + 3_600_000).toISOString(),
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const page = dom(await admin.browser.get(`/admin/mass-send/${send.id}/`));
      assert.equal(page.attr('#progress', 'hx-trigger'), 'every 5s');
      assert.equal(page.attr('#progress', 'hx-get'), `/admin/mass-send/${send.id}/`);
      assert.match(page.text('#progress'), /4 of 10 sending/);
      assert.equal(page.text('main .mail-body'), 'Text.', 'a mail as its text goes out');
      assert.equal((await admin.browser.get('/admin/mass-send/99999999/')).status, 404);
    });
  });

  describe('a double click', () => {
    it('makes one send of a confirmation posted twice', async () => {
      await admin.browser.get('/admin/mass-send/');
      const asked = dom(
        await admin.browser.post('/admin/mass-send/', { kind: 'message', audience: 'group', group_id: String(groupId), subject: 'Only once', body: 'Once.' }),
      );
      const confirmed = { ...asked.fields('main form'), confirmed: '1' };
      const first = await admin.browser.post('/admin/mass-send/', confirmed);
      const second = await admin.browser.post('/admin/mass-send/', confirmed);
      assert.equal(first.status, 303);
      assert.equal(second.location, first.location, 'the same send');
      assert.match(dom(await admin.browser.get(second.location!)).text('#admin-live'), /This send was made already/);
      await t.services.massSender.settled();
      const sends = await t.database.db.selectFrom('mass_sends').select('id').where('subject', '=', 'Only once').execute();
      assert.equal(sends.length, 1);
      const messages = await t.database.db.selectFrom('private_messages').select('id').where('mass_send_id', '=', sends[0]!.id).execute();
      assert.equal(messages.length, 3, 'each member once');
    });
  });

  describe('refusals', () => {
    it('shows the form again with the reason and changes nothing: a blank subject, no group, a NUL, an unknown group, no token', async () => {
      await admin.browser.get('/admin/mass-send/');
      const cases: Array<[Record<string, string>, string, string]> = [
        [{ kind: 'message', audience: 'all', subject: '  ', body: 'Text.' }, 'mass-send-subject', 'The subject field is required.'],
        [{ kind: 'message', audience: 'group', group_id: '', subject: 'Hi', body: 'Text.' }, 'mass-send-group_id', 'Choose a group.'],
        [{ kind: 'mail', audience: 'role', subject: 'Hi', body: 'Text.' }, 'mass-send-role', 'Choose a role.'],
        [
          { kind: 'mail', audience: 'all', subject: 'Hi', body: 'Nul \u0000 inside' },
          'mass-send-body',
          'The body field contains characters that are not allowed.',
        ],
        [{ kind: 'mail', audience: 'group', group_id: '99999999', subject: 'Hi', body: 'Text.' }, 'mass-send-group_id', 'The selected'],
        [{ audience: 'all', subject: 'Hi', body: 'Text.', confirmed: '1' }, 'mass-send-kind', 'The kind field is required.'],
      ];
      for (const [form, field, message] of cases) {
        await unchanged(async () => {
          const refused = await admin.browser.post('/admin/mass-send/', form);
          assert.equal(refused.status, 422, JSON.stringify(form));
          const page = dom(refused);
          assert.ok(page.text('[role="alert"]').includes(message), `${JSON.stringify(form)}: ${page.text('[role="alert"]')}`);
          assert.ok(page.text(`#${field}-error`).includes(message), `the message beside ${field} for ${JSON.stringify(form)}`);
        });
      }
      await unchanged(async () => {
        const forged = await admin.browser.post('/admin/mass-send/', {
          kind: 'message',
          audience: 'all',
          subject: 'Hi',
          body: 'Text.',
          confirmed: '1',
          _csrf: 'forged',
        });
        assert.equal(forged.status, 403);
      });
    });
  });
});
