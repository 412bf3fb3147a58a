// What rendering a stored text may cost (issue 27): the costliest bodies of
// costly-bodies.ts at the body limit each render, as a page and as the words
// search reads, within RENDER_BUDGET_MS of CPU. A text that long is not kept
// by the render cache, so every view of it pays this; before the fix some
// of them threw (the recursion ran out of stack) and others took seconds.
// `npm run bench render` measures the same bodies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bbcodeText } from '../../../src/forum/bbcode/bbcode.ts';
import { renderBody } from '../../../src/forum/render.ts';
import { threadCpuMs } from '../../helpers/cpu.ts';
import { BODY_LIMIT, COSTLY_BODIES, findThumbsUp as find } from './costly-bodies.ts';

/**
 * Twice the target of issue 27 (20 ms, measured by `npm run bench render`,
 * bench/RESULTS.md): the test fails on any render that grows worse than
 * linear (the old renderer took seconds, or threw), never on a loaded
 * machine's noise (a batch once measured 28.7 ms beside the fuzz suite).
 */
const RENDER_BUDGET_MS = 40;
/** Renders measured together: the thread's CPU clock may tick only every few milliseconds. */
const BATCH = 4;
const BATCHES = 5;

/**
 * CPU milliseconds per call of `work`: the cheapest of a few batches, after a
 * few calls to compile it. The cost of a render is the same every time; what
 * varies is added to it (a collection of earlier garbage, which can take a few
 * hundred milliseconds in steps, the compiler tiering up), and a render that
 * grew worse than linear grows in every batch.
 */
function cpuPerRun(work: () => void): number {
  for (let i = 0; i < 3; i++) work();
  let cheapest = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < BATCHES; batch++) {
    const started = threadCpuMs();
    for (let i = 0; i < BATCH; i++) work();
    cheapest = Math.min(cheapest, (threadCpuMs() - started) / BATCH);
  }
  return cheapest;
}

describe('render cost at the body limit', () => {
  for (const body of COSTLY_BODIES) {
    it(`renders ${body.name} within ${RENDER_BUDGET_MS} ms of CPU`, () => {
      const text = body.build(BODY_LIMIT);
      assert.equal([...text].length, BODY_LIMIT);
      const page = cpuPerRun(() => renderBody(text, find));
      const words = cpuPerRun(() => bbcodeText(text));
      assert.ok(page < RENDER_BUDGET_MS, `rendering took ${page.toFixed(1)} ms of CPU`);
      assert.ok(words < RENDER_BUDGET_MS, `the words took ${words.toFixed(1)} ms of CPU`);
    });
  }
});
