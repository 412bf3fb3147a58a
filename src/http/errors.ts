// The error types every module throws; http/error-handler.ts turns them into
// the response shapes of the contract.

/** field (dotted for nested: sprite_params.x, applies_to.0) → messages */
export type FieldErrors = Record<string, string[]>;

/** 422 (or 400 on search endpoints): `{message, errors}`. */
export class ValidationError extends Error {
  readonly errors: FieldErrors;
  readonly status: 400 | 422;

  constructor(errors: FieldErrors, status: 400 | 422 = 422) {
    super(summarize(errors));
    this.name = 'ValidationError';
    this.errors = errors;
    this.status = status;
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** Collects field errors from several checks, so every failing field is reported at once. */
export class FieldErrorBag {
  readonly errors: FieldErrors = {};

  add(field: string, message: string): void {
    const messages = (this.errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }

  has(field: string): boolean {
    return this.errors[field] !== undefined;
  }

  get isEmpty(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  throwIfAny(): void {
    if (!this.isEmpty) throw new ValidationError(this.errors);
  }

  /** What `read` returns; a ValidationError it throws joins the bag instead (undefined), so every field is reported at once. */
  collect<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const [field, messages] of Object.entries(error.errors)) for (const message of messages) this.add(field, message);
      return undefined;
    }
  }
}

/** "The title field is required. (and 2 more errors)", as Laravel words it. */
function summarize(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  return more === 0 ? first : `${first} (and ${more} more error${more === 1 ? '' : 's'})`;
}

/** 404 `{message}` for catalog models: "No query results for model [EmojiAlias] 999." */
export class ModelNotFoundError extends Error {
  constructor(model: string, id: number | string) {
    super(`No query results for model [${model}] ${id}.`);
    this.name = 'ModelNotFoundError';
  }
}

/** 404 `{message}` with a message of the resource's own wording ("Word filter not found."). */
export class ResourceNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceNotFoundError';
  }
}

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Anything answered in the general envelope `{success:false, message, error:{code, message, details}}`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | null;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = options.details ?? null;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

export interface ErrorEnvelope {
  success: false;
  message: string;
  error: { code: ErrorCode; message: string; details: Record<string, unknown> | null };
}

export function errorEnvelope(code: ErrorCode, message: string, details: Record<string, unknown> | null = null): ErrorEnvelope {
  return { success: false, message, error: { code, message, details } };
}

/**
 * A submission refused for a reason that is not in its fields (an expired
 * CSRF token: 403; posting too fast: 429). The page shows the form again
 * with what was typed, the message above it, and this status.
 */
export interface FormRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}
