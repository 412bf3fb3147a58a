// Schema pieces shared by every module's routes, and the helpers that read them.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { COUNT_RANGE, ID_RANGE, INT32_MAX, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_RANGE } from './integers.ts';
import { FLAG_VALUES } from './validation.ts';

// Integers: every id, count and order of every route (API, pages, admin) is
// one of these, so the bounds of http/integers.ts hold everywhere.

/** A row id (1..2147483647). In a path, anything else is a 404 (see error-handler.ts). */
export function Id(description = 'Resource id') {
  return Type.Integer({ ...ID_RANGE, description });
}

/**
 * A reference to another row in a body or a list filter; the service checks
 * that it exists. An integer that cannot be an id is answered like an unknown
 * one: "The selected … is invalid."
 */
export function Reference(description: string) {
  return Type.Integer({ reference: true, description: `${description}; an id, 1 to ${INT32_MAX}` });
}

/** A count, display order or size stored in a 32-bit column: 0 (or `minimum`) up to 2147483647. */
export function Int32(description: string, minimum: number = COUNT_RANGE.minimum) {
  return Type.Integer({ minimum, maximum: COUNT_RANGE.maximum, description });
}

export const IdParams = Type.Object({ id: Id() });

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

/**
 * Required text people read (titles, names, messages): as RequiredText, and
 * holding at least one visible character, so a title of zero-width or
 * format characters alone is "required" too.
 */
/** A string schema allowing exactly `values` (documented as an enum). */
export function OneOf<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) } as TSchema);
}

export function VisibleText(max: number, description?: string) {
  return Type.String({ minLength: 1, maxLength: max, notBlank: true, visible: true, ...(description ? { description } : {}) });
}

/** `q` and `limit` of the /search endpoints (errors there are 400, not 422). */
export const SearchQueryProperties = {
  q: Type.String({ minLength: 1, notBlank: true, description: 'Search text (required)' }),
  limit: Type.Optional(
    Type.Integer({
      ...SEARCH_LIMIT_RANGE,
      default: SEARCH_LIMIT_DEFAULT,
      description: `Results to return (${SEARCH_LIMIT_RANGE.minimum}-${SEARCH_LIMIT_RANGE.maximum})`,
    }),
  ),
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

/** 401, 403, 404 (routes), 405, 409, 413, 429, 500, 503 */
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

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429;

/**
 * Error responses for a route's OpenAPI description. Error bodies are
 * serialized as built (see error-handler.ts), so these document, not filter.
 */
export function errorResponses(...statuses: ErrorStatus[]) {
  const schemas: Partial<Record<ErrorStatus, TSchema>> = {};
  for (const status of statuses) {
    schemas[status] =
      status === 422
        ? ValidationErrorBody
        : status === 400
          ? Type.Union([ValidationErrorBody, ErrorEnvelopeBody])
          : status === 404
            ? Type.Union([MessageBody, ErrorEnvelopeBody])
            : ErrorEnvelopeBody;
  }
  return schemas;
}
