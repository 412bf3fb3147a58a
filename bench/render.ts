// `npm run bench render`: what rendering a stored text costs at its worst.
// Every costly body of test/forum/bbcode/costly-bodies.ts (deep nesting of
// every tag, stray closers, unclosed openers, long runs), built at the body
// limit (60,000 characters), is rendered as a page renders it (renderBody,
// with an emoji finder) and reduced to its words as search does (bbcodeText),
// RENDER_RUNS times each after a warm-up: p50, p99 and max of each render on
// the clock, and of the CPU time of this thread per render (in batches).
// Target: the worst body renders in under 20 ms (issue 27): a text over
// 50,000 characters is not kept by the render cache, so each view pays this.
import { bbcodeText } from '../src/forum/bbcode/bbcode.ts';
import { renderBody } from '../src/forum/render.ts';
import { BODY_LIMIT, COSTLY_BODIES, findThumbsUp as find } from '../test/forum/bbcode/costly-bodies.ts';
import { threadCpuMs } from '../test/helpers/cpu.ts';
import { machine } from './lib.ts';

const RUNS = Number(process.env['RENDER_RUNS'] ?? 200);
/** Renders whose CPU time is read together: the thread's CPU clock ticks only every few milliseconds on some machines. */
const BATCH = 10;
const TARGET_MS = 20;

interface Spread {
  p50: number;
  p99: number;
  max: number;
}

interface Timing {
  /** Each render on the clock: on a busy machine it also counts the moments other processes ran. */
  clock: Spread;
  /** CPU time of this thread per render, over each batch of BATCH renders: what a busy machine does not stretch. */
  cpu: Spread;
}

function spread(samples: number[]): Spread {
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.floor(samples.length * 0.99)]!, max: samples.at(-1)! };
}

function time(work: () => void): Timing {
  for (let i = 0; i < 5; i++) work();
  const clock: number[] = [];
  const cpu: number[] = [];
  for (let batch = 0; batch < RUNS / BATCH; batch++) {
    const cpuStarted = threadCpuMs();
    for (let i = 0; i < BATCH; i++) {
      const started = performance.now();
      work();
      clock.push(performance.now() - started);
    }
    cpu.push((threadCpuMs() - cpuStarted) / BATCH);
  }
  return { clock: spread(clock), cpu: spread(cpu) };
}

const ms = (value: number): string => value.toFixed(2);

export function renderBench(): Promise<void> {
  console.log(`\n## render: the costliest bodies at the body limit (${BODY_LIMIT.toLocaleString('en')} characters), ${RUNS} renders each, ms\n`);
  console.log(`${machine()}\n`);
  console.log(`Render: each of ${RUNS} renders on the clock, and CPU per render over batches of ${BATCH}. Words (bbcodeText, what search reads): CPU.\n`);
  console.log('| body | HTML chars | clock p50 | clock p99 | clock max | CPU p50 | CPU p99 | CPU max | words CPU p50 | words CPU max |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let slowest = { name: '', value: 0 };
  let costliest = { name: '', value: 0 };
  for (const body of COSTLY_BODIES) {
    const text = body.build(BODY_LIMIT);
    const htmlLength = renderBody(text, find).value.length;
    const render = time(() => renderBody(text, find));
    const words = time(() => bbcodeText(text));
    const cells = [render.clock.p50, render.clock.p99, render.clock.max, render.cpu.p50, render.cpu.p99, render.cpu.max, words.cpu.p50, words.cpu.max].map(ms);
    console.log(`| ${body.name.replace(/\|/g, '\\|')} | ${htmlLength.toLocaleString('en')} | ${cells.join(' | ')} |`);
    if (render.clock.p99 > slowest.value) slowest = { name: body.name, value: render.clock.p99 };
    if (render.cpu.p99 > costliest.value) costliest = { name: body.name, value: render.cpu.p99 };
  }
  const verdict = (value: number): string => (value < TARGET_MS ? 'met ✓' : '**missed**');
  console.log(`\nTarget: under ${TARGET_MS} ms.`);
  console.log(`- Highest CPU p99 per render: ${costliest.name}, ${ms(costliest.value)} ms: ${verdict(costliest.value)}`);
  console.log(`- Highest p99 on the clock: ${slowest.name}, ${ms(slowest.value)} ms: ${verdict(slowest.value)}`);
  return Promise.resolve();
}

if (import.meta.main) await renderBench();
