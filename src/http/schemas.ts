// Schema pieces shared by every module's routes, and the helpers that read them.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { FLAG_VALUES } from './validation.ts';

/** Path id: anything but a positive 32-bit integer is a 404 (see error-handler.ts). */
export const IdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Resource id' }),
});

/** Boolean query parameter: `1`, `0`, `true` or `false`. */
export const QueryFlag = Type.Unsafe<(typeof FLAG_VALUES)[number]>({
  type: 'string',
  enum: [...FLAG_VALUES],
  description: 'Boolean: 1, 0, true or false',
});

export function isOn(flag: string | undefined): boolean {
  return flag === '1' || flag === 'true';
}

/**
 * A value of the given schema, or null. Written as a type array
 * (`type: ['object', 'null']`) rather than anyOf where the schema has a single
 * type: fast-json-stringify serializes an anyOf by validating the value
 * against each branch on every response, a type array with a null check.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'null') return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

/** Required text: present, not blank, at most `max` code points. */
export function RequiredText(max: number, description?: string) {
  return Type.String({ minLength: 1, maxLength: max, notBlank: true, ...(description ? { description } : {}) });
}

/** `q` and `limit` of the /search endpoints (errors there are 400, not 422). */
export const SearchQueryProperties = {
  q: Type.String({ minLength: 1, notBlank: true, description: 'Search text (required)' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Results to return (1-100)' })),
};

/** `{data: <resource>}` */
export function DataOf<T extends TSchema>(resource: T) {
  return Type.Object({ data: resource });
}

/** 422 (and 400 on /search): `{message, errors: {field: [messages]}}` */
export const ValidationErrorBody = Type.Object(
  { message: Type.String(), errors: Type.Record(Type.String(), Type.Array(Type.String())) },
  { description: 'Invalid input: every failing field with its messages' },
);

/** 404 of catalog models and word filters: `{message}` */
export const MessageBody = Type.Object({ message: Type.String() }, { description: 'Not found' });

/** 401, 403, 404 (routes), 405, 413, 429, 500, 503 */
export const ErrorEnvelopeBody = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    error: Type.Object({
      code: Type.String({ description: 'UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, RATE_LIMITED, BAD_REQUEST, …' }),
      message: Type.String(),
      details: Nullable(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { description: 'General error envelope' },
);

type ErrorStatus = 400 | 401 | 403 | 404 | 422 | 429;

/**
 * Error responses for a route's OpenAPI description. Error bodies are
 * serialized as built (see error-handler.ts), so these document, not filter.
 */
export function errorResponses(...statuses: ErrorStatus[]) {
  const schemas: Partial<Record<ErrorStatus, TSchema>> = {};
  for (const status of statuses) {
    schemas[status] =
      status === 422 ? ValidationErrorBody
      : status === 400 ? Type.Union([ValidationErrorBody, ErrorEnvelopeBody])
      : status === 404 ? Type.Union([MessageBody, ErrorEnvelopeBody])
      : ErrorEnvelopeBody;
  }
  return schemas;
}
