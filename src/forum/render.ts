// User text as HTML: escaped first, then emoji codes become their emoji, links
// become links, and blank lines paragraphs. Replacement rules have already
// been applied to the text (see presenter.ts), so editing a rule changes every page.
import { escapeHtml, html, raw, type SafeHtml } from '../web/html.ts';

export interface EmojiLook {
  title: string;
  emoji_text: string | null;
  image_url: string | null;
  sprite: { sheet: string; x: number; y: number; width: number; height: number } | null;
}

export type EmojiFinder = (code: string) => EmojiLook | undefined;

/** Where sprite sheets named in `sprite_params.sheet` are served. */
export const SPRITE_SHEET_PATH = '/emojis/sprites/';

// Codes are `:name:` with name of A-Z a-z 0-9 _ -; none of those is changed by escaping.
const CODE = /:([A-Za-z0-9_-]+):/g;
const LINK = /\bhttps?:\/\/[^\s<>"']+/g;

export function emojiHtml(look: EmojiLook, code: string): SafeHtml {
  if (look.emoji_text !== null) return html`<span class="emoji" role="img" aria-label="${look.title}" title="${code}">${look.emoji_text}</span>`;
  if (look.image_url !== null) return html`<img class="emoji" src="${look.image_url}" alt="${code}" title="${look.title}" loading="lazy">`;
  if (look.sprite !== null) {
    const s = look.sprite;
    const style = `width:${s.width}px;height:${s.height}px;background-image:url('${SPRITE_SHEET_PATH}${encodeURIComponent(s.sheet)}');background-position:-${s.x}px -${s.y}px`;
    return html`<span class="sprite" role="img" aria-label="${look.title}" title="${code}" style="${style}"></span>`;
  }
  return html`${code}`;
}

function withEmoji(escaped: string, find: EmojiFinder): string {
  return escaped.replace(CODE, (whole, name: string) => {
    const look = find(`:${name}:`);
    return look === undefined ? whole : emojiHtml(look, whole).value;
  });
}

/** A title or other one-line text. */
export function renderInline(text: string, find: EmojiFinder): SafeHtml {
  return raw(withEmoji(escapeHtml(text), find));
}

/** A post body: paragraphs, line breaks, links and emoji. */
export function renderBody(text: string, find: EmojiFinder): SafeHtml {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return raw(paragraphs.map((paragraph) => `<p>${richText(paragraph, find).replace(/\n/g, '<br>')}</p>`).join(''));
}

// Links are found in the raw text (so quotes and ampersands around them are
// seen as what they are) and never get emoji inside their address.
function richText(text: string, find: EmojiFinder): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const url = match[0].replace(/[.,;:!?)]+$/, '');
    out += withEmoji(escapeHtml(text.slice(last, match.index)), find);
    out += html`<a href="${url}" rel="nofollow ugc noopener">${url}</a>`.value;
    last = match.index + url.length;
  }
  return out + withEmoji(escapeHtml(text.slice(last)), find);
}
