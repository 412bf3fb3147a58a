import assert from 'node:assert/strict';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { POST_BODY_MAX } from '../../src/forum/routes.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { createUser } from '../helpers/auth.ts';
import { longestLoopBlock } from '../helpers/cpu.ts';
import { WORD_FILTERS_TOPIC } from '../../src/word-filters/checker.ts';
import { compileRegex } from '../../src/word-filters/engine/regex-patterns.ts';
import { containsWord } from '../../src/word-filters/engine/word-patterns.ts';
import type { PatternType } from '../../src/word-filters/rules.ts';
import { COSTLY_REGEX_SHAPES, costlyRuleInputs, costlyTexts } from './costly-rules.ts';
import { numberAllPositions } from '../../src/forum/post-positions.ts';

/** What the service's validation says of a pattern (undefined: accepted). */
function checkedPattern(pattern: string, patternType: PatternType): string | undefined {
  if (patternType === 'wildcard') return containsWord(pattern) ? undefined : 'wildcards only';
  if (patternType !== 'regex') return undefined;
  try {
    compileRegex(pattern, false);
    return undefined;
  } catch (error) {
    return String(error);
  }
}

// Issue 12, item 1: the regex rule \w{1,1000}\w{1,1000}! was accepted, after
// which a 20 KB post held the event loop for 9.1 s and every view of its
// topic took 30 s. Now such a rule is refused, any accepted rule set is
// checked within a time budget, and a page view never filters a stored
// text again.
describeEachDatabase('word filters cannot stall the server', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Cost Admin');
  });
  after(() => t.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: object, who: SignedIn = admin) => t.app.inject({ method, url, payload, headers: who.headers });
  const reported = '\\w{1,1000}\\w{1,1000}!';

  describe('POST and PATCH /api/word-filters', () => {
    it('refuse the reported rule with a sentence (422 on pattern), and write nothing', async () => {
      const base = { filter_type: 'block', pattern_type: 'regex', applies_to: ['posts'] };
      const created = await send('POST', '/api/word-filters', { ...base, pattern: reported });
      assert.equal(created.statusCode, 422);
      assert.deepEqual(created.json().errors, {
        pattern: [
          'The pattern repeats something 1000 times ({1,1000}); counts above 100 are not allowed, as they make the rule too costly to run. Use + or * for "any number".',
        ],
      });

      const rule = (await send('POST', '/api/word-filters', { ...base, pattern: 'spam\\d+' })).json().data;
      for (const pattern of [reported, '(?:a{1,10}){1,10}', '\\w{1,100}\\w{1,100}!']) {
        const patched = await send('PATCH', `/api/word-filters/${rule.id}`, { pattern });
        assert.equal(patched.statusCode, 422, pattern);
        assert.deepEqual(Object.keys(patched.json().errors), ['pattern'], pattern);
      }
      assert.equal((await t.services.wordFilters.get(rule.id)).pattern, 'spam\\d+');
      await t.services.wordFilters.delete(rule.id);
    });

    it('accept the costliest shapes within the limits (201)', async () => {
      for (const shape of COSTLY_REGEX_SHAPES) {
        const pattern = shape.replaceAll('{c}', '!');
        const response = await send('POST', '/api/word-filters', { pattern, filter_type: 'moderate', pattern_type: 'regex', applies_to: ['comments'] });
        assert.equal(response.statusCode, 201, pattern);
        await t.services.wordFilters.delete(response.json().data.id);
      }
    });
  });

  describe('with 2,000 of the costliest accepted rules installed', () => {
    let topicUrl: string;
    let topicId: number;
    let member: SignedIn;
    before(async () => {
      const forum = await createForum(t, 'Costly');
      const author = await createUser(t, { name: 'Cost Author' });
      const topic = await createTopic(t, author, forum, 'Costly text', 'A short opening post.');
      topicId = topic.id;
      topicUrl = `/topic/costly-text.${topic.id}/`;
      member = await signIn(t, 'user', 'Cost Member');
      // Installed in one transaction (the API accepts every one of them: see
      // the engine tests; 2,000 API calls would take minutes on a busy CI).
      const inputs = costlyRuleInputs(2000);
      for (const input of inputs) assert.equal(checkedPattern(input.pattern, input.pattern_type), undefined, input.pattern);
      const now = new Date().toISOString();
      await t.database.db.transaction().execute(async (trx) => {
        for (let at = 0; at < inputs.length; at += 200) {
          const rows = await trx
            .insertInto('word_filters')
            .values(
              inputs.slice(at, at + 200).map((input) => ({
                ...input,
                replacement: input.filter_type === 'replace' ? '***' : null,
                severity: 'medium' as const,
                is_active: true,
                case_sensitive: false,
                notes: null,
                creator_id: null,
                created_at: now,
                updated_at: now,
              })),
            )
            .returning('id')
            .execute();
          await trx
            .insertInto('word_filter_content_types')
            .values(rows.map(({ id }) => ({ word_filter_id: id, content_type: 'posts' as const })))
            .execute();
        }
      });
      await t.database.changes.publish(WORD_FILTERS_TOPIC);
      // Compile the rules, and let Fastify compile the route's validators
      // and serializers (it does on first use, 200 ms on this machine) before measuring.
      await t.services.wordFilters.check('warm up: the rules are compiled', 'posts');
      assert.equal((await send('POST', `/api/topics/${topicId}/posts`, { body: 'A short reply.' }, member)).statusCode, 201);
      assert.equal((await send('POST', `/api/topics/${topicId}/posts`, { body: 'It says word0.' }, member)).statusCode, 422);
      assert.equal((await t.app.inject({ url: topicUrl })).statusCode, 200);
    });

    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    /**
     * The longest event-loop block while `work` runs, in this thread's CPU time
     * (`busy`, asserted: see longestLoopBlock) and in wall time (`wall`, printed:
     * on a shared machine it also counts the time the operating system ran other
     * processes; pauses of 300 ms were seen at a load average of 20 on two cores).
     */
    async function loopDelay(work: () => Promise<void>): Promise<{ busy: number; wall: number; ms: number }> {
      const monitor = monitorEventLoopDelay({ resolution: 5 });
      monitor.enable();
      await sleep(20);
      const { blockedMs, wallMs } = await longestLoopBlock(work);
      await sleep(20);
      monitor.disable();
      return { busy: blockedMs, wall: monitor.max / 1e6, ms: wallMs };
    }

    it("a 60 KB post of the costliest text and three views of its topic never hold the event loop over 50 ms (plus the machine's own noise)", async () => {
      const body = costlyTexts(POST_BODY_MAX)['runs of a and punctuation']!;
      const stored = `${body.slice(0, -10)} (stored)`;
      let checks = 0;
      const check = t.services.wordFilters.check.bind(t.services.wordFilters);
      const durations: number[] = [];
      t.services.wordFilters.check = async (text, type) => {
        if (text === stored) checks++;
        const started = performance.now();
        const result = await check(text, type);
        durations.push(performance.now() - started);
        return result;
      };
      const gcs: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.duration > 10) gcs.push(Math.round(entry.duration));
      });
      observer.observe({ entryTypes: ['gc'] });
      try {
        let outcome = '';
        const posting = await loopDelay(async () => {
          const response = await send('POST', `/api/topics/${topicId}/posts`, { body }, member);
          outcome = response.statusCode === 201 ? `201 ${response.json().data.status}` : String(response.statusCode);
        });
        // \w{1,100}! is a block rule, and it matches: refused, or, when the
        // time budget ran out before that rule was decided, held for a moderator.
        assert.ok(['422', '201 pending'].includes(outcome), outcome);

        // Stored as it could be before the rules were tightened: a view must still be quick.
        await t.database.db
          .insertInto('posts')
          .values({
            topic_id: topicId,
            author_id: member.user.id,
            body: stored,
            status: 'published',
            held_by_filter_id: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
        await numberAllPositions(t.database.db);
        const viewing = await loopDelay(async () => {
          for (let view = 0; view < 3; view++) assert.equal((await t.app.inject({ url: topicUrl })).statusCode, 200);
        });
        assert.equal(checks, 1, 'the stored post is filtered for display once, not on every view');

        const figures = `posting: ${posting.ms.toFixed(0)} ms, longest event-loop block ${posting.busy.toFixed(1)} ms of CPU (${posting.wall.toFixed(1)} ms of wall time); three views: ${viewing.ms.toFixed(0)} ms, longest block ${viewing.busy.toFixed(1)} ms of CPU (${viewing.wall.toFixed(1)} ms of wall time)`;
        console.log(`[${db.kind}] ${figures}; checks: ${durations.map((ms) => ms.toFixed(0)).join(', ')} ms; GC pauses over 10 ms: ${gcs.join(', ')}`);
        // The target is 50 ms of work without a turn of the event loop; a
        // garbage collection inside the work adds its own (up to 45 ms seen).
        // The reported stall was 9,100 ms.
        for (const { busy } of [posting, viewing]) assert.ok(busy < 50 + 45, figures);
      } finally {
        observer.disconnect();
        t.services.wordFilters.check = check;
      }
    });
  });
});
