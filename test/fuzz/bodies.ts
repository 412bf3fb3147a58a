// Request bodies: JSON derived from an operation's schema and then broken
// (wrong types, extra keys, huge numbers, NUL, lone surrogates, nesting,
// megabyte strings), malformed JSON, and the wrong content types; form
// bodies (urlencoded and multipart) from a page's form fields.
import fc from 'fast-check';
import { FILTER_STRESS, filteredText, hostileText, isFilteredField, JSON_NUMBERS, wordyText } from './hostile.ts';
import { isRedirectField, redirectTarget } from './redirect-targets.ts';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
}

export interface Body {
  contentType: string | undefined;
  payload: string | Buffer | undefined;
  /** For failure reports: what kind of body this is. */
  kind: string;
}

/** Marks a JSON value to be written as raw text (numbers JSON.stringify cannot produce). */
const RAW = '\u0001raw:';

function raw(text: string): string {
  return `${RAW}${text}\u0001`;
}

function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, '$1');
}

/** Values that are the wrong type wherever they appear. */
function wrongValue(depth: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(null, true, false, 0, -1, 1.5, '', '1', [], {}, [null], { '': '' }, '\u0000', '\ud800'),
    fc.constantFrom(...JSON_NUMBERS).map(raw),
    fc.constant(depth).map((d) => nested(40 + d)),
  );
}

function nested(levels: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const valid =
    schema.format === 'email'
      ? fc.constantFrom('fuzz@example.test', 'a@b.c', 'ünï@example.test', 'x@localhost')
      : schema.format === 'uri'
        ? fc.constantFrom(
            'https://example.test/a.png',
            '/emoji/custom/x.png',
            'javascript:alert(1)',
            'data:image/png;base64,AAAA',
            '//evil.example/x.png',
            'http://[::1',
          )
        : /code|shortcode|alias/.test(schema.pattern ?? '')
          ? fc.stringMatching(/^:[a-z0-9_+-]{1,20}:$/)
          : wordyText();
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((text) => (schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text)) },
    { weight: 3, arbitrary: hostileText() },
  );
}

function integerFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? -10;
  const max = Math.min(schema.maximum ?? 2147483647, 2147483647);
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.max(min, -2147483648), max: Math.max(min, Math.min(max, min + 20)) }) },
    { weight: 2, arbitrary: fc.constantFrom(min - 1, max, max + 1, 0, -1, 2147483648, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 1e308) },
    { weight: 1, arbitrary: fc.constantFrom(...JSON_NUMBERS).map(raw) },
    { weight: 1, arbitrary: fc.constantFrom('1', '01', '+1', '1e3').map((text) => text) },
  );
}

/** A value for `schema`: mostly of the right shape, sometimes not. */
export function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const right = rightValueFor(schema, depth);
  return fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: wrongValue(depth) });
}

function rightValueFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.oneof(fc.constantFrom(...schema.enum), fc.constantFrom('', 'INVALID', '\u0000'));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined && branches.length > 0) return fc.oneof(...branches.map((branch) => rightValueFor(branch, depth)));
  if (schema.allOf !== undefined && schema.allOf.length > 0) return rightValueFor(schema.allOf[0]!, depth);
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? ['string'] : [schema.type];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringFor(schema);
        case 'integer':
          return integerFor(schema);
        case 'number':
          return fc.oneof(integerFor(schema), fc.double());
        case 'boolean':
          return fc.oneof(fc.boolean(), fc.constantFrom('true', 1, 'yes'));
        case 'null':
          return fc.constant(null);
        case 'array':
          return depth > 3
            ? fc.constant([])
            : fc.oneof(
                fc.array(valueFor(schema.items ?? {}, depth + 1), { maxLength: 4 }),
                fc.constant(depth).map(() => Array.from({ length: 10_000 }, (_, i) => i)),
              );
        case 'object':
          return depth > 3 ? fc.constant({}) : objectFor(schema, depth + 1);
        default:
          return fc.constant(null);
      }
    }),
  );
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(properties);
  const present = fc.tuple(
    ...names.map((name) => fc.oneof({ weight: required.has(name) ? 12 : 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })),
  );
  const values = fc.tuple(
    ...names.map((name) =>
      isFilteredField(name) && properties[name]!.type === 'string'
        ? fc.oneof(valueFor(properties[name]!, depth), filteredText())
        : valueFor(properties[name]!, depth),
    ),
  );
  const extra = fc.array(
    fc.tuple(
      fc.constantFrom('extra', 'id', 'role', 'is_admin', 'created_at', 'status', 'user_id', 'author_id', '', '\u0000', 'constructor'),
      wrongValue(depth),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(present, values, extra).map(([flags, chosen, extras]) => {
    const object: Record<string, unknown> = {};
    names.forEach((name, i) => {
      if (flags[i]) object[name] = chosen[i];
    });
    for (const [key, value] of extras) object[key] = value;
    return object;
  });
}

/** A value the schema accepts, as far as its shape goes (ids and references may still not exist). */
function plausibleFor(schema: JsonSchema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined && branches.length > 0) return fc.oneof(...branches.map((branch) => plausibleFor(branch, name, depth)));
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : (schema.type ?? 'string');
  const cut = (text: string) => (schema.maxLength === undefined ? text : text.slice(0, schema.maxLength));
  switch (type) {
    case 'string':
      if (schema.pattern !== undefined && /:/.test(schema.pattern)) return fc.stringMatching(/^:[a-z0-9_]{1,20}:$/);
      if (schema.format === 'email') return fc.constantFrom('fuzz@example.test', 'someone@example.org');
      return (
        isFilteredField(name) ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FILTER_STRESS) }, { weight: 2, arbitrary: wordyText() }) : wordyText()
      )
        .map(cut)
        .filter((text) => text.trim() !== '');
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? 0, -5);
      return fc.integer({ min, max: Math.min(schema.maximum ?? min + 5, min + 5) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(plausibleFor(schema.items ?? {}, name, depth + 1), { minLength: 1, maxLength: 3 });
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (depth > 3 || properties.length === 0) return fc.constant({});
      return fc
        .tuple(...properties.map(([key, property]) => plausibleFor(property, key, depth + 1)))
        .map((values) => Object.fromEntries(properties.map(([key], i) => [key, values[i]])));
    }
    default:
      return fc.constant(null);
  }
}

/** A plausible body with at most one field broken: what gets past validation to the code behind it. */
function nearlyValid(schema: JsonSchema): fc.Arbitrary<string> {
  const names = Object.keys(schema.properties ?? {});
  return fc
    .tuple(
      plausibleFor(schema, '', 0),
      names.length === 0
        ? fc.constant(undefined)
        : fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...names), valueFor({}, 1)) }),
    )
    .map(([value, broken]) => {
      const object = value as Record<string, unknown>;
      if (broken !== undefined && broken !== null) object[broken[0]] = broken[1];
      return toJson(object);
    });
}

/** Text that is not the JSON it claims to be, or JSON no schema expects. */
const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":}',
  '[1,]',
  "{'a':1}",
  '{"a":1}}',
  'nul',
  'null',
  'true',
  '1',
  '"text"',
  '[]',
  '[{}]',
  '\u0000',
  '{"a":"\u0000"}',
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1,"a":2}',
  '{"a":1e400}',
  '{"a":-}',
  '{"a":0x10}',
  '{"a":NaN}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x00"}',
];

export function jsonBody(schema: JsonSchema | undefined): fc.Arbitrary<Body> {
  const structured: fc.Arbitrary<string> = schema === undefined ? fc.constant('{}') : valueFor(schema).map(toJson);
  return fc.oneof(
    { weight: 8, arbitrary: structured.map((payload) => ({ contentType: 'application/json', payload, kind: 'json from schema' })) },
    ...(schema?.type === 'object'
      ? [{ weight: 6, arbitrary: nearlyValid(schema).map((payload) => ({ contentType: 'application/json', payload, kind: 'nearly valid json' })) }]
      : []),
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((payload) => ({ contentType: 'application/json', payload, kind: 'malformed json' })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(2_000, 50_000)
        .map((levels) => ({ contentType: 'application/json', payload: '['.repeat(levels) + ']'.repeat(levels), kind: `json nested ${levels} deep` })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(2_000, 50_000).map((levels) => ({
        contentType: 'application/json',
        payload: `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
        kind: `json objects nested ${levels} deep`,
      })),
    },
    { weight: 1, arbitrary: fc.constant({ contentType: 'application/json', payload: `{"a":"${'x'.repeat(1024 * 1024)}"}`, kind: 'json over the body limit' }) },
    {
      weight: 1,
      arbitrary: fc.constant({
        contentType: 'application/json',
        payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xae, 0x22, 0x7d]),
        kind: 'json with invalid utf-8',
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(structured, contentTypes()).map(([payload, contentType]) => ({ contentType, payload, kind: 'json with another content type' })),
    },
  );
}

function contentTypes(): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(
    undefined,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/vnd.api+json',
    'application/json, text/html',
    'application/xml',
    'application/octet-stream',
    '*/*',
    ';;;',
    'a'.repeat(1000),
  );
}

export interface FormField {
  name: string;
  /** Value the page put there (hidden fields, selects, checkboxes). */
  value: string | undefined;
  type: string;
  options: string[];
}

function fieldValue(field: FormField): fc.Arbitrary<string> {
  if (isRedirectField(field.name)) return fc.oneof({ weight: 1, arbitrary: fc.constant(field.value ?? '/') }, { weight: 3, arbitrary: redirectTarget() });
  const plausible =
    field.options.length > 0
      ? fc.constantFrom(...field.options)
      : field.value !== undefined && field.value !== ''
        ? fc.constant(field.value)
        : field.type === 'email' || /mail/.test(field.name)
          ? fc.constantFrom('fuzz@example.test', 'newcomer@example.test', 'not-an-address')
          : field.type === 'password' || /password/.test(field.name)
            ? fc.constantFrom('correct horse battery', 'short')
            : /order|^x$|^y$|width|height|id$/.test(field.name)
              ? fc.constantFrom('0', '1', '5', '16', '2147483648', '1e400', '+1', '01', '-1')
              : wordyText();
  return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 3, arbitrary: isFilteredField(field.name) ? filteredText() : hostileText() });
}

/** The submitted fields of a form: each kept, dropped, repeated or broken, plus unknown ones. */
export function formFields(fields: readonly FormField[]): fc.Arbitrary<Array<[string, string]>> {
  const each = fields.map((field) =>
    fc.oneof(
      { weight: 8, arbitrary: fieldValue(field).map((value): Array<[string, string]> => [[field.name, value]]) },
      { weight: 1, arbitrary: fc.constant<Array<[string, string]>>([]) },
      {
        weight: 1,
        arbitrary: fc.tuple(fieldValue(field), fieldValue(field)).map(([a, b]): Array<[string, string]> => [
          [field.name, a],
          [field.name, b],
        ]),
      },
    ),
  );
  const extra = fc.array(
    fc.tuple(
      fc.constantFrom('action', 'role', 'status', '__proto__', 'constructor[prototype][x]', 'x[]', '', 'id'),
      hostileText().map((text) => text.slice(0, 1000)),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...each), extra).map(([lists, extras]) => [...lists.flat(), ...extras]);
}

export function urlencoded(pairs: Array<[string, string]>, encode: (text: string) => string): string {
  return pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
}

/** A multipart/form-data body; `file` (when given) is sent as a file part. */
export function multipartBody(
  pairs: Array<[string, string]>,
  file?: { field: string; bytes: Buffer; name: string; type: string },
): { payload: Buffer; contentType: string } {
  const boundary = '----fuzzBoundary7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const [key, value] of pairs) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/["\r\n]/g, '_')}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  if (file !== undefined) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name.replace(/["\r\n]/g, '_')}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Files for upload fields: real images, lies about their type, and nothing at all. */
export function uploadFile(): fc.Arbitrary<{ bytes: Buffer; name: string; type: string } | undefined> {
  return fc.oneof(
    fc.constant(undefined),
    fc.record({
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        fc.constant(Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
        fc.constant(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 0xff)])),
        fc.constant(Buffer.from('GIF89a\xff\xff\xff\xff', 'latin1')),
        fc.constant(Buffer.alloc(3 * 1024 * 1024, 1)),
      ),
      name: fc.constantFrom('a.png', '../../x.png', '\u0000.png', 'a'.repeat(300), '', '.htaccess', 'ü.gif'),
      type: fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', ''),
    }),
  );
}
