// Request validation: Ajv compiles each route's TypeBox schema, and Ajv's
// errors become `{field: [message]}` in Laravel's wording, every failing
// field at once, nested fields dotted (sprite_params.x, applies_to.0).
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { FieldErrors } from './errors.ts';

// ajv-formats ships CommonJS whose default export is the plugin function.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

/** The values a boolean query parameter accepts. */
export const FLAG_VALUES = ['1', '0', 'true', 'false'] as const;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true, // report every failing field, not only the first
    removeAdditional: true,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  // A required text that is only white space counts as missing.
  ajv.addKeyword({
    keyword: 'notBlank',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, data: string) => !enabled || /\S/u.test(data),
  });
  return ajv;
}

// Bodies are JSON: a number is not a string and "5" is not 5. Query strings
// and path parameters are always text, so those are coerced.
const bodyAjv = createAjv({ coerceTypes: false });
const textAjv = createAjv({ coerceTypes: true });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema) as ValidateFunction;
};

export type FormCheck<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const formValidators = new WeakMap<object, ValidateFunction>();

/**
 * Validate a submitted HTML form against the same schema (and so with the same
 * messages) the API uses. Form fields are text, so values are coerced.
 */
export function checkForm<S extends TSchema>(schema: S, data: unknown): FormCheck<Static<S>> {
  let validate = formValidators.get(schema);
  if (validate === undefined) {
    validate = textAjv.compile(schema);
    formValidators.set(schema, validate);
  }
  const value = structuredClone(data ?? {});
  if (validate(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, errors: fieldErrors(validate.errors ?? []) };
}

/** Ajv errors → field errors with human messages. */
export function fieldErrors(errors: readonly ErrorObject[]): FieldErrors {
  const result: FieldErrors = {};
  const add = (field: string, message: string): void => {
    const messages = (result[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };

  // An anyOf (nullable value, union of literals) reports one error per branch
  // plus its own; the null branch failing and the summary add nothing.
  const meaningful = errors.filter((error) => {
    if (error.keyword === 'type' && error.params['type'] === 'null') return false;
    if (error.keyword === 'anyOf') {
      return !errors.some((other) => other !== error && other.instancePath === error.instancePath && other.keyword !== 'anyOf');
    }
    return true;
  });

  for (const error of meaningful) {
    const base = error.instancePath.split('/').slice(1).map(unescapePointer).join('.');
    if (error.keyword === 'required') {
      const field = joinField(base, String(error.params['missingProperty']));
      add(field, `The ${label(field)} field is required.`);
      continue;
    }
    const field = base === '' ? 'body' : base;
    add(field, messageFor(error, label(field)));
  }
  return result;
}

function messageFor(error: ErrorObject, name: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'notBlank':
      return `The ${name} field is required.`;
    case 'minLength':
      return params['limit'] === 1
        ? `The ${name} field is required.`
        : `The ${name} field must be at least ${String(params['limit'])} characters.`;
    case 'maxLength':
      return `The ${name} field must not be greater than ${String(params['limit'])} characters.`;
    case 'minimum':
      return `The ${name} field must be at least ${String(params['limit'])}.`;
    case 'maximum':
      return `The ${name} field must not be greater than ${String(params['limit'])}.`;
    case 'minItems':
      return params['limit'] === 1
        ? `The ${name} field is required.`
        : `The ${name} field must have at least ${String(params['limit'])} items.`;
    case 'maxItems':
      return `The ${name} field must not have more than ${String(params['limit'])} items.`;
    case 'uniqueItems':
      return `The ${name} field has a duplicate value.`;
    case 'pattern':
      return `The ${name} field format is invalid.`;
    case 'format':
      return params['format'] === 'email'
        ? `The ${name} field must be a valid email address.`
        : `The ${name} field must be a valid ${String(params['format'])}.`;
    case 'enum':
      return isFlagEnum(params['allowedValues'])
        ? `The ${name} field must be true or false.`
        : `The selected ${name} is invalid.`;
    case 'const':
      return `The selected ${name} is invalid.`;
    case 'type':
      return typeMessage(name, String(params['type']));
    default:
      return `The ${name} field is invalid.`;
  }
}

function typeMessage(name: string, expected: string): string {
  const type = expected.split(',').find((t) => t !== 'null') ?? expected;
  switch (type) {
    case 'integer':
      return `The ${name} field must be an integer.`;
    case 'number':
      return `The ${name} field must be a number.`;
    case 'string':
      return `The ${name} field must be a string.`;
    case 'boolean':
      return `The ${name} field must be true or false.`;
    case 'array':
      return `The ${name} field must be an array.`;
    case 'object':
      return `The ${name} field must be an object.`;
    default:
      return `The ${name} field is invalid.`;
  }
}

function isFlagEnum(values: unknown): boolean {
  return Array.isArray(values) && values.length === FLAG_VALUES.length && FLAG_VALUES.every((v) => values.includes(v));
}

function joinField(base: string, property: string): string {
  return base === '' ? property : `${base}.${property}`;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Laravel's attribute label: `emoji_shortcode` → `emoji shortcode`. */
export function label(field: string): string {
  return field.replace(/_/g, ' ');
}
