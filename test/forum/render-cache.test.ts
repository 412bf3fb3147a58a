import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RenderCache } from '../../src/forum/render-cache.ts';

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
