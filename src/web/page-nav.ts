// Numbered pages of a list: which page a request asks for, and the links
// between pages (first, last, and two either side of the current one).
import { t } from '../i18n/messages.ts';
import { COUNT_RANGE, PAGE_RANGE, integerFromText } from '../http/integers.ts';
import { html, type SafeHtml } from './html.ts';

/**
 * `?page=` as a page number: absent → 1; anything but a canonical integer in
 * the page range (http/integers.ts) → null (the page does not exist). Without
 * `page`, the legacy `?start=<offset>` of phpBB links opens the page holding
 * that offset when the list says how many items a page has.
 */
export function requestedPage(query: URLSearchParams, perPage?: number): number | null {
  const text = query.get('page');
  const start = query.get('start');
  if (text === null && start !== null && perPage !== undefined) {
    const offset = integerFromText(start, COUNT_RANGE);
    return offset === null ? null : Math.floor(offset / perPage) + 1;
  }
  if (text === null || text === '') return 1;
  return integerFromText(text, PAGE_RANGE);
}

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** Nothing when everything fits on one page. `href(1)` should be the bare canonical path. */
export function pageNav(current: number, last: number, href: (page: number) => string, label = t('nav.pages')): SafeHtml {
  if (last <= 1) return html``;
  const shown = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= last));
  const numbers = [...shown].sort((a, b) => a - b);
  const items: SafeHtml[] = [];
  if (current > 1) items.push(html`<li><a href="${href(current - 1)}" rel="prev">${t('nav.previous')}</a></li>`);
  numbers.forEach((n, index) => {
    if (index > 0 && n - numbers[index - 1]! > 1) items.push(html`<li aria-hidden="true">…</li>`);
    items.push(n === current ? html`<li><a href="${href(n)}" aria-current="page">${n}</a></li>` : html`<li><a href="${href(n)}">${n}</a></li>`);
  });
  if (current < last) items.push(html`<li><a href="${href(current + 1)}" rel="next">${t('nav.next')}</a></li>`);
  return html`<nav aria-label="${label}"><ul class="pagination">${items}</ul></nav>`;
}
