// User text as HTML: escaped first, then emoji codes become their emoji, links
// become links, and blank lines paragraphs. Replacement rules have already
// been applied to the text (see presenter.ts), so editing a rule changes every page.
import { SPRITE_SHEET_PATH, type EmojiRow } from '../emoji/resource.ts';
import { escapeHtml, html, raw, type SafeHtml } from '../web/html.ts';
import { addressText } from '../web/format.ts';
import { hasBbcode, renderBbcode } from './bbcode/bbcode.ts';
import { MENTION, mentionedName } from './mentions.ts';
import { membersPath } from '../urls/paths.ts';

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

/** The HTML of an emoji code, or undefined for a code the catalog does not know. */
type EmojiCodes = (code: string) => string | undefined;

/**
 * The standard shortcodes no catalog code can hold (an alias takes no `+`,
 * so the Unicode import leaves them out), by the codes that name the same
 * emoji and the emoji itself, for a catalog without either.
 */
const UNSTORABLE: Readonly<Record<string, { alias: string; text: string; title: string }>> = {
  ':+1:': { alias: ':thumbsup:', text: '👍', title: 'thumbs up' },
  ':-1:': { alias: ':thumbsdown:', text: '👎', title: 'thumbs down' },
};

function standardEmoji(code: string, find: EmojiFinder): string | undefined {
  const standard = UNSTORABLE[code];
  if (standard === undefined) return undefined;
  const emoji = find(standard.alias);
  if (emoji !== undefined) return emojiHtml(emoji, code).value;
  return html`<span class="emoji" role="img" aria-label="${standard.title}" title="${code}">${standard.text}</span>`.value;
}

/** Each code's HTML built once per text, however often the text uses it. */
function emojiCodes(find: EmojiFinder): EmojiCodes {
  const built = new Map<string, string | undefined>();
  return (code) => {
    if (built.has(code)) return built.get(code);
    const emoji = find(code);
    const value = emoji === undefined ? standardEmoji(code, find) : emojiHtml(emoji, code).value;
    built.set(code, value);
    return value;
  };
}

function withEmoji(escaped: string, codes: EmojiCodes): string {
  if (!escaped.includes(':')) return escaped;
  let out = '';
  let last = 0;
  CODE.lastIndex = 0;
  for (let match = CODE.exec(escaped); match !== null; match = CODE.exec(escaped)) {
    out += escaped.slice(last, match.index) + (codes(match[0]) ?? match[0]);
    last = CODE.lastIndex;
  }
  return out + escaped.slice(last);
}

/** A title or other one-line text. */
export function renderInline(text: string, find: EmojiFinder): SafeHtml {
  return raw(withEmoji(escapeHtml(text), emojiCodes(find)));
}

/** A post body: paragraphs, line breaks, links and emoji. */
export function renderBody(text: string, find: EmojiFinder): SafeHtml {
  const codes = emojiCodes(find);
  // A body with BBCode is rendered as one block (tags may span blank lines);
  // its plain text gets the same escaping, links and emoji as any other body.
  if (hasBbcode(text)) return raw(`<div class="bb">${renderBbcode(text.replace(/\r\n?/g, '\n').trim(), (part) => richText(part, codes))}</div>`);
  let paragraphs = '';
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const trimmed = paragraph.trim();
    if (trimmed !== '') paragraphs += `<p>${richText(trimmed, codes)}</p>`;
  }
  return raw(paragraphs);
}

// Text as HTML: escaped, line breaks as <br>, links and emoji. Links are
// found in the raw text (so quotes and ampersands around them are seen as
// what they are) and never get emoji inside their address.
function richText(text: string, codes: EmojiCodes): string {
  // BBCode gives one call per piece of text between tags, often a word: most
  // have no link, and matchAll copies its pattern on every call.
  if (!text.includes('://')) return prose(text, codes);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const url = withoutTrailingPunctuation(match[0]);
    out += prose(text.slice(last, match.index), codes);
    out += html`<a href="${url}" rel="nofollow ugc noopener">${addressText(url)}</a>`.value;
    last = match.index + url.length;
  }
  return out + prose(text.slice(last), codes);
}

/**
 * Text without links as HTML, each @mention a link to the member list
 * searched for the name (docs/notifications.md). Line breaks become <br> here, before emoji
 * grow the text: done on the finished HTML, the search for them read every
 * emoji's markup too (a 60,000-character body of `:+1:` is 1 MB of HTML).
 */
function prose(text: string, codes: EmojiCodes): string {
  if (!text.includes('@')) return words(text, codes);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    const name = mentionedName(match);
    // A bare name's trailing full stops end its sentence: they stay text.
    const end = match[1] === undefined ? match.index + 1 + name.length : match.index + match[0].length;
    out += words(text.slice(last, match.index), codes);
    out += html`<a class="mention" href="${membersPath({ search: name })}">${text.slice(match.index, end)}</a>`.value;
    last = end;
  }
  return out + words(text.slice(last), codes);
}

/** Text without links or mentions as HTML: escaped, line breaks and emoji. */
function words(text: string, codes: EmojiCodes): string {
  const escaped = escapeHtml(text);
  return withEmoji(escaped.includes('\n') ? escaped.replace(/\n/g, '<br>') : escaped, codes);
}

const TRAILING_PUNCTUATION = '.,;:!?)';

/**
 * A bare link without the punctuation that ends its sentence. Done by hand: a
 * pattern anchored at the end, `[.,;:!?)]+$`, tries every character of a long
 * run of punctuation inside the link, each to the run's end: quadratic in the run.
 */
function withoutTrailingPunctuation(link: string): string {
  let end = link.length;
  while (end > 0 && TRAILING_PUNCTUATION.includes(link[end - 1]!)) end -= 1;
  return link.slice(0, end);
}
