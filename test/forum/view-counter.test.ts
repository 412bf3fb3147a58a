import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TopicViewCounter } from '../../src/forum/view-counter.ts';

describe('TopicViewCounter', () => {
  it('writes the counted views in one batch per flush, and nothing when there are none', async () => {
    const batches: Array<Map<number, number>> = [];
    const counter = new TopicViewCounter({ addViews: async (counts) => void batches.push(new Map(counts)) });
    counter.record(1);
    counter.record(1);
    counter.record(2);
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
    const counter = new TopicViewCounter({
      addViews: async (counts) => {
        if (fail) throw new Error('database unavailable');
        for (const [id, views] of counts) written.set(id, (written.get(id) ?? 0) + views);
      },
    });
    counter.record(7);
    await assert.rejects(counter.flush(), /database unavailable/);
    counter.record(7);
    fail = false;
    await counter.stop();
    assert.deepEqual(written, new Map([[7, 2]]));
  });
});
