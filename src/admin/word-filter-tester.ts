// /admin/word-filters/tester/: paste text, pick where it would be written,
// and see what the active rules do to it — through the same check the API's
// POST /api/word-filters/check and every write of user text use.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ResourceNotFoundError, type FieldErrors } from '../http/errors.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { TextTooLongError, type CheckResult, type FilterMatch } from '../word-filters/engine/apply.ts';
import type { WordFilterRecord } from '../word-filters/repository.ts';
import { CheckBody } from '../word-filters/routes.ts';
import { CONTENT_TYPES } from '../word-filters/rules.ts';
import type { WordFiltersService } from '../word-filters/service.ts';
import { errorSummary, formState, humanize, options, selectField, textArea, type FormState } from '../web/form-controls.ts';
import { submitted, text } from '../web/form.ts';
import { STAFF, requirePage } from '../auth/guard.ts';
import { isHtmx, sendFragment } from './htmx.ts';
import { sendAdminPage } from './layout.ts';

const PATH = '/admin/word-filters/tester/';

export const wordFilterTesterPage: FastifyPluginAsyncTypebox<{ wordFilters: WordFiltersService }> = async (app, { wordFilters }) => {
  const staff = requirePage(STAFF);

  app.get(PATH, { preValidation: staff }, async (request, reply) => testerPage(request, reply, { form: formState('tester', { content_type: 'posts' }) }));

  app.post(PATH, { preValidation: staff }, async (request, reply) => {
    const body = submitted(request.body);
    const values = { text: text(body, 'text') ?? '', content_type: text(body, 'content_type') ?? '' };
    const checked = checkForm(CheckBody, values);
    let state: TesterState;
    if (!checked.ok) {
      state = { form: formState('tester', values, checked.errors), status: 422 };
    } else {
      try {
        const result = await wordFilters.check(checked.value.text, checked.value.content_type);
        state = { form: formState('tester', values), outcome: { text: checked.value.text, result, rules: await rulesOf(wordFilters, result.matches) } };
      } catch (error) {
        if (!(error instanceof TextTooLongError)) throw error;
        const errors: FieldErrors = { text: [error.message] };
        state = { form: formState('tester', values, errors), status: 422 };
      }
    }
    if (isHtmx(request)) return sendFragment(reply, testerPanel(request, reply, state), state.status ?? 200);
    return testerPage(request, reply, state);
  });
};

interface Outcome {
  text: string;
  result: CheckResult;
  rules: Map<number, WordFilterRecord | null>;
}

interface TesterState {
  form: FormState;
  outcome?: Outcome;
  status?: number;
}

/** The rules behind the matches; null for one deleted since the check. */
async function rulesOf(wordFilters: WordFiltersService, matches: readonly FilterMatch[]): Promise<Map<number, WordFilterRecord | null>> {
  const rules = new Map<number, WordFilterRecord | null>();
  for (const id of new Set(matches.map((match) => match.filter_id))) {
    try {
      rules.set(id, await wordFilters.get(id));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundError)) throw error;
      rules.set(id, null);
    }
  }
  return rules;
}

function testerPage(request: FastifyRequest, reply: FastifyReply, state: TesterState): FastifyReply {
  return sendAdminPage(request, reply, {
    title: 'Test text against the word filters',
    section: 'word-filters',
    status: state.status ?? 200,
    body: html`<p><a href="/admin/word-filters/">← Word filters</a></p>
<h1>Test text against the word filters</h1>
<p class="muted">Only active rules apply, exactly as when a user writes this text. Nothing is saved.</p>
${testerPanel(request, reply, state)}`,
  });
}

function testerPanel(request: FastifyRequest, reply: FastifyReply, state: TesterState): SafeHtml {
  const form = state.form;
  return html`<div id="tester">
${errorSummary(form)}
<form method="post" action="${PATH}" class="stacked" hx-post="${PATH}" hx-target="#tester" hx-swap="outerHTML" novalidate>
  ${csrfInput(request, reply)}
  ${textArea(form, { name: 'text', label: 'Text', required: true, rows: 6 })}
  ${selectField(form, { name: 'content_type', label: 'Written as', required: true, options: options(CONTENT_TYPES) })}
  <div><button type="submit">Check</button></div>
</form>
${state.outcome === undefined ? '' : outcomeSection(state.outcome)}
</div>`;
}

const VERDICTS = {
  allow: 'Allowed: the text would be published.',
  moderate: 'Held for moderation: the text would wait in the moderation queue.',
  block: 'Blocked: the text would be refused.',
} as const;

function outcomeSection(outcome: Outcome): SafeHtml {
  const { result } = outcome;
  return html`<section aria-labelledby="tester-result-title" id="tester-result">
  <h2 id="tester-result-title">Result</h2>
  <p class="notice${result.action === 'allow' ? ' ok' : result.action === 'block' ? ' error' : ''}" data-action="${result.action}"><strong>${humanize(result.action)}</strong> — ${VERDICTS[result.action]}</p>
  <h3>Matches in the text</h3>
  ${result.matches.length === 0 ? html`<p>No rule matches this text.</p>` : html`<div class="tested" data-testid="highlighted">${highlightMatches(outcome.text, result.matches)}</div>`}
  <h3>Text after replacements</h3>
  <div class="tested" data-testid="replaced">${result.text}</div>
  ${
    result.matches.length === 0
      ? ''
      : html`<table>
    <caption>Every match</caption>
    <thead><tr><th scope="col">Matched text</th><th scope="col">Rule</th><th scope="col">Action</th><th scope="col">Severity</th><th scope="col">Position</th></tr></thead>
    <tbody>${result.matches.map((match) => matchRow(match, outcome.rules.get(match.filter_id) ?? null))}</tbody>
  </table>`
  }
</section>`;
}

function matchRow(match: FilterMatch, rule: WordFilterRecord | null): SafeHtml {
  return html`<tr>
  <td><mark>${match.match}</mark></td>
  <td>${rule === null ? html`#${match.filter_id} <span class="muted">(rule deleted)</span>` : html`<a href="/admin/word-filters/${rule.id}/">#${rule.id}</a> <code>${rule.pattern}</code> <span class="muted">(${rule.pattern_type})</span>`}</td>
  <td>${humanize(match.filter_type)}</td>
  <td>${humanize(match.severity)}</td>
  <td>${match.start}–${match.end}</td>
</tr>`;
}

/**
 * The text with every match marked. Matches of several rules may overlap;
 * overlapping ones are marked as one stretch, titled with every rule in it.
 */
export function highlightMatches(text: string, matches: readonly FilterMatch[]): SafeHtml {
  const stretches: Array<{ start: number; end: number; rules: Set<string> }> = [];
  for (const match of [...matches].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const label = `rule #${match.filter_id} (${match.filter_type})`;
    const last = stretches.at(-1);
    if (last !== undefined && match.start < last.end) {
      last.end = Math.max(last.end, match.end);
      last.rules.add(label);
    } else {
      stretches.push({ start: match.start, end: match.end, rules: new Set([label]) });
    }
  }
  const parts: SafeHtml[] = [];
  let at = 0;
  for (const stretch of stretches) {
    parts.push(html`${text.slice(at, stretch.start)}<mark title="${[...stretch.rules].join(', ')}">${text.slice(stretch.start, stretch.end)}</mark>`);
    at = stretch.end;
  }
  parts.push(html`${text.slice(at)}`);
  return html`${parts}`;
}
