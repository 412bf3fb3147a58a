// Every operation of the OpenAPI document, attacked with hostile path
// segments, query strings, JSON and multipart bodies, headers and callers
// (guest, user, moderator, admin; tokens and CSRF'd sessions). See
// docs/security.md, "Fuzzing".
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Oracle } from './oracle.ts';
import { readOperations, type Operation } from './operations.ts';
import { operationRequests } from './operations.ts';
import { fuzz, selected } from './settings.ts';
import { World } from './world.ts';

/** Inputs per API operation (× FUZZ_RUNS). */
const RUNS_PER_OPERATION = 40;

describeEachDatabase('fuzz: the JSON API', ({ start }) => {
  let t: TestApp;
  let world: World;
  let oracle: Oracle;
  let operations: Operation[];

  before(async () => {
    t = await start();
    world = await World.build(t);
    oracle = new Oracle(t, world);
    operations = (await readOperations(t)).filter((operation) => operation.path.startsWith('/api/'));
  });
  after(async () => {
    console.log(`[fuzz api] ${oracle?.stats.summary()}`);
    await t?.close();
  });

  it('answers every operation without a 5xx, a stall, a change on refusal or an off-site redirect', async (context) => {
    if (operations.length < 40) throw new Error(`only ${operations.length} API operations in the OpenAPI document`);
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (!selected(name)) continue;
      await context.test(name, () => fuzz('test/fuzz/api.test.ts', name, operationRequests(operation, world), oracle, RUNS_PER_OPERATION));
    }
  });
});
