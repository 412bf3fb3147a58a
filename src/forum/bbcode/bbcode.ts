// BBCode as TorrentPier users write it: text → tokens → tree (proper nesting,
// unclosed tags auto-closed, stray closers kept as text) → HTML. Every piece of
// user text reaches the output through escapeHtml or an html`` template, so the
// markup is safe by construction: no attribute takes user text except a checked
// URL, an allow-listed colour or size, or escaped names.
import { escapeHtml, html } from '../../web/html.ts';

/** How plain text between tags becomes HTML (escaping, emoji, bare links). */
export type TextRenderer = (text: string) => string;

/** Tags whose content is taken as raw text up to their closer. */
const VERBATIM = new Set(['code', 'img']);
const TAG = /\[(\/?)(b|i|u|s|url|img|quote|code|spoiler|list|\*|color|size|hr)((?:=|\s)[^[\]\n]*)?\]/gi;

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
  const top = (): Element => stack[stack.length - 1]!;
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
    const arg = (match[3] ?? '').replace(/^=/, '').trim();
    if (closing) {
      const depth = stack.findLastIndex((element) => element.name === name);
      if (depth <= 0) {
        pushText(match[0]);
        continue;
      }
      stack.length = depth; // closes the tag and every tag opened inside it
      continue;
    }
    if (name === 'hr') {
      top().children.push({ kind: 'tag', name, arg: '', source: match[0], children: [] });
      continue;
    }
    if (name === '*') {
      if (top().name === '*') stack.pop();
      if (top().name !== 'list') {
        pushText(match[0]);
        continue;
      }
    }
    const element: Element = { kind: 'tag', name, arg, source: match[0], children: [] };
    top().children.push(element);
    if (VERBATIM.has(name) || (name === 'url' && arg === '')) {
      const closer = new RegExp(`\\[/${name === '*' ? '\\*' : name}\\]`, 'i');
      const rest = text.slice(at);
      const end = rest.search(closer);
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

/** A link target users may give: http(s) with a host, or a path on this site. */
export function safeUrl(value: string): string | undefined {
  const url = value.trim().replace(/^"(.*)"$/, '$1');
  if (/^\/(?!\/)[^\s\\]*$/.test(url) || /^#[A-Za-z0-9_-]+$/.test(url)) return url;
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return undefined;
    return parsed.href;
  } catch {
    return undefined;
  }
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
  const postMatch = /(?:\s+post|\s*;\s*p|\s+p)\s*=\s*"?(\d{1,12})"?\s*$/i.exec(rest);
  if (postMatch !== null) {
    post = Number(postMatch[1]);
    rest = rest.slice(0, postMatch.index);
  }
  const name = rest
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  return { name, post };
}

function plain(nodes: Node[]): string {
  return nodes.map((node) => (node.kind === 'text' ? node.text : plain(node.children))).join('');
}

/**
 * The words a reader sees, without markup: what search indexes and quotes in
 * snippets. Image addresses are not words; a list item or rule starts a new line.
 */
export function bbcodeText(text: string): string {
  return hasBbcode(text) ? readable(parse(text)) : text;
}

function readable(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.name === 'img') return ' ';
      if (node.name === 'hr' || node.name === '*') return `\n${readable(node.children)}`;
      return readable(node.children);
    })
    .join('');
}

export function renderBbcode(text: string, renderText: TextRenderer): string {
  return renderNodes(parse(text), renderText);
}

function renderNodes(nodes: Node[], renderText: TextRenderer): string {
  return nodes.map((node) => (node.kind === 'text' ? renderText(node.text).replace(/\n/g, '<br>') : renderElement(node, renderText))).join('');
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
      return `<s>${inner()}</s>`;
    case 'hr':
      return '<hr>';
    case 'code':
      return html`<pre class="bb-code"><code>${plain(element.children).replace(/^\n/, '')}</code></pre>`.value;
    case 'img': {
      const src = safeUrl(plain(element.children));
      return src === undefined
        ? escapeHtml(element.source + plain(element.children))
        : html`<img class="bb-img" src="${src}" alt="" loading="lazy" referrerpolicy="no-referrer">`.value;
    }
    case 'url': {
      const target = element.arg === '' ? plain(element.children) : element.arg;
      const href = safeUrl(target);
      if (href === undefined) return element.arg === '' ? escapeHtml(element.source + target) : asWritten();
      const label = element.arg === '' ? escapeHtml(target) : inner();
      return `${html`<a href="${href}" rel="nofollow ugc noopener">`.value}${label}</a>`;
    }
    case 'quote': {
      const { name, post } = quoteAttributes(element.arg);
      const cite =
        name === '' ? '' : post === undefined ? html`<cite>${name} wrote:</cite>`.value : html`<cite><a href="#post-${post}">${name} wrote:</a></cite>`.value;
      return `<blockquote class="bb-quote">${cite}${inner()}</blockquote>`;
    }
    case 'spoiler': {
      const title = element.arg.replace(/^"(.*)"$/, '$1').trim() || 'Spoiler';
      return `${html`<details class="bb-spoiler"><summary>${title}</summary>`.value}<div>${inner()}</div></details>`;
    }
    case 'list': {
      const items = element.children.filter((child): child is Element => child.kind === 'tag' && child.name === '*');
      const ordered = /^[1aAiI]$/.test(element.arg);
      const type = ordered ? html` type="${element.arg}"`.value : '';
      const lead = element.children.filter((child) => !(child.kind === 'tag' && child.name === '*') && !(child.kind === 'text' && child.text.trim() === ''));
      return `${renderNodes(lead, renderText)}<${ordered ? 'ol' : 'ul'}${type}>${items.map((item) => `<li>${renderNodes(item.children, renderText).replace(/^(<br>)+|(<br>)+$/g, '')}</li>`).join('')}</${ordered ? 'ol' : 'ul'}>`;
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
