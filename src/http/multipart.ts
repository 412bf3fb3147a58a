// multipart/form-data bodies, for the routes that take a file upload and no
// others (docs/security.md, "Uploads"). A route opts in with
// `config: uploadRoute(fileBytes)` and states who may upload as its own
// `onRequest` hook, which runs after authentication and before any hook that
// reads or judges the body (its media type included): a guest or a member
// without the right gets 401/403 whatever they sent, and no one else's bytes
// are parsed. Start-up fails for an upload route without such a guard.
//
// The body is read (after the guards, before the CSRF check, which reads its
// `_csrf` field: register this before installCsrfProtection) into
// `request.body` as text fields; the one file is kept aside for
// `uploadedFile`. Every way a body can be wrong is a 4xx with a sentence:
// no boundary or a body that ends before its closing boundary 400, a second
// file 400, too many fields or a field too large 413, a multipart type other
// than form-data 400 (the content-type parser's). A file over the route's
// limit is a 422 on its field, naming its real size: the reader goes on
// counting (not keeping) its bytes up to READ_FACTOR times the limit, past
// which it stops and says "larger than" what it read.
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { t, tn } from '../i18n/messages.ts';
import { formatBytes, formatBytesApart } from '../i18n/sizes.ts';
import { ApiError, ValidationError } from './errors.ts';
import { hookRoutesWhere, takesBody } from './route-hooks.ts';

/** What a route that takes uploads says about them (its `config.upload`). */
export interface UploadLimit {
  /** The largest file it takes, in bytes. */
  fileBytes: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data with one file of at most this size (uploadRoute). */
    upload?: UploadLimit;
    /**
     * The route reads nothing of its body: the request is its address (a mass
     * mail's one-click unsubscribe, which mail providers may post as
     * multipart/form-data). A multipart body is left unread there, not refused.
     */
    bodyIgnored?: boolean;
  }
}

/** A route's config for taking one file of at most `fileBytes` (its guards go in its `onRequest`). */
export function uploadRoute(fileBytes: number): { upload: UploadLimit } {
  return { upload: { fileBytes } };
}

/** Text fields a form may send beside its file, and the size of each. */
export const MAX_FIELDS = 50;
export const MAX_FIELD_BYTES = 256 * 1024;
/**
 * How far past a file's limit the reader goes on counting, to tell its real
 * size: this many times the limit (with the text fields' allowance), then it
 * stops reading the request.
 */
const READ_FACTOR = 16;

/** A file over the limit: its size as far as it was read, and whether that was all of it. */
interface OversizeFile {
  field: string;
  bytes: number;
  whole: boolean;
}

interface ReadFiles {
  files: Map<string, Buffer>;
  oversize: OversizeFile | undefined;
  limit: number;
}

/** The request bodies the content-type parser left for the guards to judge first. */
const waiting = new WeakMap<FastifyRequest, Readable>();
/** The files of each multipart request, once read. */
const readFiles = new WeakMap<FastifyRequest, ReadFiles>();

/** Every route of an app that takes uploads (its method and URL pattern), for the tests and the fuzz suite. */
const uploadRouteLists = new WeakMap<FastifyInstance, Array<{ method: string; url: string }>>();

export function uploadRoutes(app: FastifyInstance): ReadonlyArray<{ method: string; url: string }> {
  return uploadRouteLists.get(app) ?? [];
}

export function installMultipart(app: FastifyInstance): void {
  const routes: Array<{ method: string; url: string }> = [];
  uploadRouteLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (route.config?.upload === undefined) return;
    const guards = route.onRequest;
    if (guards === undefined || (Array.isArray(guards) && guards.length === 0)) {
      throw new Error(`${String(route.method)} ${route.url} takes uploads but names no onRequest guard: say who may upload before the body is read`);
    }
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  // Multipart bodies go to upload routes only: any other route that takes a body refuses them before reading (one that ignores its body leaves them unread).
  hookRoutesWhere(
    app,
    (route) => takesBody(route) && route.config?.upload === undefined && route.config?.bodyIgnored !== true,
    'preParsing',
    async (request) => {
      if (/^multipart\//i.test(request.headers['content-type'] ?? '')) throw new ApiError('BAD_REQUEST', t('upload.not_here'));
    },
  );
  // Nothing is read here: the body is read in preValidation (every multipart type comes here, and only form-data is read).
  app.addContentTypeParser(/^multipart\//i, (request, payload, done) => {
    waiting.set(request, payload);
    done(null);
  });
  hookRoutesWhere(
    app,
    (route) => route.config?.upload !== undefined,
    'preValidation',
    async (request, reply) => {
      const payload = waiting.get(request);
      const limit = request.routeOptions.config.upload;
      if (payload === undefined || limit === undefined) return;
      waiting.delete(request);
      // multipart/mixed and the like: not a form.
      if (!/^multipart\/form-data\s*(;|$)/i.test(request.headers['content-type'] ?? '')) throw new ApiError('BAD_REQUEST', t('upload.form_data'));
      request.body = await readMultipart(request, reply, payload, limit.fileBytes);
    },
  );
}

/** Whether the request came as multipart/form-data (and was read as such). */
export function isMultipart(request: FastifyRequest): boolean {
  return readFiles.has(request);
}

/**
 * The file sent in `field`, or undefined when none (or an empty one) was
 * sent. A file over the route's limit is a ValidationError on `field` that
 * names its size and the limit, in the reader's language.
 */
export function uploadedFile(request: FastifyRequest, field = 'file'): Buffer | undefined {
  const read = readFiles.get(request);
  if (read === undefined) return undefined;
  const over = read.oversize;
  if (over !== undefined && over.field === field) {
    const [size, limit] = formatBytesApart(over.bytes, read.limit);
    throw ValidationError.field(field, over.whole ? t('upload.too_large', { size, limit }) : t('upload.too_large_unread', { size, limit }));
  }
  const file = read.files.get(field);
  return file !== undefined && file.length > 0 ? file : undefined;
}

type FormFields = Record<string, string | string[]>;

function readMultipart(request: FastifyRequest, reply: FastifyReply, payload: Readable, fileBytes: number): Promise<FormFields> {
  const read: ReadFiles = { files: new Map(), oversize: undefined, limit: fileBytes };
  // No prototype: a field named __proto__ or constructor is just a field.
  const fields: FormFields = Object.create(null) as FormFields;
  const readLimit = fileBytes * READ_FACTOR + MAX_FIELDS * MAX_FIELD_BYTES;

  return new Promise((resolve, reject) => {
    let settled = false;
    let received = 0;
    let finished = false;
    let filesSeen = 0;
    let filesOpen = 0;
    /** The file being read past its limit (counted, not kept), while it is. */
    let draining: OversizeFile | undefined;

    const stop = (): void => {
      payload.off('data', feed);
      payload.off('end', end);
      payload.pause();
      // Whatever the client still sends is not read: the connection cannot carry another request.
      reply.header('connection', 'close');
    };
    const fail = (error: ApiError): void => {
      if (settled) return;
      settled = true;
      stop();
      reject(error);
    };
    const done = (): void => {
      if (settled || !finished || filesOpen > 0) return;
      settled = true;
      readFiles.set(request, read);
      resolve(fields);
    };

    let parser: BusboyInstance;
    try {
      parser = Busboy({
        headers: { ...request.headers, 'content-type': request.headers['content-type'] ?? '' },
        // A part is a file when it has a file name (browsers send `filename=""` for an empty file input).
        isPartAFile: (_name: string | undefined, _type: string | undefined, filename: string | undefined) => filename !== undefined,
        limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, headerPairs: 16, headerSize: 16 * 1024 },
      });
    } catch {
      // The one thing the constructor refuses for a multipart/form-data type: no boundary.
      reject(new ApiError('BAD_REQUEST', t('upload.no_boundary')));
      return;
    }

    function feed(chunk: Buffer): void {
      const room = readLimit - received;
      received += chunk.length;
      if (chunk.length <= room) {
        if (!parser.write(chunk)) {
          payload.pause();
          parser.once('drain', () => payload.resume());
        }
        return;
      }
      // The reading stops here: what fits is parsed, then a file being drained is "at least this large".
      stop();
      parser.write(chunk.subarray(0, room), () =>
        setImmediate(() => {
          if (draining === undefined) {
            fail(new ApiError('PAYLOAD_TOO_LARGE', t('error.too_large')));
            return;
          }
          read.oversize = draining;
          finished = true;
          filesOpen = 0;
          done();
        }),
      );
    }
    function end(): void {
      parser.end();
    }

    parser.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) {
        fail(new ApiError('PAYLOAD_TOO_LARGE', t('upload.field_too_large', { field: String(name), limit: formatBytes(MAX_FIELD_BYTES) })));
        return;
      }
      if (name === undefined) return;
      const known = fields[name];
      fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
    });

    parser.on('file', (name: string | undefined, stream: BusboyFileStream) => {
      filesSeen += 1;
      if (filesSeen > 1) {
        stream.resume();
        fail(new ApiError('BAD_REQUEST', t('upload.one_file')));
        return;
      }
      filesOpen += 1;
      const field = name ?? '';
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= fileBytes) chunks.push(chunk);
        else {
          chunks.length = 0;
          draining = { field, bytes, whole: false };
        }
      });
      stream.on('end', () => {
        draining = undefined;
        if (bytes > fileBytes) read.oversize = { field, bytes, whole: true };
        else read.files.set(field, Buffer.concat(chunks));
        filesOpen -= 1;
        done();
      });
      // A part cut short: the parser's own error says so.
      stream.on('error', () => {});
    });

    parser.on('fieldsLimit', () => fail(new ApiError('PAYLOAD_TOO_LARGE', tn('upload.too_many_fields', MAX_FIELDS, { limit: MAX_FIELDS }))));
    parser.on('error', () => {
      // An empty body is an empty form (the route then says which field is missing).
      if (received === 0) {
        finished = true;
        done();
        return;
      }
      fail(new ApiError('BAD_REQUEST', t('upload.cut_short')));
    });
    parser.on('finish', () => {
      finished = true;
      done();
    });
    payload.on('error', () => fail(new ApiError('BAD_REQUEST', t('upload.cut_short'))));
    payload.on('close', () => {
      if (!payload.readableEnded) fail(new ApiError('BAD_REQUEST', t('upload.cut_short')));
    });
    payload.on('data', feed);
    payload.on('end', end);
  });
}
