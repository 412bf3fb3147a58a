// The background sending of mass sends (docs/mass-mail.md): a send an
// instance left half-way goes on from its cursor at the next start and
// nobody gets it twice; a send another instance holds is left to it; mail
// waits for the budget rather than skipping anyone; a stop while waiting lets
// go of the send for the next start; and a send to thousands gives the event
// loop a turn between batches. Each test makes the instances it needs, as
// separate processes would be: the app's own sender is stopped first.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { systemClock } from '../../src/clock.ts';
import type { Insertable } from 'kysely';
import type { MassSendsTable } from '../../src/db/schema.ts';
import { MassSendRepository, type MassSendRow } from '../../src/mass-send/repository.ts';
import { MESSAGE_BATCH, MassSender, type MailGate } from '../../src/mass-send/sender.ts';
import { usernameKey } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { longestLoopBlock, threadCpuMs } from '../helpers/cpu.ts';
import type { UserRow } from '../../src/users/repository.ts';

/** Answers each ask with `answer(n)` (n from 1): 0 takes a place, more is "wait this long". */
class Gate implements MailGate {
  asks = 0;
  readonly #answer: (ask: number) => number;

  constructor(answer: (ask: number) => number) {
    this.#answer = answer;
  }

  async tryTake(): Promise<number> {
    this.asks += 1;
    return this.#answer(this.asks);
  }
}

/** The repository, noting how many messages each batch wrote and whether the event loop had a turn since the batch before. */
class BatchWatch extends MassSendRepository {
  readonly sizes: number[] = [];
  readonly turnBefore: boolean[] = [];
  #turned = true;

  override async deliverMessages(...args: Parameters<MassSendRepository['deliverMessages']>): ReturnType<MassSendRepository['deliverMessages']> {
    this.turnBefore.push(this.#turned);
    this.#turned = false;
    setImmediate(() => (this.#turned = true));
    const progress = await super.deliverMessages(...args);
    if (progress !== null) this.sizes.push(progress.written);
    return progress;
  }
}

const OPEN = () => 0;
/** Long enough never to end within a test. */
const SHUT = () => 3_600_000;

describeEachDatabase('mass sending in the background', (db) => {
  let t: TestApp;
  let repository: MassSendRepository;
  let admin: UserRow;
  let groups = 0;

  const instance = (gate: MailGate = new Gate(OPEN), owner?: string) =>
    new MassSender(repository, t.services.mailer, gate, systemClock, {
      log: pino({ level: 'silent' }),
      site: () => ({ name: 'Test Forum', defaultLocale: 'en' }),
      ...(owner === undefined ? {} : { owner }),
    });
  /** A group of `count` new active members, for a send of its own. */
  const groupOf = async (count: number): Promise<{ id: number; members: UserRow[] }> => {
    const group = await t.services.groups.create({ name: `Sending group ${++groups}`, type: 'hidden' });
    const members: UserRow[] = [];
    for (let i = 0; i < count; i++) {
      const user = await createUser(t);
      await t.services.groups.setMember(group.id, { id: admin.id, role: 'admin' }, user.id, 'member');
      members.push(user);
    }
    return { id: group.id, members };
  };
  /** A send as the service records it, to a group, not yet claimed by anyone (or as `values` says). */
  const sendTo = async (group: { id: number; members: UserRow[] }, values: Partial<Insertable<MassSendsTable>> = {}): Promise<MassSendRow> =>
    repository.insert({
      kind: 'message',
      audience: 'group',
      group_id: group.id,
      group_name: `Sending group ${groups}`,
      subject: `Send to group ${group.id}`,
      body: 'Hello.',
      sender_id: admin.id,
      sender_name: admin.username,
      recipients: group.members.length,
      max_user_id: Math.max(...group.members.map((member) => member.id)),
      created_at: new Date().toISOString(),
      ...values,
    });
  const stateOf = (id: number) => t.database.db.selectFrom('mass_sends').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const messagesPerMember = async (sendId: number): Promise<Map<number, number>> => {
    const rows = await t.database.db.selectFrom('private_messages').select('recipient_id').where('mass_send_id', '=', sendId).execute();
    const counts = new Map<number, number>();
    for (const row of rows) counts.set(row.recipient_id!, (counts.get(row.recipient_id!) ?? 0) + 1);
    return counts;
  };
  const mailsWith = (subject: string) => t.database.db.selectFrom('outbox').select('to_address').where('subject', '=', subject).orderBy('id').execute();

  before(async () => {
    t = await db.start();
    await t.services.massSender.stop();
    repository = new MassSendRepository(t.database.db);
    admin = await createUser(t, { role: 'admin', name: 'Sending Admin' });
  });
  after(() => t.close());

  describe('going on after a stop', () => {
    it('takes up a send an instance left half-way (its lease run out) from its cursor: every member gets the message once', async () => {
      const group = await groupOf(7);
      const done = group.members.slice(0, 3);
      // What a stopped instance left: three members had their messages (and the cursor is past them), then it died holding the send.
      const send = await sendTo(group, { sent: 3, last_user_id: done.at(-1)!.id, lease_owner: 'a stopped instance', lease_until: '2000-01-01T00:00:00.000Z' });
      await t.database.db
        .insertInto('private_messages')
        .values(
          done.map((member) => ({
            sender_id: admin.id,
            recipient_id: member.id,
            reply_to_id: null,
            subject: send.subject,
            body: send.body,
            created_at: send.created_at,
            mass_send_id: send.id,
          })),
        )
        .execute();

      const next = instance();
      next.start();
      await next.settled();
      await next.stop();
      const counts = await messagesPerMember(send.id);
      assert.deepEqual(
        group.members.map((member) => counts.get(member.id)),
        group.members.map(() => 1),
      );
      const state = await stateOf(send.id);
      assert.equal(state.status, 'done');
      assert.equal(state.sent, 7);
      assert.equal(state.last_user_id, group.members.at(-1)!.id);
      assert.equal(state.lease_owner, null);
      assert.notEqual(state.finished_at, null);
    });

    it('leaves a send whose lease another instance still holds, and takes it once that lease has run out', async () => {
      const group = await groupOf(2);
      const send = await sendTo(group, { lease_owner: 'a live instance', lease_until: new Date(Date.now() + 3_600_000).toISOString() });
      const other = instance();
      other.wake();
      await other.settled();
      assert.equal((await stateOf(send.id)).status, 'sending');
      assert.equal((await messagesPerMember(send.id)).size, 0);
      await t.database.db.updateTable('mass_sends').set({ lease_until: '2000-01-01T00:00:00.000Z' }).where('id', '=', send.id).execute();
      other.wake();
      await other.settled();
      await other.stop();
      assert.equal((await stateOf(send.id)).status, 'done');
      assert.equal((await messagesPerMember(send.id)).size, 2);
    });

    it('lets go of a mail send when stopped while waiting for the mail budget; the next start mails everyone, once', async () => {
      const group = await groupOf(3);
      const send = await sendTo(group, { kind: 'mail', subject: 'Stopped while waiting' });
      const gate = new Gate(SHUT);
      const first = instance(gate);
      first.wake();
      for (let waited = 0; gate.asks === 0; waited += 10) {
        assert.ok(waited < 60_000, 'the sender never asked the budget');
        await sleep(10);
      }
      await first.stop();
      const left = await stateOf(send.id);
      assert.deepEqual([left.status, left.sent, left.last_user_id, left.lease_owner, left.lease_until], ['sending', 0, 0, null, null]);
      assert.deepEqual(await mailsWith('Stopped while waiting'), [], 'nothing was mailed past the budget');

      const next = instance();
      next.start();
      await next.settled();
      await next.stop();
      assert.deepEqual(
        (await mailsWith('Stopped while waiting')).map((mail) => mail.to_address),
        group.members.map((member) => member.email),
      );
      assert.equal((await stateOf(send.id)).status, 'done');
    });
  });

  describe('the mail budget', () => {
    it('waits while the budget is spent and skips no one', async () => {
      const group = await groupOf(3);
      const send = await sendTo(group, { kind: 'mail', subject: 'Waiting for the budget' });
      // Spent for the first two asks of each mail: "wait 5 ms", then a place.
      const gate = new Gate((ask) => (ask % 3 === 0 ? 0 : 5));
      const sender = instance(gate);
      sender.wake();
      await sender.settled();
      await sender.stop();
      assert.equal(gate.asks, 9, 'three asks per mail');
      assert.deepEqual(
        (await mailsWith('Waiting for the budget')).map((mail) => mail.to_address),
        group.members.map((member) => member.email),
      );
      const state = await stateOf(send.id);
      assert.deepEqual([state.status, state.sent], ['done', 3]);
    });
  });

  describe('a large send', () => {
    it(`writes the messages ${MESSAGE_BATCH} at a time, the event loop getting a turn between batches`, async () => {
      const count = 4 * MESSAGE_BATCH;
      const now = new Date().toISOString();
      for (let start = 0; start < count; start += MESSAGE_BATCH) {
        const names = Array.from({ length: MESSAGE_BATCH }, (_, i) => `Moderator ${start + i}`);
        await t.database.db
          .insertInto('users')
          .values(
            names.map((name) => ({
              username: name,
              username_key: usernameKey(name),
              username_skeleton: `skeleton ${name}`,
              email: `${name.replace(' ', '.')}@example.test`,
              email_key: `${name.replace(' ', '.')}@example.test`.toLowerCase(),
              password_hash: '!',
              role: 'moderator' as const,
              status: 'active' as const,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      }
      const newest = Number(
        (
          await t.database.db
            .selectFrom('users')
            .select((eb) => eb.fn.max('id').as('newest'))
            .executeTakeFirstOrThrow()
        ).newest,
      );
      const send = await repository.insert({
        kind: 'message',
        audience: 'role',
        role: 'moderator',
        subject: 'To every moderator',
        body: 'Hello.',
        sender_id: admin.id,
        sender_name: admin.username,
        recipients: count,
        max_user_id: newest,
        created_at: now,
      });
      const batches = new BatchWatch(t.database.db);
      const sender = new MassSender(batches, t.services.mailer, new Gate(OPEN), systemClock, {
        log: pino({ level: 'silent' }),
        site: () => ({ name: 'Test Forum', defaultLocale: 'en' }),
      });
      const cpuBefore = threadCpuMs();
      const { blockedMs, wallMs } = await longestLoopBlock(async () => {
        sender.wake();
        await sender.settled();
      });
      const cpuMs = threadCpuMs() - cpuBefore;
      await sender.stop();
      console.log(
        `${count} messages: the event loop waited at most ${blockedMs.toFixed(1)} ms of CPU for a turn, of ${cpuMs.toFixed(1)} ms of CPU (${wallMs.toFixed(0)} ms in all)`,
      );
      const counts = await messagesPerMember(send.id);
      assert.equal(counts.size, count);
      assert.ok([...counts.values()].every((n) => n === 1));
      assert.equal((await stateOf(send.id)).sent, count);
      // Four full batches, then the one that finds no one left; before each after the first, the event loop had a turn.
      assert.deepEqual(batches.sizes, [MESSAGE_BATCH, MESSAGE_BATCH, MESSAGE_BATCH, MESSAGE_BATCH, 0]);
      assert.deepEqual(batches.turnBefore.slice(1), [true, true, true, true]);
    });
  });
});
