// Malformed multipart/form-data bodies for the routes that take uploads
// (src/http/multipart.ts, docs/security.md "Uploads"): broken framing, limits
// crossed, a second file, files over any route's limit, multipart types that
// are not form-data. operations.ts sends them to every upload route of the
// API and the pages, forms.ts to every upload form it finds; each keeps the
// request's own fields (its CSRF token included) where a body has fields.
import fc from 'fast-check';
import { uploadRoutes } from '../../src/http/multipart.ts';
import type { Body } from './bodies.ts';
import type { World } from './world.ts';

export type Breakage =
  | { kind: 'no boundary' | 'wrong boundary' | 'header only' | 'empty' }
  | { kind: 'garbage'; bytes: Uint8Array }
  | { kind: 'truncated'; keep: number }
  | { kind: 'too many fields'; count: number }
  | { kind: 'oversized field'; bytes: number }
  | { kind: 'two files'; sameName: boolean }
  | { kind: 'content type'; type: string }
  | { kind: 'framing'; variant: Framing }
  | { kind: 'file over a limit'; bytes: number };

type Framing =
  | 'LF line ends'
  | 'no closing boundary'
  | 'quoted boundary'
  | 'boundary of 200 characters'
  | 'preamble and epilogue'
  | 'part without a name'
  | 'part without Content-Disposition'
  | 'JSON-typed field'
  | 'field named __proto__'
  | 'filename* only'
  | 'header of 20 KiB'
  | 'a hundred header lines'
  | 'boundary inside the content';

const FRAMINGS: readonly Framing[] = [
  'LF line ends',
  'no closing boundary',
  'quoted boundary',
  'boundary of 200 characters',
  'preamble and epilogue',
  'part without a name',
  'part without Content-Disposition',
  'JSON-typed field',
  'field named __proto__',
  'filename* only',
  'header of 20 KiB',
  'a hundred header lines',
  'boundary inside the content',
];

/** How a body is broken. */
export function multipartBreakage(): fc.Arbitrary<Breakage> {
  return fc.oneof(
    fc.constantFrom<Breakage>({ kind: 'no boundary' }, { kind: 'wrong boundary' }, { kind: 'header only' }, { kind: 'empty' }),
    fc.uint8Array({ minLength: 1, maxLength: 4096 }).map((bytes): Breakage => ({ kind: 'garbage', bytes })),
    fc.double({ min: 0, max: 0.99, noNaN: true }).map((keep): Breakage => ({ kind: 'truncated', keep })),
    fc.integer({ min: 51, max: 200 }).map((count): Breakage => ({ kind: 'too many fields', count })),
    fc.integer({ min: 256 * 1024 + 1, max: 600 * 1024 }).map((bytes): Breakage => ({ kind: 'oversized field', bytes })),
    fc.boolean().map((sameName): Breakage => ({ kind: 'two files', sameName })),
    fc
      .constantFrom('multipart/mixed', 'multipart/related', 'multipart/alternative', 'multipart/form-data-x', 'multipart/')
      .map((type): Breakage => ({ kind: 'content type', type })),
    fc.constantFrom(...FRAMINGS).map((variant): Breakage => ({ kind: 'framing', variant })),
    // Over every route's limit (256 KiB to 2 MiB), and one past what any route reads to its end.
    fc
      .constantFrom(256 * 1024 + 1, 300 * 1024, 1024 * 1024 + 1, 2 * 1024 * 1024 + 1, 5 * 1024 * 1024, 40 * 1024 * 1024)
      .map((bytes): Breakage => ({ kind: 'file over a limit', bytes })),
  );
}

const BOUNDARY = '----fuzzUpload4d8Qx1';

function part(name: string, value: string | Buffer, options: { boundary?: string; filename?: string; headers?: string[]; eol?: string } = {}): Buffer {
  const eol = options.eol ?? '\r\n';
  const disposition = `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"${options.filename === undefined ? '' : `; filename="${options.filename}"`}`;
  const headers = [disposition, ...(options.filename === undefined ? [] : ['Content-Type: application/octet-stream']), ...(options.headers ?? [])];
  return Buffer.concat([Buffer.from(`--${options.boundary ?? BOUNDARY}${eol}${headers.join(eol)}${eol}${eol}`), Buffer.from(value), Buffer.from(eol)]);
}

function closing(boundary = BOUNDARY, eol = '\r\n'): Buffer {
  return Buffer.from(`--${boundary}--${eol}`);
}

/** `pairs` (the request's fields) and a small file in `fileField`, broken as `breakage` says. */
export function brokenMultipartBody(breakage: Breakage, pairs: ReadonlyArray<[string, string]>, fileField: string): Body {
  const fields = (boundary = BOUNDARY, eol = '\r\n') => pairs.map(([name, value]) => part(name, value, { boundary, eol }));
  const file = (bytes: Buffer = Buffer.from('fuzz file'), boundary = BOUNDARY, eol = '\r\n') => part(fileField, bytes, { boundary, eol, filename: 'fuzz.bin' });
  const whole = (boundary = BOUNDARY) => Buffer.concat([...fields(boundary), file(undefined, boundary), closing(boundary)]);
  const type = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;
  const body = (payload: Buffer, contentType = type()): Body => ({ contentType, payload, kind: `broken multipart: ${describe(breakage)}` });

  switch (breakage.kind) {
    case 'no boundary':
      return body(whole(), 'multipart/form-data');
    case 'wrong boundary':
      return body(whole(), type('not-the-boundary'));
    case 'header only':
      return body(Buffer.concat([...fields(), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.png"\r\n`)]));
    case 'empty':
      return body(Buffer.alloc(0));
    case 'garbage':
      return body(Buffer.from(breakage.bytes));
    case 'truncated': {
      const full = whole();
      return body(full.subarray(0, Math.floor(full.length * breakage.keep)));
    }
    case 'too many fields':
      return body(Buffer.concat([...fields(), ...Array.from({ length: breakage.count }, (_, i) => part(`f${i}`, 'x')), file(), closing()]));
    case 'oversized field':
      return body(Buffer.concat([...fields(), part('note', 'n'.repeat(breakage.bytes)), file(), closing()]));
    case 'two files':
      return body(Buffer.concat([...fields(), file(), part(breakage.sameName ? fileField : 'second', 'two', { filename: 'b.bin' }), closing()]));
    case 'content type':
      return body(whole(), `${breakage.type}; boundary=${BOUNDARY}`);
    case 'file over a limit':
      return body(Buffer.concat([...fields(), file(Buffer.alloc(breakage.bytes, 0x61)), closing()]));
    case 'framing':
      return framed(breakage.variant, fileField, fields, file, whole, type, body);
  }
}

function framed(
  variant: Framing,
  fileField: string,
  fields: (boundary?: string, eol?: string) => Buffer[],
  file: (bytes?: Buffer, boundary?: string, eol?: string) => Buffer,
  whole: (boundary?: string) => Buffer,
  type: (boundary?: string) => string,
  body: (payload: Buffer, contentType?: string) => Body,
): Body {
  switch (variant) {
    case 'LF line ends':
      return body(Buffer.concat([...fields(BOUNDARY, '\n'), file(undefined, BOUNDARY, '\n'), closing(BOUNDARY, '\n')]));
    case 'no closing boundary':
      return body(Buffer.concat([...fields(), file()]));
    case 'quoted boundary':
      return body(whole(), `multipart/form-data; boundary="${BOUNDARY}"`);
    case 'boundary of 200 characters': {
      const long = 'b'.repeat(200);
      return body(whole(long), type(long));
    }
    case 'preamble and epilogue':
      return body(Buffer.concat([Buffer.from('preamble '.repeat(1000) + '\r\n'), whole(), Buffer.from('epilogue '.repeat(1000))]));
    case 'part without a name':
      return body(Buffer.concat([...fields(), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n`), file(), closing()]));
    case 'part without Content-Disposition':
      return body(Buffer.concat([...fields(), Buffer.from(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nloose\r\n`), file(), closing()]));
    case 'JSON-typed field':
      return body(
        Buffer.concat([...fields(), part('topic_id', '{"__proto__":{"x":1},"a":[1,2]}', { headers: ['Content-Type: application/json'] }), file(), closing()]),
      );
    case 'field named __proto__':
      return body(Buffer.concat([...fields(), part('__proto__', 'x'), part('constructor', 'y'), part('toString', 'z'), file(), closing()]));
    case 'filename* only':
      return body(
        Buffer.concat([
          ...fields(),
          Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename*=UTF-8''%E2%82%AC%00.png\r\n\r\nx\r\n`),
          closing(),
        ]),
      );
    case 'header of 20 KiB':
      return body(Buffer.concat([...fields(), part(fileField, 'x', { filename: 'a'.repeat(20 * 1024) }), closing()]));
    case 'a hundred header lines':
      return body(
        Buffer.concat([...fields(), part(fileField, 'x', { filename: 'a.bin', headers: Array.from({ length: 100 }, (_, i) => `X-H${i}: v`) }), closing()]),
      );
    case 'boundary inside the content':
      return body(Buffer.concat([...fields(), file(Buffer.from(`before\r\n--${BOUNDARY}\r\nafter`)), closing()]));
  }
}

function describe(breakage: Breakage): string {
  switch (breakage.kind) {
    case 'garbage':
      return `${breakage.bytes.length} bytes of garbage`;
    case 'truncated':
      return `cut at ${Math.round(breakage.keep * 100)}%`;
    case 'too many fields':
      return `${breakage.count} extra fields`;
    case 'oversized field':
    case 'file over a limit':
      return `${breakage.kind} (${breakage.bytes} bytes)`;
    case 'two files':
      return breakage.sameName ? 'two files, one name' : 'two files';
    case 'content type':
      return breakage.type;
    case 'framing':
      return breakage.variant;
    default:
      return breakage.kind;
  }
}

/** The paths (as the OpenAPI document writes them, `{id}`) of every route that takes uploads. */
export function uploadPaths(world: World): ReadonlySet<string> {
  return new Set(uploadRoutes(world.t.app).map((route) => route.url.replace(/:(\w+)/g, '{$1}')));
}
