// Deep nesting and the long runs of issue 27: past MAX_NESTING open tags an
// opener stays text (and so does the closer paired with it), the HTML is
// always well formed and shallow, and the inputs that once made a pattern
// backtrack render as they should.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bbcodeText, MAX_NESTING } from '../../../src/forum/bbcode/bbcode.ts';
import { renderBody, type EmojiFinder } from '../../../src/forum/render.ts';
import { escapeHtml } from '../../../src/web/html.ts';
import { CLOSERS, OPENERS } from './costly-bodies.ts';

const find: EmojiFinder = () => undefined;
const render = (text: string): string => renderBody(text, find).value;

const VOID = new Set(['br', 'hr', 'img']);
/** Every element the renderer makes: spoilers and code blocks are two deep, and the body's own `<div>` one more. */
const DEEPEST_HTML = 2 * MAX_NESTING + 3;

/** How deep the elements of `html` nest; fails unless every element is closed in order. */
function htmlDepth(html: string): number {
  const open: string[] = [];
  let deepest = 0;
  for (const [, closing, name] of html.matchAll(/<(\/?)([a-z]+)\b[^>]*>/g)) {
    if (VOID.has(name!)) continue;
    if (closing === '/') assert.equal(open.pop(), name, `</${name}> closes what was opened last`);
    else deepest = Math.max(deepest, open.push(name!));
  }
  assert.deepEqual(open, [], 'every element is closed');
  return deepest;
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('BBCode nesting limit', () => {
  it(`keeps ${MAX_NESTING} tags open and shows the openers past them, and their closers, as text`, () => {
    const deep = MAX_NESTING + 2;
    assert.equal(
      render(`${'[b]'.repeat(deep)}x${'[/b]'.repeat(deep)}y`),
      `<div class="bb">${'<strong>'.repeat(MAX_NESTING)}[b][b]x[/b][/b]${'</strong>'.repeat(MAX_NESTING)}y</div>`,
    );
  });

  it('ends the openers left as text with the tag that holds them', () => {
    const inner = `${'[i]'.repeat(MAX_NESTING - 1)}[b][b]x`;
    // The first [/i] closes the [b] opened inside it and the [b] written inside that as text: the last [/b] has nothing to pair with.
    assert.equal(
      render(`${inner}${'[/i]'.repeat(MAX_NESTING - 1)}[/b]`),
      `<div class="bb">${'<em>'.repeat(MAX_NESTING - 1)}<strong>[b]x</strong>${'</em>'.repeat(MAX_NESTING - 1)}[/b]</div>`,
    );
  });

  for (const opener of OPENERS) {
    it(`leaves ${opener} past the limit as text`, () => {
      const html = render(`${opener.repeat(MAX_NESTING + 5)}x`);
      assert.equal(count(html, escapeHtml(opener)), 5, html.slice(0, 500));
      assert.ok(htmlDepth(html) <= DEEPEST_HTML);
    });
  }

  it('keeps [hr] and the verbatim tags at the limit: they open nothing', () => {
    const html = render(`${'[b]'.repeat(MAX_NESTING)}[code]c[/code][hr][img]https://a.example/c.png[/img][url]https://a.example/[/url][quote]`);
    assert.equal(
      html,
      `<div class="bb">${'<strong>'.repeat(MAX_NESTING)}<pre class="bb-code"><code>c</code></pre><hr>` +
        '<img class="bb-img" src="https://a.example/c.png" alt="" loading="lazy" referrerpolicy="no-referrer">' +
        `<a href="https://a.example/" rel="nofollow ugc noopener">https://a.example/</a>[quote]${'</strong>'.repeat(MAX_NESTING)}</div>`,
    );
  });

  it('shows list items past the limit as text', () => {
    const html = render(`${'[b]'.repeat(MAX_NESTING - 1)}[list][*]a[*]b[/list]`);
    assert.match(html, /\[\*\]a\[\*\]b/);
    assert.ok(htmlDepth(html) <= DEEPEST_HTML);
  });

  it('reduces a deep text to its words for search', () => {
    assert.equal(bbcodeText(`${'[quote]'.repeat(2000)}word`), `${'[quote]'.repeat(2000 - MAX_NESTING)}word`);
    assert.equal(
      bbcodeText(`${'[list][*]'.repeat(3000)}word`)
        .trim()
        .endsWith('word'),
      true,
    );
  });

  it('renders any mix of tags, stray closers and unclosed openers as well-formed, shallow HTML', () => {
    const token = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...OPENERS, '[*]', '[hr]', '[code]', '[img]', '[url]', '[B]', '[QUOTE=x]') },
      { weight: 3, arbitrary: fc.constantFrom(...CLOSERS) },
      {
        weight: 2,
        arbitrary: fc.constantFrom('x', ' ', '\n', '\n\n', 'https://a.example/).', ':+1:', '[', ']', '<b>', '[url=javascript:x]', '[quote="a" p=1]'),
      },
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 3000 }), (tokens) => {
        const html = render(tokens.join(''));
        assert.ok(htmlDepth(html) <= DEEPEST_HTML, html.slice(0, 300));
      }),
      { numRuns: 300, seed: 27 },
    );
  });
});

describe('BBCode inputs that once backtracked', () => {
  it('trims the line breaks around a list item, however many', () => {
    assert.equal(
      render(`[list][*]${'\n'.repeat(5000)}a${'\n'.repeat(5000)}b${'\n'.repeat(5000)}[*]c[/list]`),
      `<div class="bb"><ul><li>a${'<br>'.repeat(5000)}b</li><li>c</li></ul></div>`,
    );
  });

  it('ends a bare link before the punctuation that follows it, however much', () => {
    assert.equal(
      render(`see https://a.example/x${'.'.repeat(5000)}`),
      `<p>see <a href="https://a.example/x" rel="nofollow ugc noopener">https://a.example/x</a>${'.'.repeat(5000)}</p>`,
    );
    assert.equal(
      render(`(https://a.example/x${'.'.repeat(5000)}y)`),
      // A long address may wrap after its punctuation: once after a run of it.
      `<p>(<a href="https://a.example/x${'.'.repeat(5000)}y" rel="nofollow ugc noopener">https://<wbr>a.<wbr>example/<wbr>x${'.'.repeat(5000)}<wbr>y</a>)</p>`,
    );
  });

  it('reads the quoted name and post whatever the spaces in the argument', () => {
    const spaces = ' '.repeat(5000);
    assert.equal(render(`[quote=a${spaces}b]q[/quote]`), `<div class="bb"><blockquote class="bb-quote"><cite>a${spaces}b wrote:</cite>q</blockquote></div>`);
    assert.equal(
      render(`[quote=ann${spaces}post=5]q[/quote]`),
      '<div class="bb"><blockquote class="bb-quote"><cite><a href="#post-5">ann wrote:</a></cite>q</blockquote></div>',
    );
    assert.equal(
      render('[quote="ann" ; p=6]q[/quote]'),
      '<div class="bb"><blockquote class="bb-quote"><cite><a href="#post-6">ann wrote:</a></cite>q</blockquote></div>',
    );
    // Only white space, or `;` before `p`, separates the post from the name.
    assert.equal(render('[quote=ann;post=7]q[/quote]'), '<div class="bb"><blockquote class="bb-quote"><cite>ann;post=7 wrote:</cite>q</blockquote></div>');
    assert.equal(render('[quote=annp=8]q[/quote]'), '<div class="bb"><blockquote class="bb-quote"><cite>annp=8 wrote:</cite>q</blockquote></div>');
  });
});
