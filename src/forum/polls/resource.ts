// The JSON shape of a poll (docs/polls.md) and the bodies that make and answer one.
import { Type, type Static } from 'typebox';
import { Nullable, OneOf, VisibleText } from '../../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../../http/timestamps.ts';
import { POLL_OPTION_MAX, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN, POLL_QUESTION_MAX, POLL_RESULTS } from './definition.ts';
import type { ForumPresenter } from '../presenter.ts';
import type { PollView } from './polls.ts';

export const PollResource = Type.Object({
  id: Type.Integer(),
  topic_id: Type.Integer(),
  question: Type.String({ description: 'As displayed (replacement rules applied)' }),
  options: Type.Array(
    Type.Object({
      id: Type.Integer(),
      text: Type.String({ description: 'As displayed (replacement rules applied)' }),
      votes: Nullable(Type.Integer({ description: 'Null while the results are not shown to the caller' })),
    }),
  ),
  max_choices: Type.Integer({ description: '1: one answer; more: up to this many' }),
  results: OneOf(POLL_RESULTS, 'Who sees the counts: everyone, voters (and everyone once it ends), or everyone once it ends'),
  allow_change: Type.Boolean({ description: 'Voters may change or take back their vote while it is open' }),
  ends_at: Nullable(SecondsTimestamp),
  closed_at: Nullable(SecondsTimestamp),
  open: Type.Boolean({ description: 'It takes votes now' }),
  voters: Type.Integer({ description: 'Members who voted' }),
  results_shown: Type.Boolean({ description: 'The caller sees the counts (moderators always do)' }),
  my_vote: Nullable(
    Type.Array(Type.Integer(), { description: "The caller's answers; null when they have not voted; [] for a vote imported without its answers" }),
  ),
  permissions: Type.Object({
    vote: Type.Boolean({ description: 'The caller may vote now' }),
    change: Type.Boolean({ description: 'The caller may change or take back their vote now' }),
    manage: Type.Boolean({ description: "The caller may close, reopen or delete it (the topic's author, the forum's moderators)" }),
  }),
  created_at: SecondsTimestamp,
});

export const PollBody = Type.Object({
  question: VisibleText(POLL_QUESTION_MAX, 'The question'),
  options: Type.Array(VisibleText(POLL_OPTION_MAX, 'An answer'), {
    minItems: POLL_OPTIONS_MIN,
    maxItems: POLL_OPTIONS_MAX,
    description: `The answers, in the order shown (${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX}, each different)`,
  }),
  max_choices: Type.Optional(
    Type.Integer({ minimum: 1, maximum: POLL_OPTIONS_MAX, description: 'Up to how many answers a voter picks (default 1, at most the number of answers)' }),
  ),
  results: Type.Optional(OneOf(POLL_RESULTS, 'Who sees the counts (default after_vote)')),
  allow_change: Type.Optional(Type.Boolean({ description: 'Voters may change or take back their vote (default false)' })),
  ends_at: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?Z$',
        description: 'When voting ends, UTC (YYYY-MM-DDTHH:MM:SSZ), in the future and at most ten years away; absent or null: when closed',
      }),
    ),
  ),
});

export const VoteBody = Type.Object({
  option_ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
    minItems: 1,
    maxItems: POLL_OPTIONS_MAX,
    description: "The answers chosen (their ids): one, or up to the poll's max_choices",
  }),
});

export const PollStateBody = Type.Object({ closed: Type.Boolean({ description: 'true: voting ends now; false: it goes on (until ends_at, if any)' }) });

/** A poll's question and answers as displayed: the replacement rules of posts applied. */
export interface PollTexts {
  question: string;
  options: string[];
}

export async function pollTexts(view: PollView, presenter: Pick<ForumPresenter, 'displayLines'>): Promise<PollTexts> {
  const [question, ...options] = await presenter.displayLines([view.question, ...view.options.map((option) => option.text)]);
  return { question: question!, options };
}

/** The resource, with the texts as displayed (pollTexts). */
export function pollResource(view: PollView, texts: PollTexts): Static<typeof PollResource> {
  return {
    id: view.id,
    topic_id: view.topicId,
    question: texts.question,
    options: view.options.map((option, index) => ({ id: option.id, text: texts.options[index]!, votes: option.votes })),
    max_choices: view.maxChoices,
    results: view.results,
    allow_change: view.allowChange,
    ends_at: view.endsAt === null ? null : isoSeconds(view.endsAt),
    closed_at: view.closedAt === null ? null : isoSeconds(view.closedAt),
    open: view.open,
    voters: view.voters,
    results_shown: view.resultsShown,
    my_vote: view.myChoices,
    permissions: view.may,
    created_at: isoSeconds(view.createdAt),
  };
}
