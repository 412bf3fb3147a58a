// User text as HTML: escaped first, then emoji codes become their emoji, links
// become links, and blank lines paragraphs. Replacement rules have already
// been applied to the text (see presenter.ts), so editing a rule changes every page.
import { SPRITE_SHEET_PATH, type EmojiRow } from '../emoji/resource.ts';
import { escapeHtml, html, raw, type SafeHtml } from '../web/html.ts';
import { hasBbcode, renderBbcode } from './bbcode/bbcode.ts';

/** The emoji a `:code:` (shortcode or alias) stands for, from the catalog. */
export type EmojiFinder = (code: string) => EmojiRow | undefined;

// Codes are `:name:` with name of A-Z a-z 0-9 _ + - (so `:+1:`); none of those is changed by escaping.
const CODE = /:([A-Za-z0-9_+-]+):/g;
const LINK = /\bhttps?:\/\/[^\s<>"']+/g;

export function emojiHtml(emoji: EmojiRow, code: string): SafeHtml {
  if (emoji.emoji_text !== null) return html`<span class="emoji" role="img" aria-label="${emoji.title}" title="${code}">${emoji.emoji_text}</span>`;
  if (emoji.image_url !== null) return html`<img class="emoji" src="${emoji.image_url}" alt="${code}" title="${emoji.title}" loading="lazy">`;
  if (emoji.sprite_sheet !== null && emoji.sprite_width !== null && emoji.sprite_height !== null) {
    const style = `width:${emoji.sprite_width}px;height:${emoji.sprite_height}px;background-image:url('${SPRITE_SHEET_PATH}${cssUrlSafe(emoji.sprite_sheet)}');background-position:-${emoji.sprite_x ?? 0}px -${emoji.sprite_y ?? 0}px`;
    return html`<span class="sprite" role="img" aria-label="${emoji.title}" title="${code}" style="${style}"></span>`;
  }
  // An emoji of no kind has nothing to show but its code.
  return html`${code}`;
}

/** A file name made safe inside CSS `url('…')`: quotes and parentheses are percent-encoded too. */
function cssUrlSafe(name: string): string {
  return encodeURIComponent(name).replace(/['()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function withEmoji(escaped: string, find: EmojiFinder): string {
  return escaped.replace(CODE, (whole, name: string) => {
    const emoji = find(`:${name}:`);
    return emoji === undefined ? whole : emojiHtml(emoji, whole).value;
  });
}

/** A title or other one-line text. */
export function renderInline(text: string, find: EmojiFinder): SafeHtml {
  return raw(withEmoji(escapeHtml(text), find));
}

/** A post body: paragraphs, line breaks, links and emoji. */
export function renderBody(text: string, find: EmojiFinder): SafeHtml {
  // A body with BBCode is rendered as one block (tags may span blank lines);
  // its plain text gets the same escaping, links and emoji as any other body.
  if (hasBbcode(text)) return raw(`<div class="bb">${renderBbcode(text.replace(/\r\n?/g, '\n').trim(), (part) => richText(part, find))}</div>`);
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
