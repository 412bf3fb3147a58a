// How dates and counts read on pages. Dates are written by hand from the
// ISO string: Intl.DateTimeFormat costs microseconds a call, and a topic page
// prints fifty of them.
import { html, type SafeHtml } from './html.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

interface Parts {
  iso: string;
  date: string;
  time: string;
}

/** Stored timestamps are `YYYY-MM-DDTHH:MM:SS.sssZ` on both databases; anything else goes through Date first. */
function parts(stored: string): Parts {
  const iso = stored.length === 24 && stored[10] === 'T' && stored[23] === 'Z' ? stored : new Date(stored).toISOString();
  const month = MONTHS[Number(iso.slice(5, 7)) - 1];
  return { iso, date: `${Number(iso.slice(8, 10))} ${month} ${iso.slice(0, 4)}`, time: iso.slice(11, 16) };
}

/** `<time datetime="2026-01-02T03:04:05.000Z">2 Jan 2026, 03:04 UTC</time>` */
export function timeHtml(stored: string): SafeHtml {
  const at = parts(stored);
  return html`<time datetime="${at.iso}">${at.date}, ${at.time} UTC</time>`;
}

/** `<time datetime="…">2 Jan 2026</time>` */
export function dateHtml(stored: string): SafeHtml {
  const at = parts(stored);
  return html`<time datetime="${at.iso}">${at.date}</time>`;
}

/** `1 post`, `3 posts`, `12,345 views` */
export function counted(count: number, one: string, many: string): string {
  return `${thousands(count)} ${count === 1 ? one : many}`;
}

/** `12,345`, written by hand for the same reason as the dates. */
export function thousands(count: number): string {
  const digits = String(Math.trunc(Math.abs(count)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${grouped}` : grouped;
}
