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
import { errorSummary, formState, selectField, textArea, type FormState } from '../web/form-controls.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import { valueLabel, valueOptions } from './labels.ts';
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
    title: t('admin.tester.title'),
    section: 'word-filters',
    status: state.status ?? 200,
    body: html`<p><a href="/admin/word-filters/">← ${t('admin.word_filters.title')}</a></p>
<h1>${t('admin.tester.title')}</h1>
<p class="muted">${t('admin.tester.intro')}</p>
${testerPanel(request, reply, state)}`,
  });
}

function testerPanel(request: FastifyRequest, reply: FastifyReply, state: TesterState): SafeHtml {
  const form = state.form;
  return html`<div id="tester">
${errorSummary(form)}
<form method="post" action="${PATH}" class="stacked" hx-post="${PATH}" hx-target="#tester" hx-swap="outerHTML" novalidate>
  ${csrfInput(request, reply)}
  ${textArea(form, { name: 'text', label: t('admin.tester.text'), required: true, rows: 6 })}
  ${selectField(form, { name: 'content_type', label: t('admin.tester.written_as'), required: true, options: valueOptions('admin.content_type', CONTENT_TYPES) })}
  <div><button type="submit">${t('admin.tester.check')}</button></div>
</form>
${state.outcome === undefined ? '' : outcomeSection(state.outcome)}
</div>`;
}

const VERDICTS: Record<CheckResult['action'], TextKey> = {
  allow: 'admin.tester.allowed',
  moderate: 'admin.tester.held',
  block: 'admin.tester.blocked',
};

function outcomeSection(outcome: Outcome): SafeHtml {
  const { result } = outcome;
  return html`<section aria-labelledby="tester-result-title" id="tester-result">
  <h2 id="tester-result-title">${t('admin.tester.result')}</h2>
  <p class="notice${result.action === 'allow' ? ' ok' : result.action === 'block' ? ' error' : ''}" data-action="${result.action}"><strong>${valueLabel('admin.verdict', result.action)}</strong> — ${t(VERDICTS[result.action])}</p>
  <h3>${t('admin.tester.matches')}</h3>
  ${result.matches.length === 0 ? html`<p>${t('admin.tester.no_match')}</p>` : html`<div class="tested" data-testid="highlighted">${highlightMatches(outcome.text, result.matches)}</div>`}
  <h3>${t('admin.tester.replaced')}</h3>
  <div class="tested" data-testid="replaced">${result.text}</div>
  ${
    result.matches.length === 0
      ? ''
      : html`<table>
    <caption>${t('admin.tester.every_match')}</caption>
    <thead><tr><th scope="col">${t('admin.tester.matched')}</th><th scope="col">${t('admin.tester.rule')}</th><th scope="col">${t('admin.rules.action')}</th><th scope="col">${t('admin.rules.severity')}</th><th scope="col">${t('admin.position')}</th></tr></thead>
    <tbody>${result.matches.map((match) => matchRow(match, outcome.rules.get(match.filter_id) ?? null))}</tbody>
  </table>`
  }
</section>`;
}

function matchRow(match: FilterMatch, rule: WordFilterRecord | null): SafeHtml {
  return html`<tr>
  <td><mark>${match.match}</mark></td>
  <td>${rule === null ? html`#${match.filter_id} <span class="muted">${t('admin.tester.rule_deleted')}</span>` : html`<a href="/admin/word-filters/${rule.id}/">#${rule.id}</a> <code>${rule.pattern}</code> <span class="muted">(${valueLabel('admin.pattern_kind', rule.pattern_type)})</span>`}</td>
  <td>${valueLabel('admin.filter_type', match.filter_type)}</td>
  <td>${valueLabel('admin.severity', match.severity)}</td>
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
    const label = t('admin.tester.mark', { id: String(match.filter_id), action: valueLabel('admin.filter_kind', match.filter_type) });
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
