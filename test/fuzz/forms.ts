// Every form the site shows: the pages are opened as each kind of caller and
// their <form> elements read (action, method, enctype, fields), so a new form
// is fuzzed without anyone listing it here.
import fc from 'fast-check';
import { formFields, multipartBody, uploadFile, urlencoded, type FormField } from './bodies.ts';
import { deepJsonForm, jsonNesting } from './form-json.ts';
import { encodeLoose, hostileHeaders } from './hostile.ts';
import type { FuzzRequest } from './oracle.ts';
import type { Operation } from './operations.ts';
import type { Caller, World } from './world.ts';
import { brokenMultipartBody, multipartBreakage } from './multipart.ts';

export interface Form {
  action: string;
  method: string;
  multipart: boolean;
  fields: FormField[];
  /** Callers whose page showed this form. */
  seenBy: Caller[];
}

function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match === null ? undefined : unescape(match[1]!);
}

export function formsIn(html: string): Array<Omit<Form, 'seenBy'>> {
  const forms: Array<Omit<Form, 'seenBy'>> = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const tag = match[1]!;
    const inner = match[2]!;
    const method = (attribute(tag, 'method') ?? 'get').toUpperCase();
    const action = attribute(tag, 'action') ?? '';
    const fields = new Map<string, FormField>();
    for (const input of inner.matchAll(/<(input|textarea|select)\b([^>]*)>/g)) {
      const name = attribute(input[2]!, 'name');
      if (name === undefined) continue;
      const type = input[1] === 'input' ? (attribute(input[2]!, 'type') ?? 'text') : input[1]!;
      const known = fields.get(name) ?? { name, value: undefined, type, options: [] };
      const value = attribute(input[2]!, 'value');
      if (type === 'checkbox' || type === 'radio') {
        if (value !== undefined) known.options.push(value);
      } else if (known.value === undefined) {
        known.value = value;
      }
      fields.set(name, known);
    }
    for (const select of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const field = fields.get(attribute(select[1]!, 'name') ?? '');
      if (field !== undefined) for (const option of select[2]!.matchAll(/<option\b([^>]*)>/g)) field.options.push(attribute(option[1]!, 'value') ?? '');
    }
    forms.push({ action, method, multipart: /multipart/.test(attribute(tag, 'enctype') ?? ''), fields: [...fields.values()] });
  }
  return forms;
}

/** The GET pages to read forms from: every page route of the document, with existing ids. */
function pagesToVisit(operations: readonly Operation[], world: World): string[] {
  const first = (kind: string) => String(world.ids[kind]?.[0] ?? 1);
  const fills: Record<string, (path: string) => string> = {
    segment: (path) =>
      /^\/forum\//.test(path) ? world.segments['forum']![0]! : /^\/profile\//.test(path) ? world.segments['profile']!.at(-1)! : world.segments['topic']![0]!,
    id: (path) =>
      /users/.test(path)
        ? first('users')
        : /forums/.test(path)
          ? first('forums')
          : /word-filters/.test(path)
            ? String(world.ids['word-filters']?.at(-1) ?? 1)
            : /emojis/.test(path)
              ? first('emojis')
              : /outbox/.test(path)
                ? first('outbox')
                : first('posts'),
    userId: () => world.segments['activation']![0]!.split('/')[0]!,
    key: (path) => (path.startsWith('/activate/') ? world.segments['activation']![0]!.split('/')[1]! : world.keys[0]!),
  };
  const pages = new Set<string>();
  for (const operation of operations) {
    if (operation.method !== 'GET' || operation.path.startsWith('/api/') || !operation.path.endsWith('/')) continue;
    let path = operation.path;
    let fillable = true;
    path = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const fill = fills[name];
      if (fill === undefined) fillable = false;
      return fill === undefined ? '' : fill(operation.path);
    });
    if (fillable) pages.add(path);
  }
  return [...pages];
}

/** Opens every page as every signed-in role and as a guest, and collects their forms (one per action path and field set). */
export async function discoverForms(world: World, operations: readonly Operation[]): Promise<Form[]> {
  const callers = world.callers().filter((caller) => caller.name === 'guest with form cookie' || caller.name.endsWith(' session'));
  const forms = new Map<string, Form>();
  for (const path of pagesToVisit(operations, world)) {
    for (const caller of callers) {
      const response = await world.t.app.inject({ method: 'GET', url: path, cookies: caller.cookies });
      if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/html')) continue;
      for (const form of formsIn(response.body)) {
        if (form.method !== 'POST') continue;
        const key = `${form.action} ${form.fields
          .map((field) => field.name)
          .sort()
          .join(',')} ${form.fields.find((field) => field.name === 'action')?.value ?? ''}`;
        const known = forms.get(key);
        if (known === undefined) forms.set(key, { ...form, seenBy: [caller] });
        else if (!known.seenBy.includes(caller)) known.seenBy.push(caller);
      }
    }
  }
  return [...forms.values()];
}

/** Hostile submissions of one form: its fields broken, by the callers who see it and by others. */
export function formRequests(form: Form, world: World): fc.Arbitrary<FuzzRequest> {
  const visible = fc.constantFrom(...form.seenBy);
  const anyone = fc.constantFrom(...world.callers());
  const fields = form.fields.filter((field) => field.name !== '_csrf' && field.type !== 'file');
  const files = form.fields.filter((field) => field.type === 'file');
  // JSON, flat and deeply nested, always with the token: page forms must refuse it (415), never read it.
  const deepJson = { weight: 1, arbitrary: fc.constant('deep json' as const) };
  const encoding = form.multipart
    ? fc.oneof({ weight: 10, arbitrary: fc.constant('multipart' as const) }, deepJson)
    : fc.oneof(
        { weight: 10, arbitrary: fc.constant('urlencoded' as const) },
        { weight: 2, arbitrary: fc.constant('multipart' as const) },
        { weight: 1, arbitrary: fc.constantFrom('json' as const, 'none' as const) },
        deepJson,
      );
  return fc
    .record({
      caller: fc.oneof({ weight: 4, arbitrary: visible }, { weight: 1, arbitrary: anyone }),
      pairs: formFields(fields),
      file: uploadFile(),
      // An upload form's body broken in one of the ways test/fuzz/multipart.ts knows.
      broken: form.multipart ? fc.option(multipartBreakage(), { freq: 3 }) : fc.constant(null),
      encoding,
      csrf: fc.oneof({ weight: 9, arbitrary: fc.constant('right') }, { weight: 1, arbitrary: fc.constantFrom('none', 'wrong', 'twice') }),
      headers: fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: hostileHeaders() }),
      remoteAddress: fc.constantFrom('127.0.0.1', '192.0.2.8', '::1', '198.51.100.3'),
      nesting: jsonNesting(),
    })
    .map(({ caller, pairs, file, broken, encoding: kind, csrf, headers, remoteAddress, nesting }): FuzzRequest => {
      const token = caller.csrf ?? world.guestCsrf;
      const withToken: Array<[string, string]> =
        csrf === 'right'
          ? [['_csrf', token], ...pairs]
          : csrf === 'wrong'
            ? [['_csrf', 'wrong-token-000000000000'], ...pairs]
            : csrf === 'twice'
              ? [['_csrf', token], ['_csrf', 'x'], ...pairs]
              : pairs;
      const sent: Record<string, string> = { ...headers };
      let payload: string | Buffer | undefined;
      if (kind === 'urlencoded') {
        payload = urlencoded(withToken, encodeLoose);
        sent['content-type'] = 'application/x-www-form-urlencoded';
      } else if (kind === 'multipart' && broken !== null) {
        const built = brokenMultipartBody(broken, withToken, files[0]?.name ?? 'file');
        payload = built.payload;
        sent['content-type'] = built.contentType ?? '';
        return { method: 'POST', url: form.action, caller, headers: sent, payload, bodyKind: `${built.kind}, csrf ${csrf}`, remoteAddress };
      } else if (kind === 'multipart') {
        const built = multipartBody(withToken, files.length > 0 && file !== undefined ? { field: files[0]!.name, ...file } : undefined);
        payload = built.payload;
        sent['content-type'] = built.contentType;
      } else if (kind === 'json') {
        payload = JSON.stringify(Object.fromEntries(withToken));
        sent['content-type'] = 'application/json';
      } else if (kind === 'deep json') {
        const deep = deepJsonForm(withToken, nesting.levels, nesting.shape);
        payload = deep.payload;
        sent['content-type'] = 'application/json';
        return { method: 'POST', url: form.action, caller, headers: sent, payload, bodyKind: `${deep.kind}, csrf ${csrf}`, remoteAddress };
      }
      return { method: 'POST', url: form.action, caller, headers: sent, payload, bodyKind: `${kind} form, csrf ${csrf}`, remoteAddress };
    });
}
