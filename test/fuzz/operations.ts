// The targets, read from the app itself: every operation of /api/openapi.json
// (the JSON API and the page routes), and the hostile requests for each.
import fc from 'fast-check';
import type { TestApp } from '../helpers/app.ts';
import { formFields, jsonBody, multipartBody, uploadFile, type Body, type FormField, type JsonSchema } from './bodies.ts';
import { encodeLoose, hostileHeaders, hostileQuery, hostileSegment, hostileText, nonCanonicalSpellingOf } from './hostile.ts';
import type { FuzzRequest } from './oracle.ts';
import { isRedirectField, redirectTarget } from './redirect-targets.ts';
import type { Caller, World } from './world.ts';
import { brokenMultipartBody, multipartBreakage, uploadPaths } from './multipart.ts';

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  jsonSchema: JsonSchema | undefined;
  multipart: boolean;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export async function readOperations(t: TestApp): Promise<Operation[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`/api/openapi.json answered ${response.statusCode}`);
  const document = JSON.parse(response.body) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        jsonSchema: content['application/json']?.schema,
        multipart: content['multipart/form-data'] !== undefined,
      });
    }
  }
  return operations;
}

/** Which pool of existing ids or segments a path parameter draws from. */
function poolOf(path: string, name: string, world: World): string[] {
  const ids = (kind: string) => (world.ids[kind] ?? []).map(String);
  if (name === 'segment') {
    const kind = /^\/(forum|topic|profile|group)\//.exec(path)?.[1] ?? 'topic';
    return world.segments[kind] ?? [];
  }
  if (name === 'aliasId') return ids('aliases');
  if (name === 'user_id' || (name === 'userId' && path.startsWith('/admin/groups/'))) return ids('users');
  if (name === 'userId') return (world.segments['activation'] ?? []).map((pair) => pair.split('/')[0]!);
  if (name === 'key') return path.startsWith('/activate/') ? (world.segments['activation'] ?? []).map((pair) => pair.split('/')[1]!) : world.keys;
  if (name === 'kind') return ['custom', 'sprites'];
  if (name === 'name') return world.uploads;
  const kinds: Array<[RegExp, string]> = [
    [/users/, 'users'],
    [/forums/, 'forums'],
    [/topics/, 'topics'],
    [/posts|moderation/, 'posts'],
    [/word-filters/, 'word-filters'],
    [/emoji\/emojis|admin\/emojis/, 'emojis'],
    [/aliases/, 'aliases'],
    // The forum categories (/api/categories, /admin/categories/); the emoji ones are under /emoji/ and /emoji-categories/.
    [/^\/api\/categories|^\/admin\/categories/, 'forum-categories'],
    [/categories/, 'categories'],
    [/outbox/, 'outbox'],
    [/groups/, 'groups'],
  ];
  const kind = kinds.find(([pattern]) => pattern.test(path))?.[1];
  return kind === undefined ? [] : ids(kind);
}

/** Plausible values of a query parameter (its enum, small numbers, words). */
function plausibleQueryValue(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  if (schema?.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum.map(String));
  const branches = schema?.anyOf ?? schema?.oneOf;
  if (branches !== undefined) return fc.oneof(...branches.map(plausibleQueryValue));
  if (schema?.type === 'integer' || schema?.type === 'number') return fc.constantFrom('1', '2', '3', '50', '100', '101', '0');
  if (schema?.type === 'boolean') return fc.constantFrom('true', 'false', '1', '0');
  return fc.constantFrom('a', 'smile', 'darn', 'Hello', ':fuzz', 'general', '1');
}

/** Query names pages read besides those the API documents. */
export const PAGE_QUERY_NAMES = [
  'page',
  'start',
  'per_page',
  'sent',
  'saved',
  'post',
  'q',
  'search',
  'next',
  't',
  'f',
  'p',
  'u',
  'k',
  'mode',
  'role',
  'status',
  'sort',
  'order',
  'filter_type',
  'pattern_type',
  'is_active',
  'category_id',
  'for',
];

const REMOTE_ADDRESSES = ['127.0.0.1', '10.0.0.1', '192.0.2.7', '::1', '2001:db8::1', '203.0.113.9'];

/** How often each caller is chosen: staff more often, since they pass the guards and reach the deeper code. */
const CALLER_WEIGHTS: Record<string, number> = {
  'admin token': 5,
  'admin session': 3,
  'moderator token': 2,
  'moderator session': 1,
  'user token': 2,
  'user session': 2,
};

export function callerArbitrary(world: World): fc.Arbitrary<Caller> {
  return fc.oneof(...world.callers().map((caller) => ({ weight: CALLER_WEIGHTS[caller.name] ?? 1, arbitrary: fc.constant(caller) })));
}

/** Fields a page's form might have, for page routes fuzzed without a discovered form. */
const GENERIC_FIELDS: FormField[] = ['action', 'title', 'body', 'username', 'password', 'email', 'next', 'q', 'signature', 'message', 'subject'].map(
  (name) => ({ name, value: undefined, type: 'text', options: [] }),
);

/** A body for a page route: a form (urlencoded or multipart), JSON, or nothing. */
function pageBody(): fc.Arbitrary<Body | undefined> {
  return fc.tuple(formFields(GENERIC_FIELDS), fc.constantFrom('urlencoded', 'urlencoded', 'multipart', 'json', 'none')).map(([all, kind]) => {
    if (kind === 'urlencoded')
      return {
        contentType: 'application/x-www-form-urlencoded',
        payload: all.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&'),
        kind: 'urlencoded form',
      };
    if (kind === 'multipart') {
      const built = multipartBody(all);
      return { contentType: built.contentType, payload: built.payload, kind: 'multipart form' };
    }
    if (kind === 'json') return { contentType: 'application/json', payload: JSON.stringify(Object.fromEntries(all)), kind: 'json' };
    return undefined;
  });
}

/** A multipart body broken in one of the ways test/fuzz/multipart.ts knows, around some of `fields`. */
function brokenUpload(fields: readonly FormField[], fileField: string): fc.Arbitrary<Body> {
  return fc.tuple(multipartBreakage(), formFields(fields)).map(([breakage, pairs]) => brokenMultipartBody(breakage, pairs, fileField));
}

/** Hostile requests for one operation. */
export function operationRequests(operation: Operation, world: World, extraQueryNames: readonly string[] = []): fc.Arbitrary<FuzzRequest> {
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const declared = new Map(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema]));
  const segments = fc.tuple(...pathParameters.map((name) => hostileSegment(poolOf(operation.path, name, world))));
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const queryNames = [...new Set([...queryParameters.map((p) => p.name), ...extraQueryNames])];
  const querySchemas = new Map(queryParameters.map((p) => [p.name, p.schema]));
  const query = hostileQuery(queryNames, (name) => (isRedirectField(name) ? redirectTarget() : plausibleQueryValue(querySchemas.get(name))));
  const write = operation.method !== 'GET' && operation.method !== 'HEAD' && operation.method !== 'OPTIONS';
  const page = !operation.path.startsWith('/api/');
  const upload = write && uploadPaths(world).has(operation.path);
  // A page that takes uploads also gets multipart bodies broken in every way (test/fuzz/multipart.ts).
  const pageWrite = upload
    ? fc.oneof(
        { weight: 6, arbitrary: pageBody() },
        { weight: 1, arbitrary: jsonBody(undefined) },
        { weight: 4, arbitrary: brokenUpload(GENERIC_FIELDS, 'file') },
      )
    : fc.oneof({ weight: 6, arbitrary: pageBody() }, { weight: 1, arbitrary: jsonBody(undefined) });
  const body: fc.Arbitrary<Body | undefined> = page
    ? write
      ? pageWrite
      : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: pageBody() })
    : operation.multipart
      ? fc.oneof(
          {
            weight: 2,
            arbitrary: brokenUpload([{ name: 'topic_id', value: undefined, type: 'text', options: (world.ids['topics'] ?? []).map(String) }], 'file'),
          },
          {
            weight: 3,
            arbitrary: fc
              .tuple(
                uploadFile(),
                fc.array(
                  fc.tuple(
                    fc.constantFrom('file', 'x', '_csrf'),
                    hostileText().map((text) => text.slice(0, 300)),
                  ),
                  { maxLength: 2 },
                ),
                fc.boolean(),
              )
              .map(([file, fields, asJson]) => {
                if (asJson) return { contentType: 'application/json', payload: '{"file":"x"}', kind: 'json instead of multipart' };
                const built = multipartBody(fields, file === undefined ? undefined : { field: 'file', ...file });
                return {
                  contentType: built.contentType,
                  payload: built.payload,
                  kind: `multipart${file === undefined ? ' without file' : ` ${file.type} ${file.bytes.length} bytes`}`,
                };
              }),
          },
        )
      : operation.jsonSchema !== undefined || write
        ? fc.oneof({ weight: 8, arbitrary: jsonBody(operation.jsonSchema) }, { weight: 1, arbitrary: fc.constant(undefined) })
        : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: jsonBody(undefined) });
  const headers = fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: hostileHeaders() });

  return fc
    .record({
      segments,
      query,
      body,
      caller: callerArbitrary(world),
      headers,
      remoteAddress: fc.constantFrom(...REMOTE_ADDRESSES),
      csrf: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    })
    .map(({ segments: values, query: search, body: sent, caller, headers: extra, remoteAddress, csrf }) => {
      let path = operation.path;
      const reasons: string[] = [];
      pathParameters.forEach((name, i) => {
        const value = values[i]!;
        path = path.replace(`{${name}}`, value);
        const schema = declared.get(name);
        if (schema?.type === 'integer') {
          const id = nonCanonicalSpellingOf(value, poolOf(operation.path, name, world).map(Number));
          if (id !== undefined) reasons.push(`path parameter ${name} "${value}" is not the canonical spelling of ${id}`);
        }
      });
      if (search !== '') {
        const parsed = new URLSearchParams(search);
        for (const parameter of queryParameters) {
          const all = parsed.getAll(parameter.name);
          if (all.length !== 1 || parameter.schema.type !== 'integer') continue;
          if (/^(0|-?[1-9]\d*)$/.test(all[0]!)) continue;
          const value = Number(all[0]!.trim());
          if (all[0]!.trim() !== '' && Number.isSafeInteger(value)) reasons.push(`query parameter ${parameter.name} "${all[0]}" is not a canonical integer`);
        }
      }
      const headers: Record<string, string> = { ...extra };
      if (sent?.contentType !== undefined) headers['content-type'] = sent.contentType;
      if (write && csrf && caller.csrf !== undefined && headers['x-csrf-token'] === undefined) headers['x-csrf-token'] = caller.csrf;
      // Pages take the token from this header as well as from a _csrf field (forms.test.ts sends the field).
      return {
        method: operation.method,
        url: search === '' ? path : `${path}?${search}`,
        caller,
        headers,
        payload: sent?.payload,
        bodyKind: sent?.kind,
        remoteAddress,
        mustRefuse: reasons.length > 0 ? reasons.join('; ') : undefined,
      };
    });
}
