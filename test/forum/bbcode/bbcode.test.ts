import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderBody, type EmojiFinder } from '../../../src/forum/render.ts';
import type { EmojiRow } from '../../../src/emoji/resource.ts';
import { asReader } from '../../../src/i18n/context.ts';

const thumbsUp = {
  emoji_text: '👍',
  image_url: null,
  sprite_sheet: null,
  sprite_width: null,
  sprite_height: null,
  sprite_x: null,
  sprite_y: null,
  title: 'thumbs up',
} as unknown as EmojiRow;
const find: EmojiFinder = (code) => (code === ':+1:' || code === ':thumbsup:' ? thumbsUp : undefined);
const render = (text: string): string => renderBody(text, find).value;

describe('BBCode rendering', () => {
  it('renders the simple tags, nested and closed in order', () => {
    assert.equal(render('[b]bold [i]both[/i][/b] [u]u[/u] [s]s[/s]'), '<div class="bb"><strong>bold <em>both</em></strong> <u>u</u> <s>s</s></div>');
  });
  it('auto-closes tags left open and closes inner tags with their parent', () => {
    assert.equal(render('[b]a [i]b[/b] c'), '<div class="bb"><strong>a <em>b</em></strong> c</div>');
    assert.equal(render('[b]open'), '<div class="bb"><strong>open</strong></div>');
  });
  it('keeps a stray closing tag as text', () => {
    assert.equal(render('x [/b] [b]y[/b]'), '<div class="bb">x [/b] <strong>y</strong></div>');
  });
  it('does not parse inside [code]', () => {
    assert.equal(render('[code][b]<x>[/b][/code]'), '<div class="bb"><pre class="bb-code"><code>[b]&lt;x&gt;[/b]</code></pre></div>');
  });
  it('renders [url] and [url=…] for http(s) and site paths only', () => {
    assert.equal(
      render('[url]https://example.org/a?b=1&c=2[/url]'),
      '<div class="bb"><a href="https://example.org/a?b=1&amp;c=2" rel="nofollow ugc noopener">https://example.org/a?b=1&amp;c=2</a></div>',
    );
    assert.equal(render('[url=/topics/3][b]t[/b][/url]'), '<div class="bb"><a href="/topics/3" rel="nofollow ugc noopener"><strong>t</strong></a></div>');
    assert.equal(render('[url=javascript:alert(1)]x[/url]'), '<div class="bb">[url=javascript:alert(1)]x</div>');
  });
  it('renders [img] for http(s) addresses only', () => {
    assert.equal(
      render('[img]https://example.org/a.png[/img]'),
      '<div class="bb"><img class="bb-img" src="https://example.org/a.png" alt="" loading="lazy" referrerpolicy="no-referrer"></div>',
    );
    assert.equal(render('[img]data:image/png;base64,AAAA[/img]'), '<div class="bb">[img]data:image/png;base64,AAAA</div>');
  });
  it('renders quotes with the author and a link to the quoted post', () => {
    assert.equal(render('[quote]q[/quote]'), '<div class="bb"><blockquote class="bb-quote">q</blockquote></div>');
    assert.equal(render('[quote="Ann & Bob"]q[/quote]'), '<div class="bb"><blockquote class="bb-quote"><cite>Ann &amp; Bob wrote:</cite>q</blockquote></div>');
    assert.equal(
      render('[quote=ann post=42]q[/quote]'),
      '<div class="bb"><blockquote class="bb-quote"><cite><a href="#post-42">ann wrote:</a></cite>q</blockquote></div>',
    );
    assert.equal(
      render('[quote="ann";p="7"]q[/quote]'),
      '<div class="bb"><blockquote class="bb-quote"><cite><a href="#post-7">ann wrote:</a></cite>q</blockquote></div>',
    );
  });
  it('renders spoilers, lists and rules', () => {
    assert.equal(
      render('[spoiler="End"]x[/spoiler][hr]'),
      '<div class="bb"><details class="bb-spoiler"><summary>End</summary><div>x</div></details><hr></div>',
    );
    assert.equal(render('[list][*]one\n[*]two[/list]'), '<div class="bb"><ul><li>one</li><li>two</li></ul></div>');
    assert.equal(render('[list=1][*]a[/list]'), '<div class="bb"><ol type="1"><li>a</li></ol></div>');
  });
  it('takes colours and sizes from the allow-list only', () => {
    assert.equal(
      render('[color=red]r[/color][color=#A0b]h[/color]'),
      '<div class="bb"><span style="color:red">r</span><span style="color:#a0b">h</span></div>',
    );
    assert.equal(render('[color=red;background:url(x)]r[/color]'), '<div class="bb">[color=red;background:url(x)]r</div>');
    assert.equal(
      render('[size=20]s[/size][size=2]t[/size]'),
      '<div class="bb"><span style="font-size:20px">s</span><span style="font-size:9px">t</span></div>',
    );
    assert.equal(render('[size=100]s[/size]'), '<div class="bb">[size=100]s</div>');
  });
  it('renders emoji shortcodes and aliases in BBCode text and in plain bodies', () => {
    assert.equal(render('[b]:+1:[/b]'), '<div class="bb"><strong><span class="emoji" role="img" aria-label="thumbs up" title=":+1:">👍</span></strong></div>');
    assert.equal(render(':thumbsup:'), '<p><span class="emoji" role="img" aria-label="thumbs up" title=":thumbsup:">👍</span></p>');
  });
  it('renders the other tags of TorrentPier posts (imported or written as there)', () => {
    assert.equal(render('x[sup]2[/sup] H[sub]2[/sub]O [del]old[/del]'), '<div class="bb">x<sup>2</sup> H<sub>2</sub>O <s>old</s></div>');
    assert.equal(
      render('[align=center]mid[/align][align=JUSTIFY]j[/align]'),
      '<div class="bb"><div class="bb-align" style="text-align:center">mid</div><div class="bb-align" style="text-align:justify">j</div></div>',
    );
    assert.equal(render('[font="Times New Roman"]serif[/font]'), '<div class="bb"><span style="font-family:Times New Roman">serif</span></div>');
    assert.equal(render('[pre]\n  a  b\n[b]c[/b][/pre]'), '<div class="bb"><pre class="bb-pre">  a  b<br><strong>c</strong></pre></div>');
    assert.equal(render('a[tab]b[br]c[clear]'), '<div class="bb">a&nbsp;&nbsp;&nbsp;&nbsp;b<br>c<div class="bb-clear"></div></div>');
    assert.equal(render('[box]x[/box]'), '<div class="bb"><div class="bb-box">x</div></div>');
    assert.equal(
      render('[box=red]x[/box][box=white,#123]y[/box]'),
      '<div class="bb"><div class="bb-box" style="border-color:red">x</div><div class="bb-box" style="background-color:white;border-color:#123">y</div></div>',
    );
    assert.equal(render('[email]team@example.org[/email]'), '<div class="bb"><a href="mailto:team@example.org">team@example.org</a></div>');
    assert.equal(
      render('[img=right]https://example.org/cover.jpg[/img]'),
      '<div class="bb"><img class="bb-img bb-img-right" src="https://example.org/cover.jpg" alt="" loading="lazy" referrerpolicy="no-referrer"></div>',
    );
  });
  it('drops the line break that ends a block tag’s own line, so blocks leave no blank gap', () => {
    assert.equal(render('before\n[quote]q[/quote]\nafter'), '<div class="bb">before<blockquote class="bb-quote">q</blockquote>after</div>');
    assert.equal(render('[list][*]a[/list]\r\nnext'), '<div class="bb"><ul><li>a</li></ul>next</div>');
    assert.equal(
      render('[code]x[/code]\n\nparagraph'),
      '<div class="bb"><pre class="bb-code"><code>x</code></pre><br>paragraph</div>',
      'a blank line stays one break',
    );
    assert.equal(render('[b]bold[/b]\nline'), '<div class="bb"><strong>bold</strong><br>line</div>', 'inline tags keep their breaks');
  });
  it('names a quote’s author and a spoiler in the reader’s language', () => {
    const russian = asReader({ locale: 'ru', timeZone: 'UTC' }, () => render('[quote="Аня"]q[/quote][spoiler]s[/spoiler]'));
    assert.equal(
      russian,
      '<div class="bb"><blockquote class="bb-quote"><cite>Аня писал(а):</cite>q</blockquote><details class="bb-spoiler"><summary>Спойлер</summary><div>s</div></details></div>',
    );
  });
  it('shows those tags as written when their argument is not allowed', () => {
    assert.equal(render('[align=top]x[/align]'), '<div class="bb">[align=top]x</div>');
    assert.equal(render('[font="x;background:url(y)"]x[/font]'), '<div class="bb">[font=&quot;x;background:url(y)&quot;]x</div>');
    assert.equal(render('[font="a\'b"]x[/font]'), '<div class="bb">[font=&quot;a&#39;b&quot;]x</div>');
    assert.equal(render('[box=red;x]x[/box][box=red,red,red]y[/box]'), '<div class="bb">[box=red;x]x[box=red,red,red]y</div>');
    assert.equal(render('[email]javascript:alert(1)[/email]'), '<div class="bb">[email]javascript:alert(1)</div>');
    assert.equal(render('[email]a@b.c" onmouseover="x[/email]'), '<div class="bb">[email]a@b.c&quot; onmouseover=&quot;x</div>');
  });
  it('renders the standard :+1: and :-1:, which no catalog code can hold, as the emoji they name', () => {
    const none: EmojiFinder = () => undefined;
    assert.equal(
      renderBody(':+1: :-1:', none).value,
      '<p><span class="emoji" role="img" aria-label="thumbs up" title=":+1:">👍</span> <span class="emoji" role="img" aria-label="thumbs down" title=":-1:">👎</span></p>',
    );
    const onlyAlias: EmojiFinder = (code) => (code === ':thumbsup:' ? thumbsUp : undefined);
    assert.equal(
      renderBody(':+1:', onlyAlias).value,
      '<p><span class="emoji" role="img" aria-label="thumbs up" title=":+1:">👍</span></p>',
      'the catalog’s own emoji when it has one',
    );
  });
  it('leaves a body without BBCode as paragraphs', () => {
    assert.equal(render('a\n\nb'), '<p>a</p><p>b</p>');
  });
});

// Known XSS payloads, plain and wrapped in every tag that takes an argument or a URL.
const payloads = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)">',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">',
  '<math><mi xlink:href="javascript:alert(1)">',
  '[url=javascript:alert(1)]x[/url]',
  '[url]javascript:alert(1)[/url]',
  '[url=JaVaScRiPt:alert(1)]x[/url]',
  '[url= javascript:alert(1)]x[/url]',
  '[url=java\tscript:alert(1)]x[/url]',
  '[url=&#106;avascript:alert(1)]x[/url]',
  '[url=data:text/html,<script>alert(1)</script>]x[/url]',
  '[url=vbscript:msgbox(1)]x[/url]',
  '[url=//evil.example/x]x[/url]',
  '[url="onmouseover=alert(1)"]x[/url]',
  '[url=http://a.b/" onmouseover="alert(1)]x[/url]',
  "[url=http://a.b/' onmouseover='alert(1)]x[/url]",
  '[url=http://a.b/<script>]x[/url]',
  '[img]javascript:alert(1)[/img]',
  '[img]x" onerror="alert(1)[/img]',
  '[img]http://a.b/x.png" onerror="alert(1)[/img]',
  "[img]http://a.b/x.png' onerror='alert(1)[/img]",
  '[img]data:image/svg+xml,<svg onload=alert(1)>[/img]',
  '[img] javascript:alert(1)[/img]',
  '[img]//evil.example/x.png[/img]',
  '[color=red" onmouseover="alert(1)]x[/color]',
  '[color=expression(alert(1))]x[/color]',
  '[color=red;background:url(javascript:alert(1))]x[/color]',
  "[color=red' style='x]x[/color]",
  '[size=20" onmouseover="alert(1)]x[/size]',
  '[size=expression(alert(1))]x[/size]',
  '[quote="<script>alert(1)</script>"]x[/quote]',
  '[quote="x" onmouseover="alert(1)"]x[/quote]',
  '[quote=a post=1" onclick="alert(1)]x[/quote]',
  '[spoiler="<img src=x onerror=alert(1)>"]x[/spoiler]',
  '[spoiler="\\" onclick=alert(1)"]x[/spoiler]',
  '[list=1" onclick="alert(1)][*]x[/list]',
  '[list=<script>][*]x[/list]',
  '[code]<script>alert(1)</script>[/code]',
  '[code][/code]<script>alert(1)</script>',
  '[b]<script>alert(1)</script>[/b]',
  '[*]<svg onload=alert(1)>',
  '[url=http://a.b][img]javascript:alert(1)[/img][/url]',
  '[url][img]http://a.b/x.png[/img][/url]',
  'http://a.b/"onmouseover="alert(1)',
  'https://a.b/<script>alert(1)</script>',
  ':+1:<script>alert(1)</script>',
  '[b onclick=alert(1)]x[/b]',
  '[url=http://a.b/?q=<svg/onload=alert(1)>]x[/url]',
  '<scr<script>ipt>alert(1)</script>',
  '[url=https:alert(1)]x[/url]',
  '[url=http:javascript:alert(1)]x[/url]',
];

describe('BBCode rendering of hostile input', () => {
  it(`has at least 50 payloads (${payloads.length})`, () => {
    assert.ok(payloads.length >= 50);
  });
  for (const payload of payloads) {
    it(`leaves nothing executable: ${JSON.stringify(payload)}`, () => {
      for (const text of [payload, `[b]${payload}[/b]`, `[quote=x]${payload}[/quote]`, `[list][*]${payload}[/list]`]) {
        const out = render(text);
        assert.doesNotMatch(out, /<script/i, out);
        assert.doesNotMatch(out, /<(?:iframe|svg|math|body|object|embed)\b/i, out);
        // No event handler attribute in any tag (escaped text outside tags is harmless).
        for (const tag of out.match(/<[^>]*>/g) ?? []) {
          assert.doesNotMatch(tag, /\son[a-z]+\s*=/i, tag);
          assert.doesNotMatch(tag, /(?:href|src)\s*=\s*"(?!https?:\/\/[^/"]|\/(?!\/)|#)/i, tag);
          assert.doesNotMatch(tag, /javascript:|vbscript:|data:|expression\(/i, tag);
        }
      }
    });
  }
});
