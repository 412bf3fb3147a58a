import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ForumPresenter } from '../../src/forum/presenter.ts';
import { RenderCache, ScreenedTextCache } from '../../src/forum/render-cache.ts';
import type { TextScreen } from '../../src/word-filters/text-screen.ts';

describe('RenderCache', () => {
  it('renders a text once and then answers from memory', async () => {
    const cache = new RenderCache();
    let renders = 0;
    const render = async () => `<p>${++renders}</p>`;
    assert.equal(await cache.get('text', render), '<p>1</p>');
    assert.equal(await cache.get('text', render), '<p>1</p>');
    assert.equal(cache.peek('text'), '<p>1</p>');
    assert.equal(renders, 1);
  });

  it('forgets everything on clear(), and does not keep a render that began before it', async () => {
    const cache = new RenderCache();
    await cache.get('a', async () => 'old a');
    let finish!: (value: string) => void;
    const slow = cache.get('b', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish('rendered under the old rules');
    assert.equal(await slow, 'rendered under the old rules');
    assert.equal(cache.peek('a'), undefined);
    assert.equal(cache.peek('b'), undefined);
  });

  it('stays within its character budget, dropping the oldest renderings first', async () => {
    const cache = new RenderCache(100);
    for (const key of ['k1', 'k2', 'k3']) await cache.get(key, async () => 'x'.repeat(38));
    assert.equal(cache.peek('k1'), undefined);
    assert.ok(cache.peek('k2') !== undefined && cache.peek('k3') !== undefined);
  });
});

describe('ScreenedTextCache', () => {
  it('filters a text once per rule set, for each content type apart, and waits for a check already running', async () => {
    const cache = new ScreenedTextCache();
    let checks = 0;
    const screen = async () => {
      checks++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 'filtered';
    };
    const views = await Promise.all([cache.get('posts', 'text', screen), cache.get('posts', 'text', screen)]);
    assert.deepEqual(views, ['filtered', 'filtered']);
    assert.equal(await cache.get('posts', 'text', screen), 'filtered');
    assert.equal(checks, 1);
    await cache.get('signatures', 'text', screen);
    assert.equal(checks, 2);
  });

  it('keeps a text the rules left unchanged without a copy of it, and answers with the text itself', async () => {
    const cache = new ScreenedTextCache({ maxChangedChars: 0 });
    const text = 'x'.repeat(100_000);
    assert.equal(await cache.get('posts', text, async () => text), text);
    assert.equal(await cache.get('posts', text, async () => assert.fail('filtered again')), text);
  });

  it('forgets everything on clear(), and does not keep a result computed before it', async () => {
    const cache = new ScreenedTextCache();
    await cache.get('posts', 'a', async () => 'old a');
    let finish!: (value: string) => void;
    const slow = cache.get('posts', 'b', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish('under the old rules');
    assert.equal(await slow, 'under the old rules');
    assert.equal(cache.size, 0);
    assert.equal(await cache.get('posts', 'b', async () => 'new b'), 'new b');
  });

  it('drops the least recently used text first when full', async () => {
    const cache = new ScreenedTextCache({ maxEntries: 2 });
    await cache.get('posts', 'a', async () => 'A');
    await cache.get('posts', 'b', async () => 'B');
    await cache.get('posts', 'a', async () => assert.fail('a is kept'));
    await cache.get('posts', 'c', async () => 'C');
    assert.equal(cache.size, 2);
    assert.equal(await cache.get('posts', 'a', async () => assert.fail('a was used last')), 'A');
    assert.equal(await cache.get('posts', 'b', async () => 'B again'), 'B again');
  });
});

describe('ForumPresenter', () => {
  const screenCounting = () => {
    const checked: string[] = [];
    const screen: TextScreen = {
      async check(text, contentType) {
        checked.push(`${contentType}:${text.length}`);
        return { action: 'allow', text: text.replaceAll('darn', 'd**n'), matches: [] };
      },
    };
    return { screen, checked };
  };
  const noEmoji = async () => () => undefined;

  it('never filters a post body again on later views, also one too long to keep as HTML', async () => {
    const { screen, checked } = screenCounting();
    const presenter = new ForumPresenter(screen, noEmoji);
    const long = `darn ${'long text '.repeat(6000)}`; // 60,005 characters: over the HTML cache's entry limit
    const short = 'a darn short post';
    for (let view = 0; view < 3; view++) {
      const [longHtml, shortHtml] = await presenter.bodies([{ body: long }, { body: short }]);
      assert.ok(longHtml!.value.startsWith('<p>d**n long text'));
      assert.equal(shortHtml!.value, '<p>a d**n short post</p>');
    }
    assert.deepEqual(checked.sort(), ['posts:17', 'posts:60005']);
    presenter.invalidate();
    await presenter.bodies([{ body: short }]);
    assert.equal(checked.length, 3, 'a rule change filters again');
  });

  it('filters the texts of a page in turns of about 10 ms, letting other work run between them', async () => {
    let between = 0;
    let checksRunning = 0;
    const screen: TextScreen = {
      async check(text) {
        checksRunning++;
        const busyUntil = performance.now() + 5;
        while (performance.now() < busyUntil); // a check is synchronous work
        checksRunning--;
        return { action: 'allow', text, matches: [] };
      },
    };
    const presenter = new ForumPresenter(screen, noEmoji);
    const ticker = setInterval(() => between++, 0);
    await presenter.bodies(Array.from({ length: 10 }, (_, i) => ({ body: `post ${i}` })));
    clearInterval(ticker);
    assert.equal(checksRunning, 0);
    assert.ok(between >= 3, `timers ran ${between} times while ten 5 ms checks ran`);
  });
});
