// How dates and counts read on pages.
import { html, type SafeHtml } from './html.ts';

/** `<time datetime="2026-01-02T03:04:05.000Z">2 Jan 2026, 03:04 UTC</time>` */
export function timeHtml(stored: string): SafeHtml {
  const at = new Date(stored);
  return html`<time datetime="${at.toISOString()}">${DATE_TIME.format(at)} UTC</time>`;
}

/** `<time datetime="…">2 Jan 2026</time>` */
export function dateHtml(stored: string): SafeHtml {
  const at = new Date(stored);
  return html`<time datetime="${at.toISOString()}">${DATE.format(at)}</time>`;
}

/** `1 post`, `3 posts` */
export function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
