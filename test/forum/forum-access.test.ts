// ForumAccess keeps the rule's snapshot current without keeping a reader
// waiting: a change heard before a question is in its answer, and however
// busy the writers are (every post writes the forums table's counters), a
// question waits for at most the load under way and one more.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localChangeFeed } from '../../src/db/change-feed.ts';
import { Writes } from '../../src/db/write-watch.ts';
import { ForumAccess, type AccessSource } from '../../src/forum/forum-access.ts';
import type { ForumRules } from '../../src/forum/permissions.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';

const CLOSED_LEVELS = { ...OPEN_LEVELS, view: 'admins', read: 'admins' } as const;

/** A source whose loads the test finishes one at a time, and whose forum is open or closed as the test says. */
class HeldSource implements AccessSource {
  loads = 0;
  open = true;
  readonly #waiting: Array<() => void> = [];

  async forumRules(): Promise<ForumRules[]> {
    this.loads++;
    const levels = this.open ? OPEN_LEVELS : CLOSED_LEVELS;
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return [{ id: 1, parentId: null, levels: { ...levels } }];
  }

  async grants() {
    return [];
  }

  /** Lets the oldest load under way finish. */
  finishOne(): void {
    this.#waiting.shift()?.();
  }

  get pending(): number {
    return this.#waiting.length;
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function watched(source: HeldSource) {
  const writes = new Writes();
  const access = new ForumAccess(source, { writes, changes: localChangeFeed() }, (error) => assert.fail(String(error)));
  return { access, write: (table: string) => writes.emit(new Set([table])) };
}

describe('the access snapshot', () => {
  it('answers a question asked after a change with the rules as changed', async () => {
    const source = new HeldSource();
    const { access, write } = watched(source);
    const first = access.of(null);
    await settle();
    source.finishOne();
    assert.equal((await first).may(1, 'read'), true);

    source.open = false;
    write('forums');
    const second = access.of(null);
    await settle();
    source.finishOne();
    assert.equal((await second).may(1, 'read'), false, 'the change is in the answer');
    assert.equal(source.loads, 2);

    write('posts');
    assert.equal((await access.of(null)).may(1, 'read'), false);
    assert.equal(source.loads, 2, 'a write elsewhere keeps the snapshot');
  });

  it('keeps a question waiting for at most two loads while writes never stop', async () => {
    const source = new HeldSource();
    const { access, write } = watched(source);
    write('forums');
    let answered = false;
    const question = access.of(null).then(() => (answered = true));
    for (let round = 0; round < 10 && !answered; round++) {
      await settle();
      write('forums'); // a post's counters, heard while the load is under way
      source.open = round % 2 === 0;
      source.finishOne();
      await settle();
    }
    assert.ok(answered, `still waiting after ${source.loads} loads`);
    await question;
    assert.ok(source.loads <= 2, `answered after ${source.loads} loads`);
    // The loads left under way end too, and the next question is answered from a load after the last write.
    while (source.pending > 0) {
      source.finishOne();
      await settle();
    }
    const next = access.of(null);
    await settle();
    while (source.pending > 0) {
      source.finishOne();
      await settle();
    }
    assert.equal((await next).may(1, 'read'), source.open);
  });
});
