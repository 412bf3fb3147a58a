// multipart/form-data bodies, for the routes that take file uploads and no
// others. Fields are attached to the body before the CSRF check reads
// `_csrf` (so register this before installCsrfProtection). Files are read
// into memory, so only signed-in callers of a route that opts in (with
// `config.multipartOptions`, its own limits) get that far.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

export interface MultipartLimits {
  /** The largest file any route takes, in bytes. */
  maxFileBytes: number;
}

export async function installMultipart(app: FastifyInstance, limits: MultipartLimits): Promise<void> {
  app.addHook('preParsing', async (request) => {
    if (!/^multipart\//i.test(request.headers['content-type'] ?? '')) return;
    if (request.routeOptions.config.multipartOptions === undefined) throw new ApiError('BAD_REQUEST', 'This address does not take file uploads.');
    if (request.user === null) throw new ApiError('UNAUTHENTICATED', 'Unauthenticated.');
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    // Routes say "too large" themselves, with their own limit: they read one byte over it.
    throwFileSizeLimit: false,
    limits: { fileSize: limits.maxFileBytes + 1, files: 1, fields: 50, parts: 51, fieldSize: 256 * 1024 },
  });
}

/** The uploaded file of a multipart request (its `file` field), or undefined when none was sent. */
export function uploadedFile(request: FastifyRequest, field = 'file'): Buffer | undefined {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body?.[field];
  const file = Array.isArray(value) ? value[0] : value;
  return Buffer.isBuffer(file) && file.length > 0 ? file : undefined;
}
