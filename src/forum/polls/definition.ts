// What a poll is made of (docs/polls.md), as its author writes it: checked
// once here for the API, the new-topic form and the add-a-poll form alike.
// Field errors are named `poll.<field>` so that a topic's own fields and its
// poll's stay apart in one answer.
import type { PollResults } from '../../db/schema.ts';
import { FieldErrorBag } from '../../http/errors.ts';
import { t } from '../../i18n/messages.ts';
import type { Publishing } from '../publishing.ts';

export const POLL_QUESTION_MAX = 255;
export const POLL_OPTION_MAX = 255;
export const POLL_OPTIONS_MIN = 2;
/** TorrentPier's max_poll_options is 6 by default; phpBB lets admins go to hundreds. Fifty fits any ballot people read. */
export const POLL_OPTIONS_MAX = 50;
/** Longest a poll may run: ten years (an end further off is a mistake, or never: leave it out). */
export const POLL_LONGEST_DAYS = 3653;
const DAY_MS = 86_400_000;
const POLL_LONGEST_MS = POLL_LONGEST_DAYS * DAY_MS;
export const POLL_RESULTS = ['always', 'after_vote', 'after_end'] as const satisfies readonly PollResults[];

/** A poll as its author sends it (the API's body; the forms build the same). */
export interface PollInput {
  question: string;
  options: readonly string[];
  max_choices?: number | undefined;
  results?: PollResults | undefined;
  allow_change?: boolean | undefined;
  /** ISO 8601 UTC; null or absent: open until closed. */
  ends_at?: string | null | undefined;
  /** The pages' way of saying it: this many days from now (ends_at wins when both are given). */
  ends_in_days?: number | undefined;
}

/** A checked poll, ready to be written. */
export interface PollDefinition {
  question: string;
  options: string[];
  maxChoices: number;
  results: PollResults;
  allowChange: boolean;
  endsAt: string | null;
}

/** The poll checked against its rules; each problem a field error under `poll.` (the bag is the caller's, thrown by them). */
export function pollDefinition(input: PollInput, errors: FieldErrorBag, now: Date): PollDefinition {
  const question = input.question.trim();
  if (question === '') errors.add('poll.question', t('poll.error.question'));
  const options = input.options.map((option) => option.trim());
  if (options.some((option) => option === '')) errors.add('poll.options', t('poll.error.empty_option'));
  else if (options.some((option) => [...option].length > POLL_OPTION_MAX)) errors.add('poll.options', t('poll.error.option_long', { max: POLL_OPTION_MAX }));
  else if (options.length < POLL_OPTIONS_MIN || options.length > POLL_OPTIONS_MAX)
    errors.add('poll.options', t('poll.error.option_count', { min: POLL_OPTIONS_MIN, max: POLL_OPTIONS_MAX }));
  else if (new Set(options.map((option) => option.toLocaleLowerCase())).size !== options.length) errors.add('poll.options', t('poll.error.duplicate'));
  const maxChoices = input.max_choices ?? 1;
  if (maxChoices < 1 || maxChoices > Math.max(options.length, 1)) errors.add('poll.max_choices', t('poll.error.max_choices', { count: options.length }));
  let endsAt: string | null = null;
  const ends = input.ends_at ?? (input.ends_in_days === undefined ? null : new Date(now.getTime() + input.ends_in_days * DAY_MS).toISOString());
  if (ends !== null) {
    const end = new Date(ends);
    if (Number.isNaN(end.getTime())) errors.add('poll.ends_at', t('poll.error.ends_at'));
    else if (end.getTime() <= now.getTime() || end.getTime() - now.getTime() > POLL_LONGEST_MS) errors.add('poll.ends_at', t('poll.error.ends_at_range'));
    else endsAt = end.toISOString();
  }
  return { question, options, maxChoices, results: input.results ?? 'after_vote', allowChange: input.allow_change ?? false, endsAt };
}

/**
 * A poll checked for writing: its rules and the word filters (`posts` rules, as the text of a post: a blocked word is
 * a field error; a held one answers `heldBy`, the rule that holds it, for the caller to decide).
 */
export async function checkedPoll(
  input: PollInput,
  errors: FieldErrorBag,
  publishing: Publishing,
  now: Date,
): Promise<{ definition: PollDefinition; heldBy: number | null }> {
  const definition = pollDefinition(input, errors, now);
  const screened = [await publishing.screenField(errors, 'poll.question', definition.question, 'posts')];
  for (const option of definition.options) {
    if (errors.has('poll.options')) break;
    screened.push(await publishing.screenField(errors, 'poll.options', option, 'posts'));
  }
  return { definition, heldBy: screened.find((result) => result.heldBy !== null)?.heldBy ?? null };
}
