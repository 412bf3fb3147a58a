// The few lines of a found post shown under its title: cut around the first
// word that matched, every matching word in <mark>, all of it escaped (a long
// address may wrap after its punctuation: web/format.ts wrappableText).
import { escapeHtml } from '../../web/html.ts';
import { wrappableText } from '../../web/format.ts';
import { tokenize, type Token } from './text.ts';

export interface HighlightTerm {
  term: string;
  prefix: boolean;
}

/** About this many characters of text are shown. */
const SNIPPET_LENGTH = 240;
/** How much text comes before the first match. */
const LEAD = 60;

export function snippetHtml(text: string, terms: readonly HighlightTerm[]): string {
  // A word is matched by its stem, a prefix by the word's first letters (as the index matches them: text.ts).
  const matches = (token: Token): boolean => terms.some((wanted) => (wanted.prefix ? token.word.startsWith(wanted.term) : token.term === wanted.term));
  const tokens = tokenize(text);
  const first = tokens.find(matches);
  let start = first === undefined ? 0 : Math.max(0, first.start - LEAD);
  if (start > 0) start = tokens.find((token) => token.start >= start)?.start ?? start; // begin on a word
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) end = tokens.findLast((token) => token.end <= end && token.start > start)?.end ?? end; // end on a word

  let out = start > 0 ? '…' : '';
  let at = start;
  for (const token of tokens) {
    if (token.start < start || token.end > end || !matches(token)) continue;
    out += `${wrappableText(text.slice(at, token.start)).value}<mark>${escapeHtml(text.slice(token.start, token.end))}</mark>`;
    at = token.end;
  }
  out += wrappableText(text.slice(at, end)).value;
  if (end < text.length) out += '…';
  return out.replace(/\s+/g, ' ').trim();
}
