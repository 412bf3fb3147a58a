// A topic's poll on its first page (docs/polls.md), and the poll's fields on
// the new-topic form and the add-a-poll form: plain forms, no script needed.
// The forms post to the topic's address + `poll/vote/`, `poll/retract/`,
// `poll/close/`, `poll/reopen/`, `poll/delete/` and `poll/add/`; a refusal
// (no right, already voted, ended) shows the page again with why.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import { ApiError, ValidationError, type FieldErrors, type FormRefusal } from '../../http/errors.ts';
import { number, t, tn } from '../../i18n/messages.ts';
import { loginPath, withQuery } from '../../urls/paths.ts';
import { entityForm, type EntityForm, type PageVisit } from '../../urls/semantic-routes.ts';
import { failedNotice, flag, list, NoFields, text } from '../../web/form.ts';
import { checkbox, checkboxGroup, pageFormState, radioGroup, selectField, textArea, textInput, type FormState } from '../../web/form-controls.ts';
import { dateHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import { tLink } from '../../web/translated.ts';
import type { TopicWithAuthor } from '../repository.ts';
import type { ForumService } from '../service.ts';
import { POLL_LONGEST_DAYS, POLL_OPTION_MAX, POLL_OPTIONS_MAX, POLL_QUESTION_MAX, POLL_RESULTS, type PollInput } from '../polls/definition.ts';
import type { PollView } from '../polls/polls.ts';
import type { PollTexts } from '../polls/resource.ts';
import { buttonForm } from './parts.ts';

/** The poll's fields as the forms name them (underscores: a form field name is one word). */
const FIELD_OF: Record<string, string> = {
  'poll.question': 'poll_question',
  'poll.options': 'poll_options',
  'poll.max_choices': 'poll_max_choices',
  'poll.ends_at': 'poll_days',
  'poll.results': 'poll_results',
};
/** The form fields a poll's errors are shown beside. */
export const POLL_FORM_FIELDS = Object.values(FIELD_OF);

/** The poll's fields of a form's body: all optional text (a new topic may have no poll), read by pollFromForm. */
export const PollFormFields = {
  poll_question: Type.Optional(Type.String({ maxLength: POLL_QUESTION_MAX })),
  poll_options: Type.Optional(Type.String({ maxLength: POLL_OPTIONS_MAX * (POLL_OPTION_MAX + 2) })),
  poll_max_choices: Type.Optional(Type.String({ pattern: '^\\s*\\d{0,3}\\s*$' })),
  poll_days: Type.Optional(Type.String({ pattern: '^\\s*\\d{0,5}\\s*$' })),
  poll_results: Type.Optional(Type.Union([...POLL_RESULTS.map((value) => Type.Literal(value)), Type.Literal('')])),
  poll_allow_change: Type.Optional(Type.String({ maxLength: 5 })),
};
const AddPollForm = Type.Object(PollFormFields);

/** The poll a form describes; undefined when it asks for none (no question and no answers). */
export function pollFromForm(values: Record<string, unknown>): PollInput | undefined {
  const field = (name: string): string => (text(values, name) ?? '').trim();
  const question = field('poll_question');
  const options = field('poll_options')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (question === '' && options.length === 0) return undefined;
  const results = field('poll_results');
  const days = field('poll_days');
  return {
    question,
    options,
    max_choices: field('poll_max_choices') === '' ? 1 : Number(field('poll_max_choices')),
    ...(days === '' || Number(days) === 0 ? {} : { ends_in_days: Number(days) }),
    results: POLL_RESULTS.find((value) => value === results) ?? 'after_vote',
    allow_change: flag(values, 'poll_allow_change'),
  };
}

/** A service's `poll.*` field errors under the forms' field names. */
export function pollFormErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [FIELD_OF[field.replace(/\.\d+$/, '')] ?? field, messages]));
}

/** The poll's fields, for a form that may start one (folded away until opened, unless it holds something). */
export function pollFieldset(values: Record<string, unknown> | undefined, errors: FieldErrors | undefined, open: boolean): SafeHtml {
  const form: FormState = pageFormState({ poll_max_choices: '1', poll_results: 'after_vote', ...values }, errors ?? {});
  const filled =
    open ||
    POLL_FORM_FIELDS.some((field) => typeof values?.[field] === 'string' && values[field] !== '' && field !== 'poll_max_choices' && field !== 'poll_results');
  return html`<details class="poll-fields"${filled ? html` open` : ''}><summary>${t('poll.add')}</summary>
${textInput(form, { name: 'poll_question', label: t('poll.question'), maxlength: POLL_QUESTION_MAX })}
${textArea(form, { name: 'poll_options', label: t('poll.options'), hint: t('poll.options_hint', { max: POLL_OPTIONS_MAX }), rows: 5 })}
${textInput(form, { name: 'poll_max_choices', label: t('poll.max_choices'), type: 'number', min: 1, max: POLL_OPTIONS_MAX, inputmode: 'numeric' })}
${textInput(form, { name: 'poll_days', label: t('poll.days'), hint: t('poll.days_hint'), type: 'number', min: 0, max: POLL_LONGEST_DAYS, inputmode: 'numeric' })}
${selectField(form, { name: 'poll_results', label: t('poll.results'), options: POLL_RESULTS.map((value) => ({ value, label: t(`poll.results.${value}`) })) })}
${checkbox(form, { name: 'poll_allow_change', label: t('poll.allow_change') })}
</details>`;
}

/** What the topic page shows again after a poll form failed. */
export interface FailedPollForm {
  errors: FieldErrors;
  refusal?: FormRefusal;
  values: Record<string, unknown>;
}

/**
 * The poll box: the question, the counts where this reader sees them, the vote form where they may vote (or change
 * their vote), and the author's and moderators' buttons. `texts`: the question and answers as displayed.
 */
export function pollBox(
  request: FastifyRequest,
  reply: FastifyReply,
  poll: PollView,
  texts: PollTexts,
  path: string,
  failed: FailedPollForm | undefined,
): SafeHtml {
  const action = (name: string) => `${path}poll/${name}/`;
  const state = poll.open
    ? poll.endsAt === null
      ? ''
      : html` · ${t('poll.ends')} ${dateHtml(poll.endsAt)}`
    : html` · ${poll.closedAt !== null ? t('poll.closed') : html`${t('poll.ended')} ${dateHtml(poll.endsAt!)}`}`;
  const percent = (votes: number) => (poll.voters === 0 ? 0 : Math.round((100 * votes) / poll.voters));
  const chosen = new Set(poll.myChoices ?? []);
  const answer = (index: number): SafeHtml => {
    const option = poll.options[index]!;
    const votes = option.votes;
    return html`<span class="answer">${texts.options[index]}${chosen.has(option.id) ? html` <span class="badge">${t('poll.your_answer')}</span>` : ''}</span>${
      votes === null
        ? ''
        : html`<span class="count">${tn('poll.votes', votes, { count: number(votes) })} · ${percent(votes)}%</span><meter min="0" max="${Math.max(poll.voters, 1)}" value="${votes}">${percent(votes)}%</meter>`
    }`;
  };
  const voting = poll.may.vote || poll.may.change;
  const choices = poll.options.map((option, index) => ({ value: String(option.id), label: answer(index) }));
  const form = pageFormState({ option_ids: failed?.values['option_ids'] ?? (poll.myChoices ?? []).map(String) }, failed?.errors ?? {}, 'poll');
  const legend = poll.maxChoices === 1 ? t('poll.choose_one') : tn('poll.choose_up_to', poll.maxChoices);
  return html`<section class="poll" aria-labelledby="poll-question">
<h2 id="poll-question"><span class="muted">${t('poll.heading')}:</span> ${texts.question}</h2>
<p class="muted">${tn('poll.voters', poll.voters, { count: number(poll.voters) })}${state}</p>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['option_ids'])}
${
  voting
    ? html`<form method="post" action="${action('vote')}" class="stacked">
${csrfInput(request, reply)}
${poll.maxChoices === 1 ? radioGroup(form, { name: 'option_ids', label: legend, options: choices }) : checkboxGroup(form, { name: 'option_ids', label: legend, options: choices })}
<div class="actions"><button type="submit">${poll.may.change ? t('poll.change_vote') : t('poll.vote')}</button></div>
</form>`
    : html`<ul class="poll-results">${poll.options.map((_, index) => html`<li>${answer(index)}</li>`)}</ul>`
}
${poll.resultsShown ? '' : html`<p class="muted">${poll.results === 'after_end' ? t('poll.results_after_end') : t('poll.results_after_vote')}</p>`}
${request.user === null && poll.open ? html`<p>${tLink('poll.login_to_vote', loginPath({ next: path }))}</p>` : ''}
${
  poll.may.change || poll.may.manage
    ? html`<div class="actions">${poll.may.change ? buttonForm(request, reply, action('retract'), t('poll.retract')) : ''}${
        poll.may.manage
          ? html`${poll.closedAt === null ? buttonForm(request, reply, action('close'), t('poll.close')) : buttonForm(request, reply, action('reopen'), t('poll.reopen'))}${buttonForm(request, reply, action('delete'), t('poll.delete'), {}, 'danger')}`
          : ''
      }</div>`
    : ''
}
</section>`;
}

/** The add-a-poll form, for a topic's author or moderator when it has none. */
export function addPollSection(request: FastifyRequest, reply: FastifyReply, path: string, failed: FailedPollForm | undefined): SafeHtml {
  return html`<section class="poll-add">
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, POLL_FORM_FIELDS)}
<form method="post" action="${path}poll/add/" class="stacked">
${csrfInput(request, reply)}
${pollFieldset(failed?.values, failed?.errors, failed !== undefined)}
<div class="actions"><button type="submit" class="secondary">${t('poll.start')}</button></div>
</form>
</section>`;
}

type ShowPoll<T> = (request: FastifyRequest, reply: FastifyReply, topic: T, visit: PageVisit, failed: FailedPollForm) => Promise<FastifyReply>;

/** A service's refusal as the page shows it: field errors, or the reason with its status (403, 409). */
function refusalOf(error: unknown, values: Record<string, unknown>): FailedPollForm {
  if (error instanceof ValidationError) return { errors: pollFormErrors(error.errors), values };
  if (error instanceof ApiError && (error.status === 403 || error.status === 409))
    return { errors: {}, refusal: { status: error.status, message: error.message }, values };
  throw error;
}

/** The poll's forms; each comes back to the topic (to the poll: `#poll-question`). */
export function pollForms<T extends { row: TopicWithAuthor }>(forum: ForumService, showAgain: ShowPoll<T>): Array<EntityForm<T>> {
  const back = (reply: FastifyReply, visit: PageVisit) => reply.redirect(`${withQuery(visit.canonicalPath, {})}#poll-question`, 303);
  const act = (name: string, work: (topicId: number, request: FastifyRequest) => Promise<unknown>) =>
    entityForm<T, typeof NoFields>({
      name: `poll/${name}`,
      body: NoFields,
      async submit(request, reply, topic, visit) {
        try {
          await work(topic.row.id, request);
        } catch (error) {
          return showAgain(request, reply, topic, visit, refusalOf(error, {}));
        }
        return back(reply, visit);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, { errors, values: {} }),
    });
  return [
    entityForm<T, typeof VoteForm>({
      name: 'poll/vote',
      body: VoteForm,
      async submit(request, reply, topic, visit, body) {
        const chosen = list(body, 'option_ids');
        const ids = chosen.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
        try {
          await forum.polls.vote(topic.row.id, assertUser(request), ids.length === chosen.length ? ids : []);
        } catch (error) {
          return showAgain(request, reply, topic, visit, refusalOf(error, { option_ids: chosen }));
        }
        return back(reply, visit);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, { errors, values: {} }),
    }),
    act('retract', (topicId, request) => forum.polls.retract(topicId, assertUser(request))),
    act('close', (topicId, request) => forum.polls.setClosed(topicId, assertUser(request), true)),
    act('reopen', (topicId, request) => forum.polls.setClosed(topicId, assertUser(request), false)),
    act('delete', (topicId, request) => forum.polls.delete(topicId, assertUser(request))),
    entityForm<T, typeof AddPollForm>({
      name: 'poll/add',
      body: AddPollForm,
      async submit(request, reply, topic, visit, body) {
        const values = body as Record<string, unknown>;
        try {
          await forum.polls.add(topic.row.id, assertUser(request), pollFromForm(values) ?? { question: '', options: [] });
        } catch (error) {
          return showAgain(request, reply, topic, visit, refusalOf(error, values));
        }
        return back(reply, visit);
      },
      invalid: (request, reply, topic, visit, errors) => showAgain(request, reply, topic, visit, { errors, values: request.body as Record<string, unknown> }),
    }),
  ];
}

/** A vote's answers: one `option_ids` field (radio buttons) or several (checkboxes), each an answer's id. */
const VoteForm = Type.Object({
  option_ids: Type.Optional(Type.Union([Type.String({ maxLength: 12 }), Type.Array(Type.String({ maxLength: 12 }), { maxItems: POLL_OPTIONS_MAX })])),
});
