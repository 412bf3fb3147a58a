// Translated texts that carry markup (docs/i18n.md): the catalog's text stays
// plain for the translator (a `<a>…</a>` around the words to link, `{name}`
// where an HTML value goes), and is escaped here piece by piece.
import { t, type TextKey } from '../i18n/messages.ts';
import { html, type SafeHtml } from './html.ts';

/** The text with its `{name}`s replaced by HTML values (a `<time>`, a profile link). */
export function tHtml(key: TextKey, values: Readonly<Record<string, SafeHtml>>): SafeHtml {
  const marked = t(key, Object.fromEntries(Object.keys(values).map((name) => [name, `\u0000${name}\u0000`])));
  const parts = marked.split('\u0000');
  return html`${parts.map((part, index) => (index % 2 === 0 ? part : (values[part] ?? '')))}`;
}

/** The text with the words between `<a>` and `</a>` linked to `href` ("<a>Log in</a> to reply."). */
export function tLink(key: TextKey, href: string): SafeHtml {
  const text = t(key);
  const match = /^(.*)<a>(.*)<\/a>(.*)$/s.exec(text);
  if (match === null) return html`${text}`;
  const [, before = '', linked = '', after = ''] = match;
  return html`${before}<a href="${href}">${linked}</a>${after}`;
}
