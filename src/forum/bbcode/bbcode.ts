// BBCode as TorrentPier users write it: text → tokens → tree (proper nesting,
// unclosed tags auto-closed, stray closers kept as text) → HTML. Every piece of
// user text reaches the output through escapeHtml or an html`` template, so the
// markup is safe by construction: no attribute takes user text except a checked
// URL, an allow-listed colour or size, or escaped names.
//
// Every text stored renders, in time linear in its length: the tree is at most
// MAX_NESTING + 1 deep whatever is written (so the recursive walks below stay
// far from the stack's end), a closer looks through at most MAX_NESTING open
// tags, and no regular expression here or in render.ts backtracks over a run
// of input (each such run is scanned once).
import { escapeHtml, html } from '../../web/html.ts';
import { addressText } from '../../web/format.ts';
import { safeUrl } from '../../http/safe-url.ts';
import { t } from '../../i18n/messages.ts';

/** How plain text between tags becomes HTML (escaping, line breaks, emoji, bare links). */
export type TextRenderer = (text: string) => string;

/** Tags whose content is taken as raw text up to their closer (and `[url]` without an argument). */
const VERBATIM = new Set(['code', 'img', 'email']);
const CLOSER: Readonly<Record<string, RegExp>> = { code: /\[\/code\]/i, img: /\[\/img\]/i, url: /\[\/url\]/i, email: /\[\/email\]/i };
/** Tags that stand alone: no content, no closer, and they open nothing. */
const STANDALONE = new Set(['hr', 'br', 'tab', 'clear']);

/**
 * How many tags may be open at once. An opening tag past it stays text, and so
 * does the closer that pairs with it, as phpBB's renderer (s9e TextFormatter's
 * per-tag nesting limit) and Discourse's (markdown-it's maxNesting: 20 in its
 * CommonMark preset) leave what is nested too deep; `[hr]` and the verbatim
 * tags open nothing and are kept at any depth.
 */
export const MAX_NESTING = 20;
const TAG = /\[(\/?)(b|i|u|s|del|sup|sub|url|img|email|quote|code|pre|spoiler|list|\*|color|size|font|align|box|hr|br|tab|clear)((?:=|\s)[^[\]\n]*)?\]/gi;

type Node = { kind: 'text'; text: string } | Element;
interface Element {
  kind: 'tag';
  name: string;
  arg: string;
  source: string;
  children: Node[];
}

const COLOURS = new Set([
  'black',
  'white',
  'red',
  'green',
  'blue',
  'yellow',
  'orange',
  'purple',
  'pink',
  'brown',
  'gray',
  'grey',
  'silver',
  'gold',
  'navy',
  'teal',
  'olive',
  'maroon',
  'lime',
  'aqua',
  'cyan',
  'magenta',
  'fuchsia',
  'darkred',
  'darkgreen',
  'darkblue',
  'darkorange',
  'indigo',
  'violet',
]);
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const ALIGN = /^(?:left|right|center|justify)$/i;
/** A font family as a CSS name: letters first, then letters, digits, spaces and hyphens (no quote, no `;`). */
const FONT = /^[A-Za-z][A-Za-z0-9 -]{0,39}$/;
/** An address for `[email]`: one `@`, nothing that could leave the attribute or the line. */
const EMAIL = /^[^\s@<>"'`[\]]{1,64}@[A-Za-z0-9][A-Za-z0-9.-]{0,252}$/;
const SIZE = /^[1-2]?[0-9]$/;
const MIN_SIZE = 9;
const MAX_SIZE = 29;

/** True when the text has at least one tag this module knows. */
export function hasBbcode(text: string): boolean {
  TAG.lastIndex = 0;
  return TAG.test(text);
}

export function parse(text: string): Node[] {
  const root: Element = { kind: 'tag', name: '', arg: '', source: '', children: [] };
  const stack: Element[] = [root];
  // Openers left as text at the nesting limit, by name. They are inside the
  // innermost open tag (nothing opens while the limit holds), so a closer
  // pairs with one of them first, and they end when that tag ends.
  const literal = new Map<string, number>();
  const top = (): Element => stack[stack.length - 1]!;
  const closeTo = (depth: number): void => {
    stack.length = depth;
    if (literal.size > 0) literal.clear();
  };
  const pushText = (value: string): void => {
    if (value === '') return;
    const last = top().children.at(-1);
    if (last?.kind === 'text') last.text += value;
    else top().children.push({ kind: 'text', text: value });
  };
  let at = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(text); match !== null; match = TAG.exec(text)) {
    pushText(text.slice(at, match.index));
    at = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2]!.toLowerCase();
    if (closing) {
      const unpaired = literal.get(name) ?? 0;
      if (unpaired > 0) {
        literal.set(name, unpaired - 1);
        pushText(match[0]);
        continue;
      }
      let depth = stack.length - 1;
      while (depth > 0 && stack[depth]!.name !== name) depth -= 1;
      if (depth === 0) {
        pushText(match[0]);
        continue;
      }
      closeTo(depth); // closes the tag and every tag opened inside it
      continue;
    }
    if (STANDALONE.has(name)) {
      top().children.push({ kind: 'tag', name, arg: '', source: match[0], children: [] });
      continue;
    }
    if (name === '*') {
      if (top().name === '*') closeTo(stack.length - 1);
      if (top().name !== 'list') {
        pushText(match[0]);
        continue;
      }
    }
    const arg = match[3] === undefined ? '' : match[3].replace(/^=/, '').trim();
    const verbatim = VERBATIM.has(name) || (name === 'url' && arg === '');
    if (!verbatim && stack.length > MAX_NESTING) {
      literal.set(name, (literal.get(name) ?? 0) + 1);
      pushText(match[0]);
      continue;
    }
    const element: Element = { kind: 'tag', name, arg, source: match[0], children: [] };
    top().children.push(element);
    if (verbatim) {
      const rest = text.slice(at);
      const end = rest.search(CLOSER[name]!);
      const body = end < 0 ? rest : rest.slice(0, end);
      if (body !== '') element.children.push({ kind: 'text', text: body });
      at += end < 0 ? rest.length : end + `[/${name}]`.length;
      TAG.lastIndex = at;
      continue;
    }
    stack.push(element);
  }
  pushText(text.slice(at));
  return root.children;
}

function colour(value: string): string | undefined {
  const v = value
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  return COLOURS.has(v) || HEX.test(v) ? v : undefined;
}

function size(value: string): number | undefined {
  const v = value.trim().replace(/^"(.*)"$/, '$1');
  if (!SIZE.test(v)) return undefined;
  return Math.min(MAX_SIZE, Math.max(MIN_SIZE, Number(v)));
}

/** `[quote=name]`, `[quote="name"]`, `[quote="name" post=N]`, `[quote=name;p=N]`. */
export function quoteAttributes(arg: string): { name: string; post: number | undefined } {
  let rest = arg;
  let post: number | undefined;
  // The post number is read first and its separator (white space, or `;` before
  // `p`) checked by hand: a pattern starting with `\s+` would try every position
  // of a long run of spaces in the argument, each to the run's end.
  const postMatch = /(post|p)\s*=\s*"?(\d{1,12})"?\s*$/i.exec(rest);
  if (postMatch !== null) {
    const before = rest.slice(0, postMatch.index);
    const trimmed = before.trimEnd();
    const afterSemicolon = postMatch[1]!.length === 1 && trimmed.endsWith(';');
    if (afterSemicolon || trimmed.length < before.length) {
      post = Number(postMatch[2]);
      rest = afterSemicolon ? trimmed.slice(0, -1) : trimmed;
    }
  }
  const name = rest
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  return { name, post };
}

function plain(nodes: Node[]): string {
  let out = '';
  for (const node of nodes) out += node.kind === 'text' ? node.text : plain(node.children);
  return out;
}

/**
 * The words a reader sees, without markup: what search indexes and quotes in
 * snippets. Image addresses are not words; a list item or rule starts a new line.
 */
export function bbcodeText(text: string): string {
  return hasBbcode(text) ? readable(parse(text)) : text;
}

function readable(nodes: Node[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.name === 'img') out += ' ';
    else if (node.name === 'hr' || node.name === 'br' || node.name === '*') out += `\n${readable(node.children)}`;
    else if (node.name === 'tab') out += ' ';
    else out += readable(node.children);
  }
  return out;
}

/**
 * The text as a plain-text mail shows it (a mass mail): markup gone, a link's
 * address beside its words, an image as its address, a quote's lines marked
 * with `> ` under who wrote it, a list item on its own line with `• `.
 */
export function bbcodeMailText(text: string): string {
  return hasBbcode(text) ? mailText(parse(text)) : text;
}

function mailText(nodes: Node[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      out += node.text;
      continue;
    }
    switch (node.name) {
      case 'url': {
        const words = mailText(node.children);
        const address = node.arg === '' ? undefined : safeUrl(node.arg);
        out += address === undefined || address === words.trim() ? words : `${words} (${address})`;
        break;
      }
      case 'img':
      case 'email':
      case 'code':
        out += plain(node.children);
        break;
      case 'hr':
        out += '\n----\n';
        break;
      case 'br':
        out += '\n';
        break;
      case 'tab':
        out += '    ';
        break;
      case '*':
        out += `\n• ${mailText(node.children).trim()}`;
        break;
      case 'quote': {
        const { name } = quoteAttributes(node.arg);
        const quoted = mailText(node.children).trim();
        const lines = name === '' ? quoted : `${t('bbcode.wrote', { name })}\n${quoted}`;
        out += `\n> ${lines.replace(/\n/g, '\n> ')}\n`;
        break;
      }
      default:
        out += mailText(node.children);
    }
  }
  return out;
}

export function renderBbcode(text: string, renderText: TextRenderer): string {
  return renderNodes(parse(text), renderText);
}

// Pieces are concatenated (here, in plain and in readable), not joined: a join
// copies what it joins, and each level of nesting would copy all it holds again.
function renderNodes(nodes: Node[], renderText: TextRenderer): string {
  let out = '';
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    out += node.kind === 'text' ? renderText(besideBlocks(node.text, nodes[index - 1], nodes[index + 1])) : renderElement(node, renderText);
  }
  return out;
}

/** Tags that render as blocks of their own: the line breaks written around them are not blank lines. */
const BLOCKS = new Set(['quote', 'code', 'pre', 'list', 'spoiler', 'align', 'box', 'hr', 'clear']);

function isBlock(node: Node | undefined): boolean {
  return node !== undefined && node.kind === 'tag' && BLOCKS.has(node.name);
}

/**
 * Text between blocks without the one line break that ends the line a block
 * stands on (as TorrentPier drops the white space around its block tags):
 * `[/quote]⏎text` starts the text right under the quote, not a line lower.
 */
function besideBlocks(text: string, before: Node | undefined, after: Node | undefined): string {
  let start = 0;
  let end = text.length;
  if (isBlock(before)) start = text.startsWith('\r\n') ? 2 : text.startsWith('\n') ? 1 : 0;
  if (isBlock(after) && end > start) end -= text.endsWith('\r\n') && end - 2 >= start ? 2 : text.endsWith('\n') ? 1 : 0;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function renderElement(element: Element, renderText: TextRenderer): string {
  const inner = (): string => renderNodes(element.children, renderText);
  // A tag whose argument is refused shows as written, its content still rendered.
  const asWritten = (): string => escapeHtml(element.source) + inner();
  switch (element.name) {
    case 'b':
      return `<strong>${inner()}</strong>`;
    case 'i':
      return `<em>${inner()}</em>`;
    case 'u':
      return `<u>${inner()}</u>`;
    case 's':
    case 'del':
      return `<s>${inner()}</s>`;
    case 'sup':
      return `<sup>${inner()}</sup>`;
    case 'sub':
      return `<sub>${inner()}</sub>`;
    case 'hr':
      return '<hr>';
    case 'br':
      return '<br>';
    case 'tab':
      return '&nbsp;&nbsp;&nbsp;&nbsp;';
    case 'clear':
      return '<div class="bb-clear"></div>';
    case 'pre':
      return `<pre class="bb-pre">${withoutLeadingBreak(inner())}</pre>`;
    case 'align':
      return ALIGN.test(element.arg) ? `<div class="bb-align" style="text-align:${element.arg.toLowerCase()}">${inner()}</div>` : asWritten();
    case 'font': {
      const family = element.arg.replace(/^"(.*)"$/, '$1').trim();
      return FONT.test(family) ? `${html`<span style="font-family:${family}">`.value}${inner()}</span>` : asWritten();
    }
    case 'box': {
      const style = boxStyle(element.arg);
      return style === undefined ? asWritten() : `<div class="bb-box"${style}>${inner()}</div>`;
    }
    case 'email': {
      const address = plain(element.children).trim();
      return EMAIL.test(address) ? html`<a href="mailto:${address}">${address}</a>`.value : escapeHtml(element.source + plain(element.children));
    }
    case 'code':
      return html`<pre class="bb-code"><code>${plain(element.children).replace(/^\n/, '')}</code></pre>`.value;
    case 'img': {
      // `[img=left]`, `[img=right]`, `[img=center]`: TorrentPier's placed pictures.
      const place = /^(?:left|right|center)$/i.test(element.arg) ? ` bb-img-${element.arg.toLowerCase()}` : '';
      const src = safeUrl(plain(element.children));
      return src === undefined
        ? escapeHtml(element.source + plain(element.children))
        : html`<img class="bb-img${place}" src="${src}" alt="" loading="lazy" referrerpolicy="no-referrer">`.value;
    }
    case 'url': {
      const target = element.arg === '' ? plain(element.children) : element.arg;
      const href = safeUrl(target);
      if (href === undefined) return element.arg === '' ? escapeHtml(element.source + target) : asWritten();
      const label = element.arg === '' ? addressText(target).value : inner();
      return `${html`<a href="${href}" rel="nofollow ugc noopener">`.value}${label}</a>`;
    }
    case 'quote': {
      const { name, post } = quoteAttributes(element.arg);
      const wrote = t('bbcode.wrote', { name });
      const cite = name === '' ? '' : post === undefined ? html`<cite>${wrote}</cite>`.value : html`<cite><a href="#post-${post}">${wrote}</a></cite>`.value;
      return `<blockquote class="bb-quote">${cite}${inner()}</blockquote>`;
    }
    case 'spoiler': {
      const title = element.arg.replace(/^"(.*)"$/, '$1').trim() || t('bbcode.spoiler');
      return `${html`<details class="bb-spoiler"><summary>${title}</summary>`.value}<div>${inner()}</div></details>`;
    }
    case 'list': {
      const items = element.children.filter((child): child is Element => child.kind === 'tag' && child.name === '*');
      const ordered = /^[1aAiI]$/.test(element.arg);
      const type = ordered ? html` type="${element.arg}"`.value : '';
      const lead = element.children.filter((child) => !(child.kind === 'tag' && child.name === '*') && !(child.kind === 'text' && child.text.trim() === ''));
      let listed = '';
      for (const item of items) listed += `<li>${withoutOuterBreaks(renderNodes(item.children, renderText))}</li>`;
      return `${renderNodes(lead, renderText)}<${ordered ? 'ol' : 'ul'}${type}>${listed}</${ordered ? 'ol' : 'ul'}>`;
    }
    case 'color': {
      const value = colour(element.arg);
      return value === undefined ? asWritten() : `${html`<span style="color:${value}">`.value}${inner()}</span>`;
    }
    case 'size': {
      const value = size(element.arg);
      return value === undefined ? asWritten() : `<span style="font-size:${value}px">${inner()}</span>`;
    }
    default:
      return asWritten();
  }
}

/** `[box]`, `[box=border]`, `[box=background,border]` (colours as `[color]` takes them); undefined for anything else. */
function boxStyle(arg: string): string | undefined {
  if (arg === '') return '';
  const parts = arg.replace(/^"(.*)"$/, '$1').split(',');
  if (parts.length > 2) return undefined;
  const colours = parts.map(colour);
  if (colours.some((value) => value === undefined)) return undefined;
  const [first, second] = colours;
  return second === undefined ? ` style="border-color:${first}"` : ` style="background-color:${first};border-color:${second}"`;
}

/** Text right after an opening `[pre]` starts on the next line, as in `[code]`. */
function withoutLeadingBreak(rendered: string): string {
  return rendered.startsWith('<br>') ? rendered.slice(4) : rendered;
}

/**
 * A list item without the line breaks it begins and ends with. (A pattern
 * anchored at the end, `(<br>)+$`, tries every `<br>` of a long run of them
 * inside the item, each to the run's end: quadratic in the run.)
 */
function withoutOuterBreaks(item: string): string {
  let start = 0;
  let end = item.length;
  while (item.startsWith('<br>', start)) start += 4;
  while (end - 4 >= start && item.startsWith('<br>', end - 4)) end -= 4;
  return item.slice(start, end);
}
