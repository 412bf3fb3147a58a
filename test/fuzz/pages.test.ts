// Every page route of the OpenAPI document (forum, topic and profile pages,
// account pages, legacy URLs, admin pages), attacked with hostile path
// segments, query strings, form bodies, headers and callers. See
// docs/security.md, "Fuzzing".
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Oracle } from './oracle.ts';
import { operationRequests, PAGE_QUERY_NAMES, readOperations, type Operation } from './operations.ts';
import { fuzz, selected } from './settings.ts';
import { World } from './world.ts';

/** Inputs per page route and method (× FUZZ_RUNS). */
const RUNS_PER_ROUTE = 12;

describeEachDatabase('fuzz: the pages', ({ start }) => {
  let t: TestApp;
  let world: World;
  let oracle: Oracle;
  let operations: Operation[];

  before(async () => {
    t = await start();
    world = await World.build(t);
    oracle = new Oracle(t, world);
    operations = (await readOperations(t)).filter((operation) => !operation.path.startsWith('/api/'));
  });
  after(async () => {
    console.log(`[fuzz pages] ${oracle?.stats.summary()}`);
    await t?.close();
  });

  it('answers every page route without a 5xx, a stall, a change on refusal or an off-site redirect', async (context) => {
    if (operations.length < 100) throw new Error(`only ${operations.length} page operations in the OpenAPI document`);
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (!selected(name)) continue;
      await context.test(name, () => fuzz('test/fuzz/pages.test.ts', name, operationRequests(operation, world, PAGE_QUERY_NAMES), oracle, RUNS_PER_ROUTE));
    }
  });
});
