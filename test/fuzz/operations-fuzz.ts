// Every operation of the OpenAPI document, attacked with hostile path
// segments, query strings, bodies (JSON, forms, multipart), headers and
// callers (guest, user, moderator, admin; tokens and CSRF'd sessions): the
// JSON API's operations and the page routes (forum, topic and profile pages,
// account pages, legacy URLs, admin pages) are two suites. See
// docs/security.md, "Fuzzing".
import { after, before, it } from 'node:test';
import type { DatabaseSuite, TestApp } from '../helpers/app.ts';
import { Oracle } from './oracle.ts';
import { operationRequests, PAGE_QUERY_NAMES, readOperations, type Operation } from './operations.ts';
import { fuzz, selected } from './settings.ts';
import { World } from './world.ts';

interface Target {
  /** For the summary line. */
  label: string;
  /** What the test is called. */
  title: string;
  pages: boolean;
  /** Inputs per operation (× FUZZ_RUNS). */
  runs: number;
  /** Fewer operations than this means the OpenAPI document lost routes, not that the site is safe. */
  atLeast: number;
}

const TARGETS = {
  api: { label: 'api', title: 'answers every operation', pages: false, runs: 40, atLeast: 40 },
  pages: { label: 'pages', title: 'answers every page route', pages: true, runs: 12, atLeast: 100 },
} as const satisfies Record<string, Target>;

/** The suite's body, on one database; `file` is the test file that runs it (named in replay instructions). */
export function fuzzOperations({ start }: DatabaseSuite, which: keyof typeof TARGETS, file: string): void {
  const target: Target = TARGETS[which];
  let t: TestApp;
  let world: World;
  let oracle: Oracle;
  let operations: Operation[];

  before(async () => {
    t = await start();
    world = await World.build(t);
    oracle = new Oracle(t, world);
    operations = (await readOperations(t)).filter((operation) => operation.path.startsWith('/api/') !== target.pages);
  });
  after(async () => {
    console.log(`[fuzz ${target.label}] ${oracle?.stats.summary()}`);
    await t?.close();
  });

  it(`${target.title} without a 5xx, a stall, a change on refusal or an off-site redirect`, async (context) => {
    if (operations.length < target.atLeast) throw new Error(`only ${operations.length} ${target.label} operations in the OpenAPI document`);
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (!selected(name)) continue;
      const requests = operationRequests(operation, world, target.pages ? PAGE_QUERY_NAMES : []);
      await context.test(name, () => fuzz(file, name, requests, oracle, target.runs));
    }
  });
}
