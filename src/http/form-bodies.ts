// Page forms take what an HTML form sends: application/x-www-form-urlencoded
// or multipart/form-data (htmx sends the same; no page of ours posts JSON).
// Any other body to a page route is refused with 415 before it is parsed.
//
// Why (issue 27): a page form read JSON as well, so the guest CSRF token and
// `{"email": <5,000 nested arrays>}` reached the form reader, whose
// structuredClone overflowed the stack: a 500 before login. Form encodings are
// flat (a name and a text per field), so nothing nested can reach a page.
// The JSON API (isApiRoute) keeps its own rules.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../i18n/messages.ts';
import { ApiError } from './errors.ts';
import { hookRoutesWhere, isApiRoute, takesBody } from './route-hooks.ts';

/** The media types a page route reads (the `<form enctype>` values browsers send; `text/plain` is left out). */
export const FORM_MEDIA_TYPES: readonly string[] = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** Methods whose body Fastify never reads. */
const BODYLESS = new Set(['GET', 'HEAD']);

export function installFormBodyRule(app: FastifyInstance): void {
  // preParsing: the body not yet read. Page routes that take a body only: the API keeps its own rules.
  hookRoutesWhere(
    app,
    (route) => takesBody(route) && !isApiRoute(route),
    'preParsing',
    async (request) => {
      if (BODYLESS.has(request.method) || !carriesBody(request)) return;
      if (!FORM_MEDIA_TYPES.includes(mediaType(request.headers['content-type']))) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', t('error.form_media_type'));
      }
    },
  );
}

/** Whether Fastify would parse a body for this request (its own test: a content type, or a length or chunked encoding). */
function carriesBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}

/** `Multipart/Form-Data; boundary=x` → `multipart/form-data`; no header → ''. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}
