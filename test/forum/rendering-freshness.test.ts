import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { createForum, createRule, createTopic } from '../helpers/forum.ts';

// Pages keep renderings of titles, bodies and signatures (forum/render-cache.ts);
// a change to the rules must show on the next view all the same.
describeEachDatabase('rendered text follows rule changes', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  before(async () => {
    t = await db.start();
    forum = await createForum(t, 'Freshness');
  });
  after(() => t.close());

  const page = async (app: BuiltApp['app'], url: string) => (await app.inject({ url })).body;

  it('a new, changed or deleted replace rule shows at once in bodies, titles and signatures', async () => {
    const author = await createUser(t, { name: 'Fresh Author' });
    await t.services.users.update(author.id, { signature: 'Signed with blorp' });
    const topic = await createTopic(t, author, forum, 'All about blorp', 'I like blorp a lot');
    const topicUrl = `/topic/all-about-blorp.${topic.id}/`;
    assert.match(await page(t.app, topicUrl), /<p>I like blorp a lot<\/p>/);
    assert.match(await page(t.app, `/forum/freshness.${forum.id}/`), />All about blorp</);

    const rule = await createRule(t, 'blorp', 'replace', ['posts', 'topics', 'signatures'], 'snorp');
    const renamed = `/topic/all-about-snorp.${topic.id}/`;
    assert.equal((await t.app.inject({ url: topicUrl })).headers.location, renamed, 'the slug follows the displayed title');
    const shown = await page(t.app, renamed);
    assert.match(shown, /<h1>All about snorp<\/h1>/);
    assert.match(shown, /<p>I like snorp a lot<\/p>/);
    assert.match(shown, /<footer class="signature"><p>Signed with snorp<\/p><\/footer>/);
    assert.match(await page(t.app, `/forum/freshness.${forum.id}/`), />All about snorp</);

    await t.services.wordFilters.update(rule.id, { replacement: 'flurp' });
    assert.match(await page(t.app, `/topic/all-about-flurp.${topic.id}/`), /<p>I like flurp a lot<\/p>/);

    await t.services.wordFilters.delete(rule.id);
    assert.match(await page(t.app, topicUrl), /<p>I like blorp a lot<\/p>/);
  });

  if (db.kind === 'postgres') {
    describe('several instances on one PostgreSQL database', () => {
      let second: BuiltApp;
      before(async () => {
        second = await buildApp(t.config, { logger: pino({ level: 'silent' }) });
      });
      after(() => second.app.close());

      it('a second instance renders with a rule changed on the first within a second', async () => {
        const author = await createUser(t, { name: 'Remote Author' });
        const topic = await createTopic(t, author, forum, 'Remote', 'A quibble here');
        const url = `/topic/remote.${topic.id}/`;
        assert.match(await page(second.app, url), /A quibble here/);
        await createRule(t, 'quibble', 'replace', ['posts'], 'remark');
        const deadline = performance.now() + 1000;
        let body = await page(second.app, url);
        while (!body.includes('A remark here') && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          body = await page(second.app, url);
        }
        assert.match(body, /A remark here/);
      });
    });
  }
});
