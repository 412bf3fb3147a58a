// Typed HTML templates: every interpolated value is escaped unless it is
// already SafeHtml (the result of another `html` template or of `raw`).
import { escape } from 'html-escaper';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? '');
  }
  return new SafeHtml(out);
}

/** Markup that is trusted as it is (built by our own code, never user text). */
export function raw(trusted: string): SafeHtml {
  return new SafeHtml(trusted);
}

export function escapeHtml(text: string): string {
  return escape(text);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === false || value === true) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escape(String(value));
}
