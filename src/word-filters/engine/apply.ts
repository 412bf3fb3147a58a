// From matches to a verdict: block beats moderate beats replace, and every
// replace rule that matches is applied, longest match first, each to the
// original text (a replacement is never matched again).
import { tn } from '../../i18n/messages.ts';
import type { FilterType, Severity } from '../rules.ts';
import type { Hit, Matcher } from './matcher.ts';
import { codePointLength } from './text.ts';

/** Longest text checked, in characters (code points); longer text is refused, not cut. */
export const MAX_TEXT_LENGTH = 200_000;
/** Matches listed in a result; the action and the text always account for all of them. */
export const MAX_REPORTED_MATCHES = 1000;
/**
 * Time for one check. Exact and wildcard rules always run (a fixed cost
 * per character, whatever the rules); regex rules run until the budget is
 * spent, each step of at most a few milliseconds (matches are placed in
 * its first 22.5 ms, the rest only says which rules match). 30 ms leave
 * room, within the 50 ms that no request may wait on the event loop, for
 * parsing, validating and rendering the same text. A regex rule found to
 * match but not placed in time still decides: a block rule blocks, any
 * other holds the text for moderation; a regex rule not run in time holds
 * the text for moderation (unless something blocks it). Never is text let
 * through unchecked.
 */
export const CHECK_BUDGET_MS = 30;

export type CheckAction = 'allow' | 'moderate' | 'block';

export interface FilterMatch {
  filter_id: number;
  filter_type: FilterType;
  severity: Severity;
  /** UTF-16 offsets into the checked text, end exclusive (String.prototype.slice). */
  start: number;
  end: number;
  match: string;
}

export interface CheckResult {
  action: CheckAction;
  /** The text with every applicable replacement made. */
  text: string;
  matches: FilterMatch[];
}

/** Thrown while a request is being answered: its message is in that request's reader's language. */
export class TextTooLongError extends Error {
  constructor() {
    // The limit as a string: the API's English writes it without separators.
    super(tn('word_filter.text_too_long', MAX_TEXT_LENGTH, { limit: String(MAX_TEXT_LENGTH) }));
    this.name = 'TextTooLongError';
  }
}

export function applyRules(matcher: Matcher, text: string, options: { budgetMs?: number; locateMs?: number } = {}): CheckResult {
  if (text.length > MAX_TEXT_LENGTH && codePointLength(text) > MAX_TEXT_LENGTH) throw new TextTooLongError();
  if (matcher.rules.length === 0 || text === '') return { action: 'allow', text, matches: [] };

  const { hits, unlocated, undecided, wordsComplete } = matcher.scan(text, options.budgetMs ?? CHECK_BUDGET_MS, options.locateMs);
  const rules = matcher.rules;
  let blocked = false;
  let moderated = false;
  for (const hit of hits) {
    const type = rules[hit.rule]!.filter_type;
    if (type === 'block') blocked = true;
    else if (type === 'moderate') moderated = true;
  }
  for (const rule of unlocated) {
    if (rules[rule]!.filter_type === 'block') blocked = true;
    else moderated = true;
  }
  // Rules that may match but could not be run in time: a person decides.
  if (undecided.length > 0 || !wordsComplete) moderated = true;

  const matches = hits
    .sort((a, b) => a.start - b.start || b.end - a.end || rules[a.rule]!.id - rules[b.rule]!.id)
    .slice(0, MAX_REPORTED_MATCHES)
    .map((hit): FilterMatch => {
      const rule = rules[hit.rule]!;
      return {
        filter_id: rule.id,
        filter_type: rule.filter_type,
        severity: rule.severity,
        start: hit.start,
        end: hit.end,
        match: text.slice(hit.start, hit.end),
      };
    });

  return {
    action: blocked ? 'block' : moderated ? 'moderate' : 'allow',
    text: replace(
      text,
      hits.filter((hit) => rules[hit.rule]!.filter_type === 'replace'),
      matcher,
    ),
    matches,
  };
}

function replace(text: string, hits: Hit[], matcher: Matcher): string {
  if (hits.length === 0) return text;
  const rules = matcher.rules;
  const longestFirst = [...hits].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || rules[a.rule]!.id - rules[b.rule]!.id);
  const taken = new Uint8Array(text.length);
  const chosen: Hit[] = [];
  for (const hit of longestFirst) {
    if (taken.subarray(hit.start, hit.end).includes(1)) continue;
    taken.fill(1, hit.start, hit.end);
    chosen.push(hit);
  }
  chosen.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const hit of chosen) {
    out += text.slice(at, hit.start) + (rules[hit.rule]!.replacement ?? '');
    at = hit.end;
  }
  return out + text.slice(at);
}
