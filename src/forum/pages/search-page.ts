// `/search/`: the search form (a GET form: a search is a link one can share
// and bookmark) and a page of results, each the post's topic, where and by
// whom, and a snippet with the matching words marked. The same checks and
// messages as GET /api/search (forum/search/).
import { tHtml } from '../../web/translated.ts';
import { t, tn } from '../../i18n/messages.ts';
import { Type } from 'typebox';
import { ValidationError, type FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { forumPath, withQuery } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { formNotice } from '../../web/form.ts';
import { pageFormState, selectField, textInput, type FormState } from '../../web/form-controls.ts';
import { timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { Listed } from '../access.ts';
import { postPathOn } from '../resource.ts';
import { SEARCH_CANDIDATES } from '../search/repository.ts';
import { SearchQueryFields, searchRequest } from '../search/routes.ts';
import { SEARCH_MAX_LENGTH, type SearchHit } from '../search/service.ts';
import type { ForumPageDeps } from './deps.ts';
import { AuthorLinks } from './parts.ts';

export const SEARCH_PATH = '/search/';
export const SEARCH_RESULTS_PER_PAGE = PER_PAGE_DEFAULT;

const SearchForm = Type.Object(SearchQueryFields);

export function searchPage({ forum, search }: ForumPageDeps): FixedPage {
  return {
    async serve(request, reply, visit) {
      const page = requestedPage(visit.query);
      if (page === null) throw pageNotFound();
      const values = Object.fromEntries([...visit.query].filter(([name, value]) => value !== '' && name !== 'page'));
      const forums = await forum.listForums({ page: 1, perPage: 100, offset: 0 }, request.user);
      const asked = values['search'] !== undefined;

      let errors: FieldErrors | undefined;
      let found: Listed<SearchHit> | undefined;
      if (asked) {
        const checked = checkForm(SearchForm, values);
        if (!checked.ok) errors = checked.errors;
        else {
          try {
            found = await search.find(searchRequest(checked.value), request.user, pageRequest({ page, per_page: SEARCH_RESULTS_PER_PAGE }));
          } catch (error) {
            if (!(error instanceof ValidationError)) throw error;
            errors = error.errors;
          }
        }
      }
      const last = lastPage(found?.total ?? 0, SEARCH_RESULTS_PER_PAGE);
      if (page > last) throw pageNotFound();
      const href = (n: number): string => withQuery(SEARCH_PATH, { ...values, ...(n === 1 ? {} : { page: n }) });
      const form = pageFormState(values, errors ?? {});
      const query = values['search'] ?? '';
      const title = found === undefined ? t('search.title') : page === 1 ? t('search.title_query', { query }) : t('search.title_query_page', { query, page });

      return sendPage(request, reply, {
        title,
        canonical: asked ? href(page) : SEARCH_PATH,
        status: errors === undefined ? 200 : 422,
        // Result pages are endless and change: not for search engines.
        ...(asked ? { head: html`<meta name="robots" content="noindex">` } : {}),
        body: html`<h1>${t('search.title')}</h1>
${errors === undefined ? '' : formNotice(t('search.invalid'), errors, Object.keys(SearchQueryFields))}
${searchForm(form, forums.rows)}
${found === undefined ? '' : results(found, page, last, href)}`,
      });
    },
  };
}

function searchForm(form: FormState, forums: ReadonlyArray<{ id: number; name: string }>): SafeHtml {
  return html`<form method="get" action="${SEARCH_PATH}" class="search-form" role="search" aria-label="${t('search.form')}">
${textInput(form, {
  name: 'search',
  label: t('search.words'),
  type: 'search',
  maxlength: SEARCH_MAX_LENGTH,
  required: true,
  hint: t('search.words_hint'),
})}
<details class="search-options"${hasOptions(form) ? html` open` : ''}><summary>${t('search.more')}</summary>
${selectField(form, {
  name: 'in',
  label: t('search.in'),
  options: [
    { value: 'all', label: t('search.in.all') },
    { value: 'titles', label: t('search.in.titles') },
  ],
})}
${selectField(form, { name: 'forum_id', label: t('search.forum'), blank: t('search.all_forums'), options: forums.map((row) => ({ value: String(row.id), label: row.name })) })}
${textInput(form, { name: 'author', label: t('search.author'), hint: t('search.author_hint'), maxlength: 64 })}
${textInput(form, { name: 'from', label: t('search.from'), hint: 'YYYY-MM-DD', maxlength: 10, inputmode: 'numeric' })}
${textInput(form, { name: 'to', label: t('search.to'), hint: 'YYYY-MM-DD', maxlength: 10, inputmode: 'numeric' })}
${selectField(form, {
  name: 'sort',
  label: t('search.sort'),
  options: [
    { value: 'relevance', label: t('search.sort.relevance') },
    { value: 'date', label: t('search.sort.date') },
  ],
})}
${selectField(form, {
  name: 'order',
  label: t('search.order'),
  options: [
    { value: 'desc', label: t('search.order.desc') },
    { value: 'asc', label: t('search.order.asc') },
  ],
})}
</details>
<div class="actions"><button type="submit">${t('search.submit')}</button></div>
</form>`;
}

function hasOptions(form: FormState): boolean {
  return (
    Object.keys(SearchQueryFields).some((name) => name !== 'search' && form.values[name] !== undefined) ||
    Object.keys(form.errors).some((name) => name !== 'search')
  );
}

function results(found: Listed<SearchHit>, page: number, last: number, href: (n: number) => string): SafeHtml {
  if (found.rows.length === 0) return html`<p>${t('search.nothing')}</p>`;
  const authors = new AuthorLinks();
  const status = found.total >= SEARCH_CANDIDATES ? t('search.capped', { count: SEARCH_CANDIDATES }) : tn('search.found', found.total);
  return html`<p class="muted" role="status">${status}</p>
<ol class="search-results" start="${(page - 1) * SEARCH_RESULTS_PER_PAGE + 1}">
${found.rows.map(
  ({ post, topic, snippet }) => html`<li>
<h2><a href="${postPathOn(topic.path, post.id)}">${topic.html}</a>${post.status === 'pending' ? html` <span class="badge">${t('search.awaiting')}</span>` : ''}</h2>
<p class="meta">${tHtml('search.meta', { forum: html`<a href="${forumPath({ id: post.forum_id, name: post.forum_name })}">${post.forum_name}</a>`, author: authors.link(post.author_id, post.author_name, post.guest_name), time: timeHtml(post.created_at) })}</p>
<p class="snippet">${snippet}</p>
</li>`,
)}
</ol>
${pageNav(page, last, href, t('search.pages'))}`;
}
