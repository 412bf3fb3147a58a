// Bodies built to make the BBCode renderer work hardest, each at a given
// length (the body limit, 60,000 characters, unless told): deep nesting of
// every tag it knows, mixed, with stray closers and unclosed openers, and the
// long runs that once made a pattern backtrack. The renderer tests, the
// render bench (bench/render.ts) and the fuzz suite (test/fuzz/nesting.ts)
// all draw from this one list.
import type { EmojiRow } from '../../../src/emoji/resource.ts';
import type { EmojiFinder } from '../../../src/forum/render.ts';
import { POST_BODY_MAX } from '../../../src/forum/routes.ts';

/** A hostile body: its name for reports, and the text at `length` characters (code points, as the body limit counts). */
export interface CostlyBody {
  name: string;
  build(length: number): string;
}

/** `head`, then `unit` again and again (the last time cut short), then `tail`: `length` characters. */
function fill(length: number, unit: string, head = '', tail = ''): string {
  const room = Math.max(0, length - head.length - tail.length);
  return head + unit.repeat(Math.ceil(room / unit.length)).slice(0, room) + tail;
}

/** Every tag the renderer knows, as an opener (with an accepted argument where it takes one). */
export const OPENERS = [
  '[b]',
  '[i]',
  '[u]',
  '[s]',
  '[quote]',
  '[quote="ann" post=1]',
  '[spoiler]',
  '[spoiler="t"]',
  '[color=red]',
  '[size=20]',
  '[url=/x]',
  '[list]',
  '[list=1]',
];

/** The same tags' closers, and the leaves and verbatim tags. */
export const CLOSERS = ['[/b]', '[/i]', '[/u]', '[/s]', '[/quote]', '[/spoiler]', '[/color]', '[/size]', '[/url]', '[/list]', '[/*]', '[/code]', '[/img]'];

export const COSTLY_BODIES: readonly CostlyBody[] = [
  // The shapes of the report (issue 27).
  { name: '[quote] × n + x', build: (n) => fill(n, '[quote]', '', 'x') },
  { name: '" [b]" × n', build: (n) => fill(n, ' [b]') },
  { name: '[b] × n + x', build: (n) => fill(n, '[b]', '', 'x') },
  { name: '[b] × 2000 then stray [/u]', build: (n) => fill(n, '[/u]', '[b]'.repeat(2000)) },
  // Deep nesting of every tag, one at a time and mixed.
  ...OPENERS.map((opener) => ({ name: `${opener} × n`, build: (n: number) => fill(n, opener, '', 'x') })),
  { name: 'every tag, nested in turn', build: (n) => fill(n, OPENERS.join('')) },
  { name: 'every tag, nested in turn, MiXeD case', build: (n) => fill(n, OPENERS.join('').toUpperCase()) },
  { name: '[list][*] × n', build: (n) => fill(n, '[list][*]') },
  { name: '[list][*]\\n × n (each item trims its breaks)', build: (n) => fill(n, '[list][*]\n') },
  { name: '[quote][code]x[/code] × n', build: (n) => fill(n, '[quote][code]x[/code]') },
  { name: '[quote][code] × n (unclosed code)', build: (n) => fill(n, '[quote][code]') },
  { name: '[url=http://a.b/] × n', build: (n) => fill(n, '[url=http://a.b/]') },
  { name: '[url] × n (unclosed, verbatim)', build: (n) => fill(n, '[url]') },
  { name: '[url=/x][url]/y[/url] × n', build: (n) => fill(n, '[url=/x][url]/y[/url]') },
  // Closers with no opener, openers with no closer.
  { name: 'every closer, stray, × n', build: (n) => fill(n, CLOSERS.join('')) },
  { name: 'deep [b], then every closer × n', build: (n) => fill(n, CLOSERS.join(''), '[b]'.repeat(100)) },
  { name: 'every tag nested past the limit, then closed', build: (n) => nestedAndClosed(n) },
  // Many small elements side by side.
  { name: '[b]x[/b] × n', build: (n) => fill(n, '[b]x[/b]') },
  { name: '[hr] × n', build: (n) => fill(n, '[hr]') },
  { name: '[list] + [*] × n', build: (n) => fill(n, '[*]', '[list]') },
  { name: '[*] × n outside a list', build: (n) => fill(n, '[*]') },
  { name: '[quote="ann" post=1]x[/quote] × n', build: (n) => fill(n, '[quote="ann" post=1]x[/quote]') },
  { name: '[img]http://a.b/c.png[/img] × n', build: (n) => fill(n, '[img]http://a.b/c.png[/img]') },
  { name: '[url=http://a.b/]x[/url] × n', build: (n) => fill(n, '[url=http://a.b/]x[/url]') },
  { name: '[color=bad]x × n (refused arguments)', build: (n) => fill(n, '[color=bad]x') },
  { name: '[b]:+1: × n (emoji in BBCode)', build: (n) => fill(n, ':+1:', '[b]') },
  { name: '[b]http://a.b × n (links in BBCode)', build: (n) => fill(n, 'http://a.b ', '[b]') },
  { name: '[b]🙂 × n (two UTF-16 units a character)', build: (n) => `[b]${'🙂'.repeat(n - 3)}` },
  // Bodies without BBCode take the paragraph path.
  { name: ':+1: × n, no BBCode', build: (n) => fill(n, ':+1: ') },
  { name: 'http://a.b × n, no BBCode', build: (n) => fill(n, 'http://a.b ') },
  { name: 'x\\n\\n × n (paragraphs), no BBCode', build: (n) => fill(n, 'x\n\n') },
  // Long runs inside one token: each once backtracked quadratically.
  { name: '[list][*] with a run of line breaks', build: (n) => fill(n, '\n', '[list][*]x', 'x[/list]') },
  { name: 'link with a run of punctuation', build: (n) => fill(n, '.', '[b]http://a.b/', 'x') },
  { name: 'plain link with a run of punctuation', build: (n) => fill(n, ')', 'http://a.b/', 'x') },
  { name: '[quote=a   …   b] (a run of spaces in the argument)', build: (n) => fill(n, ' ', '[quote=a', 'b]x') },
  { name: '[quote=a post=1 … (unterminated argument, repeated)', build: (n) => fill(n, '[quote=a post=1 ') },
  { name: '[code] × n (the first takes the rest)', build: (n) => fill(n, '[code]') },
  { name: '[spoiler=" + a long title', build: (n) => fill(n, 'a', '[spoiler="', '"]x') },
];

/** Every opener to twice the nesting limit's depth, then every closer, again and again. */
function nestedAndClosed(length: number): string {
  const opened = Array.from({ length: 40 }, (_, i) => OPENERS[i % OPENERS.length]!);
  const closed = opened.map((opener) => `[/${/^\[(\w+)/.exec(opener)![1]}]`).reverse();
  return fill(length, `${opened.join('')}x${closed.join('')}`);
}

/** The body limit, the length every costly body is measured at. */
export const BODY_LIMIT = POST_BODY_MAX;

const thumbsUp = {
  emoji_text: '👍',
  image_url: null,
  sprite_sheet: null,
  sprite_width: null,
  sprite_height: null,
  sprite_x: null,
  sprite_y: null,
  title: 'thumbs up',
};

/** The catalog the costly bodies are rendered with: it knows `:+1:`, which some of them repeat. */
export const findThumbsUp: EmojiFinder = (code) => (code === ':+1:' ? (thumbsUp as unknown as EmojiRow) : undefined);
