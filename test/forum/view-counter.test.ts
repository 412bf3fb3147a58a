import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REVIEW_WINDOW_MS, TopicViewCounter } from '../../src/forum/view-counter.ts';
import { TestClock } from '../helpers/clock.ts';

describe('TopicViewCounter', () => {
  it('writes the counted views in one batch per flush, and nothing when there are none', async () => {
    const batches: Array<Map<number, number>> = [];
    const counter = new TopicViewCounter({ addViews: async (counts) => void batches.push(new Map(counts)) }, new TestClock());
    counter.record(1, 'u1');
    counter.record(1, 'u2');
    counter.record(2, 'u1');
    assert.equal(counter.unwritten(1), 2);
    await counter.flush();
    await counter.flush();
    assert.deepEqual(batches, [
      new Map([
        [1, 2],
        [2, 1],
      ]),
    ]);
    assert.equal(counter.unwritten(1), 0);
  });

  it('keeps the views of a failed flush for the next one', async () => {
    let fail = true;
    const written = new Map<number, number>();
    const counter = new TopicViewCounter(
      {
        addViews: async (counts) => {
          if (fail) throw new Error('database unavailable');
          for (const [id, views] of counts) written.set(id, (written.get(id) ?? 0) + views);
        },
      },
      new TestClock(),
    );
    counter.record(7, 'u1');
    await assert.rejects(counter.flush(), /database unavailable/);
    counter.record(7, 'u2');
    fail = false;
    await counter.stop();
    assert.deepEqual(written, new Map([[7, 2]]));
  });

  it('counts a reader’s reloads and pages of one topic once per window, and again after it', async () => {
    const clock = new TestClock();
    const counter = new TopicViewCounter({ addViews: async () => {} }, clock);
    for (let reload = 0; reload < 5; reload++) counter.record(3, 'g203.0.113.9');
    counter.record(3, 'u42');
    counter.record(4, 'u42');
    assert.equal(counter.unwritten(3), 2, 'one guest and one member');
    await counter.flush();
    clock.advance(REVIEW_WINDOW_MS - 1);
    counter.record(3, 'u42');
    assert.equal(counter.unwritten(3), 0, 'still within the window');
    clock.advance(1);
    await counter.flush(); // forgets the windows that ended
    counter.record(3, 'u42');
    counter.record(3, 'g203.0.113.9');
    assert.equal(counter.unwritten(3), 2, 'a new window counts again');
  });
});
