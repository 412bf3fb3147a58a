// How much to fuzz and with which seed. Fixed by default, so a run is
// reproducible; FUZZ_SEED and FUZZ_RUNS go further, FUZZ_ONLY narrows.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { FuzzFailures, type FuzzRequest, type Oracle } from './oracle.ts';

const DEFAULT_SEED = 20261123;

function positive(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${JSON.stringify(text)}`);
  return value;
}

export const FUZZ_SEED = positive('FUZZ_SEED', DEFAULT_SEED);
/** Multiplies every default number of runs (FUZZ_RUNS=10: ten times as many inputs). */
export const FUZZ_SCALE = positive('FUZZ_RUNS', 1);
/** Only targets whose name contains this text (faster reproduction; earlier targets' writes then do not happen). */
const FUZZ_ONLY = process.env['FUZZ_ONLY'];
/** Shrink a failing input to a smaller one (slow when the failure is a stall). */
const FUZZ_SHRINK = process.env['FUZZ_SHRINK'] === '1';

export function selected(name: string): boolean {
  return FUZZ_ONLY === undefined || FUZZ_ONLY === '' || name.includes(FUZZ_ONLY);
}

/** Distinct failures kept per target (the first input of each kind). */
const MAX_FAILURES = 5;

/**
 * Sends `runs` requests drawn from `requests` through the oracle. Every kind
 * of failure is collected (the first input of each), so one finding does not
 * hide another; the error names the seed that replays the run.
 */
export async function fuzz(file: string, name: string, requests: fc.Arbitrary<FuzzRequest>, oracle: Oracle, runs: number): Promise<void> {
  const failures = new Map<string, string>();
  const numRuns = Math.max(1, Math.round(runs * FUZZ_SCALE));
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      try {
        await oracle.send(request);
      } catch (error) {
        if (FUZZ_SHRINK || !(error instanceof FuzzFailures)) throw error;
        for (const failure of error.failures) if (!failures.has(failure.kind) && failures.size < MAX_FAILURES) failures.set(failure.kind, failure.message);
      }
    }),
    {
      seed: targetSeed(name),
      numRuns,
      reporter: (details) => {
        if (!details.failed) return;
        const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        throw new Error(`${name}: ${cause}\n  seed ${details.seed}, path ${details.counterexamplePath ?? '-'}\n  ${replay(file)}`);
      },
    },
  );
  if (failures.size > 0)
    throw new Error(`${name}: ${failures.size} kind(s) of failure in ${numRuns} inputs\n\n${[...failures.values()].join('\n\n')}\n\n  ${replay(file)}`);
}

/** Each target draws its own inputs, all fixed by FUZZ_SEED. */
function targetSeed(name: string): number {
  return Number.parseInt(createHash('sha256').update(`${FUZZ_SEED} ${name}`).digest('hex').slice(0, 8), 16) | 0;
}

function replay(file: string): string {
  return `replay: FUZZ_SEED=${FUZZ_SEED}${FUZZ_SCALE === 1 ? '' : ` FUZZ_RUNS=${FUZZ_SCALE}`} node --test ${file} (state builds up across targets: run the whole file; FUZZ_SHRINK=1 stops at the first failure and shrinks it)`;
}
