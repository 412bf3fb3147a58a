// Pieces of the admin tables: page links and sortable column headers, both
// keeping the list's other query parameters.
import type { FastifyRequest } from 'fastify';
import { t, tn, type CountKey, type TextKey } from '../i18n/messages.ts';
import { timeHtml } from '../web/format.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { lastPage, pageNav } from '../web/page-nav.ts';

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

export function pagination(request: FastifyRequest, info: PageInfo, label: string): SafeHtml {
  return pageNav(info.page, lastPage(info.total, info.perPage), (n) => linkWith(request, { page: n }), label);
}

/** What a list says of its size: when empty, and which of how many rows it shows (a count text: the total picks the form). */
export interface RangeTexts {
  none: TextKey;
  range: CountKey;
}

/** "Showing 51–100 of 230 users." */
export function rangeText(info: PageInfo, shown: number, texts: RangeTexts): string {
  if (info.total === 0 || shown === 0) return t(texts.none);
  const from = (info.page - 1) * info.perPage + 1;
  return tn(texts.range, info.total, { from, to: from + shown - 1 });
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
    active ? html` <span aria-hidden="true">${sort.direction === 'asc' ? '▲' : '▼'}</span>` : ''
  }</a></th>`;
}

/** A stored timestamp as the site prints it (in the reader's language and zone, with the machine-readable instant). */
export function timestamp(iso: string): SafeHtml {
  return timeHtml(iso);
}
