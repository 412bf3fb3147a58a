// Pieces of the admin tables: page links and sortable column headers, both
// keeping the list's other query parameters.
import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../web/html.ts';

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
}

/** The path and query of this request with some parameters changed (null removes one). */
export function linkWith(request: FastifyRequest, changes: Record<string, string | number | null>): string {
  const url = new URL(request.url, 'http://admin.invalid');
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

export function pagination(request: FastifyRequest, info: PageInfo, label = 'Pages'): SafeHtml {
  const last = Math.max(1, Math.ceil(info.total / info.perPage));
  if (last === 1 && info.page === 1) return html``;
  const numbers = pageNumbers(info.page, last);
  return html`<nav class="pagination-nav" aria-label="${label}">
  <ul class="pagination">
    <li>${info.page > 1 ? html`<a href="${linkWith(request, { page: Math.min(info.page - 1, last) })}" rel="prev">Previous</a>` : html`<span class="muted">Previous</span>`}</li>
    ${numbers.map((n) =>
      n === null
        ? html`<li><span class="muted">…</span></li>`
        : html`<li>${n === info.page ? html`<a href="${linkWith(request, { page: n })}" aria-current="page">${n}</a>` : html`<a href="${linkWith(request, { page: n })}">${n}</a>`}</li>`,
    )}
    <li>${info.page < last ? html`<a href="${linkWith(request, { page: info.page + 1 })}" rel="next">Next</a>` : html`<span class="muted">Next</span>`}</li>
  </ul>
</nav>`;
}

/** 1 … 4 5 [6] 7 8 … 20 */
function pageNumbers(current: number, last: number): Array<number | null> {
  const shown = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2].filter((n) => n >= 1 && n <= last));
  const sorted = [...shown].sort((a, b) => a - b);
  const result: Array<number | null> = [];
  for (const n of sorted) {
    const previous = result.at(-1);
    if (typeof previous === 'number' && n - previous > 1) result.push(null);
    result.push(n);
  }
  return result;
}

/** "Showing 51–100 of 230" */
export function rangeText(info: PageInfo, shown: number, noun: string): string {
  if (info.total === 0 || shown === 0) return `No ${noun} found.`;
  const from = (info.page - 1) * info.perPage + 1;
  return `Showing ${from}–${from + shown - 1} of ${info.total} ${noun}.`;
}

export interface SortState {
  field: string;
  direction: 'asc' | 'desc';
}

/**
 * A column header that sorts the table: the link sorts by this column,
 * ascending first, and flips the direction when it is already the sort.
 */
export function sortHeader(request: FastifyRequest, label: string, field: string, sort: SortState, keys = { sort: 'sort', order: 'order' }): SafeHtml {
  const active = sort.field === field;
  const next = active && sort.direction === 'asc' ? 'desc' : 'asc';
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined;
  return html`<th scope="col"${ariaSort === undefined ? '' : html` aria-sort="${ariaSort}"`}><a href="${linkWith(request, { [keys.sort]: field, [keys.order]: next, page: null })}">${label}${
    active ? html` <span aria-hidden="true">${sort.direction === 'asc' ? '▲' : '▼'}</span>` : ''}</a></th>`;
}

/** Local date and time as operators read it, with the exact UTC instant for machines. */
export function timestamp(iso: string): SafeHtml {
  const date = new Date(iso);
  return html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;
}
