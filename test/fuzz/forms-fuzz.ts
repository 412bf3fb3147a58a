// Every form the site shows (found by opening each page as a guest and as
// each role): login, registration, password recovery, settings, new topic,
// reply, profile mail, the admin forms; submitted with broken fields,
// urlencoded and multipart, with and without the CSRF token. See
// docs/security.md, "Fuzzing".
import { after, before, it } from 'node:test';
import type { DatabaseSuite, TestApp } from '../helpers/app.ts';
import { discoverForms, formRequests, type Form } from './forms.ts';
import { Oracle } from './oracle.ts';
import { readOperations } from './operations.ts';
import { fuzz, selected } from './settings.ts';
import { World } from './world.ts';

/** Inputs per form (× FUZZ_RUNS). */
const RUNS_PER_FORM = 40;

/** Forms that must be among those found: if one is missing, discovery broke, not the site. */
const EXPECTED_ACTIONS = [
  '/login/',
  '/register/',
  '/password-recovery/',
  '/settings/email/',
  '/settings/password/',
  '/settings/signature/',
  '/logout/',
  '/admin/word-filters/',
  '/admin/forums/',
  '/admin/emojis/',
  '/admin/emoji-categories/',
];

/** The suite's body, on one database; `file` is the test file that runs it (named in replay instructions). */
export function fuzzForms({ start }: DatabaseSuite, file: string): void {
  let t: TestApp;
  let world: World;
  let oracle: Oracle;
  let forms: Form[];

  before(async () => {
    t = await start();
    world = await World.build(t);
    oracle = new Oracle(t, world);
    forms = await discoverForms(world, await readOperations(t));
  });
  after(async () => {
    console.log(`[fuzz forms] ${forms?.length} forms; ${oracle?.stats.summary()}`);
    await t?.close();
  });

  it('handles every form without a 5xx, a stall, a change on refusal or an off-site redirect', async (context) => {
    const actions = new Set(forms.map((form) => form.action));
    const missing = EXPECTED_ACTIONS.filter((action) => !actions.has(action));
    if (missing.length > 0) throw new Error(`forms not found on any page: ${missing.join(', ')}`);
    if (!forms.some((form) => /^\/topic\/.*\/reply\/$/.test(form.action)) || !forms.some((form) => form.action.startsWith('/forum/')))
      throw new Error('no reply or new-topic form found');
    for (const form of forms) {
      const name = `POST ${form.action} (${
        form.fields
          .map((field) => field.name)
          .filter((field) => field !== '_csrf')
          .join(', ') || 'no fields'
      })`;
      if (!selected(name)) continue;
      await context.test(name, () => fuzz(file, name, formRequests(form, world), oracle, RUNS_PER_FORM));
    }
  });
}
