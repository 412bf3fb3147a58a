// Request validation: Ajv compiles each route's TypeBox schema, and Ajv's
// errors become `{field: [message]}` in Laravel's wording, every failing
// field at once, nested fields dotted (sprite_params.x, applies_to.0). The
// messages are the reader's language's (docs/i18n.md): English for the API.
//
// Two rules hold for every request part and every form, whatever the route's
// schema says (docs/security.md, "Input validation"):
// - an integer written as text (path, query string, form field) must be
//   spelled canonically (`16`, never `+16`, `016`, `0x10`, `1.6e1`);
// - no string holds a NUL character or an unpaired surrogate: neither can be
//   stored as UTF-8 text (PostgreSQL refuses NUL outright).
import { Ajv, type ErrorObject, type Options, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { FieldErrors } from './errors.ts';
import { isIntegerText, isStorableId } from './integers.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t, tn } from '../i18n/messages.ts';

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
  // A title or name a reader can see: zero-width, format and other invisible characters alone count as missing.
  ajv.addKeyword({
    keyword: 'visible',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, data: string) => !enabled || hasVisibleCharacter(data),
  });
  // A name shows all of itself (user names): no invisible character anywhere, and the error names the one found.
  const noInvisible: SchemaValidateFunction = (enabled: boolean, data: string) => {
    const found = enabled ? invisibleCharacter(data) : undefined;
    noInvisible.errors = found === undefined ? [] : [{ keyword: 'noInvisible', params: { character: found } }];
    return found === undefined;
  };
  ajv.addKeyword({ keyword: 'noInvisible', type: 'string', schemaType: 'boolean', errors: true, validate: noInvisible });
  // A reference to a row: an integer that is no id at all is "selected … is invalid", like an unknown one.
  ajv.addKeyword({
    keyword: 'reference',
    type: 'number',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, data: number) => !enabled || isStorableId(data),
  });
  ajv.addKeyword({
    keyword: 'webAddress',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, data: string) => !enabled || data === '' || isWebAddress(data),
  });
  return ajv;
}

/**
 * A character that shows: a letter, digit, punctuation or symbol that is not
 * default-ignorable (zero-width joiners, bidi marks, Hangul fillers, variation
 * selectors) and not the blank braille pattern. White space, controls, format
 * characters and lone combining marks do not count.
 */
const VISIBLE = /(?![\p{Default_Ignorable_Code_Point}\u2800])[\p{L}\p{N}\p{P}\p{S}]/u;

export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text);
}

/**
 * A character that shows nothing, or nothing of its own: default-ignorable
 * code points (zero-width joiners, the combining grapheme joiner U+034F,
 * variation selectors, Mongolian free variation selectors, Hangul fillers,
 * bidi controls, tags), other format characters (Cf) and the blank braille
 * pattern. `admin` with one of them looks exactly like `admin`.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/u;

/** The first invisible character of `text` as `U+034F`, or undefined. */
export function invisibleCharacter(text: string): string | undefined {
  const found = INVISIBLE.exec(text)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * An http(s) URL with a host, or a path on this site (`/…`, but not `//…` or
 * `/\…`, which browsers read as another host). No white space or controls;
 * anything else (`javascript:`, `data:`, relative paths) is refused.
 */
export function isWebAddress(text: string): boolean {
  if (/[\s\p{Cc}]/u.test(text)) return false;
  if (text.startsWith('/')) return !/^\/[/\\]/.test(text);
  // The host right after `//`: WHATWG URL parsing would read `https:///x` as host `x`.
  if (!/^https?:\/\/[^/\\]/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** NUL or a UTF-16 surrogate without its pair. */
const UNSTORABLE = /[\0\p{Cs}]/u;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

// Bodies are JSON: a number is not a string and "5" is not 5. Query strings
// and path parameters are always text, so those are coerced.
const bodyAjv = createAjv({ coerceTypes: false });
const textAjv = createAjv({ coerceTypes: true });

type Check = ValidateFunction & ((data: unknown, context?: unknown) => boolean);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const text = httpPart !== 'body';
  return onFirstUse(() => withTextRules(schema, (text ? textAjv : bodyAjv).compile(schema) as Check, text));
};

/**
 * A check compiled when it is first called, not when its route is registered:
 * compiling every route's schemas took most of a start-up (serialization.ts).
 */
function onFirstUse(compile: () => Check): Check {
  let check: Check | undefined;
  const lazy = ((data: unknown, context?: unknown): boolean => {
    check ??= compile();
    const valid = context === undefined ? check(data) : check(data, context);
    lazy.errors = check.errors;
    return valid;
  }) as Check;
  lazy.errors = null;
  return lazy;
}

/**
 * Ajv's validator with the two rules every part obeys. Integer text is read
 * before Ajv coerces it (Ajv takes `0x10` for 16); strings are checked after,
 * only where the schema declares them.
 */
function withTextRules(schema: object, validate: Check, text: boolean): Check {
  const integers = text ? integerPlan(schema) : null;
  const strings = textPlan(schema);
  const checked = ((data: unknown, context?: unknown): boolean => {
    const integerErrors = nonCanonicalIntegers(integers, data);
    const valid = context === undefined ? validate(data) : validate(data, context);
    const ajvErrors = valid ? [] : (validate.errors ?? []);
    const textErrors = unstorableStrings(strings, data);
    if (integerErrors.length === 0 && textErrors.length === 0) {
      checked.errors = valid ? null : ajvErrors;
      return valid;
    }
    const replaced = new Set(integerErrors.map((error) => error.instancePath));
    checked.errors = [...ajvErrors.filter((error) => !replaced.has(error.instancePath)), ...integerErrors, ...textErrors];
    return false;
  }) as Check;
  checked.errors = null;
  if (validate.schemaEnv !== undefined) (checked as { schemaEnv?: unknown }).schemaEnv = validate.schemaEnv;
  return checked;
}

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode | SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/**
 * The values of a schema one rule looks at, planned once per schema: only
 * the branches that lead to such a value are kept, so a request walks a few
 * fields, not its whole schema.
 */
interface Plan {
  /** The rule applies to a string here. */
  here: boolean;
  /** Declared properties on the way: key, its JSON-pointer segment (`/key`), its plan. */
  properties: [string, string, Plan][];
  items: Plan | null;
  branches: Plan[];
}

function typesOf(node: SchemaNode): string[] {
  return node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
}

/** The plan for the values where `applies` holds, or null when the schema has none. */
function planOf(node: SchemaNode, applies: (types: string[]) => boolean): Plan | null {
  if (typeof node !== 'object' || node === null) return null;
  const here = applies(typesOf(node));
  const properties: [string, string, Plan][] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const plan = planOf(child, applies);
    if (plan !== null) properties.push([key, `/${escapePointer(key)}`, plan]);
  }
  // Tuple schemas (`items` as an array) do not occur in our routes; their items are left to Ajv.
  const items = node.items !== undefined && !Array.isArray(node.items) ? planOf(node.items, applies) : null;
  const branches = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]
    .map((branch) => planOf(branch, applies))
    .filter((plan): plan is Plan => plan !== null);
  return here || properties.length > 0 || items !== null || branches.length > 0 ? { here, properties, items, branches } : null;
}

/** Calls `visit` for every string the plan looks at. It goes only as deep as the schema, however deep the input. */
function walkStrings(plan: Plan, value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (plan.here && typeof value === 'string') visit(value, path);
  for (const branch of plan.branches) walkStrings(branch, value, path, visit);
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    if (plan.items !== null) for (let index = 0; index < value.length; index++) walkStrings(plan.items, value[index], `${path}/${index}`, visit);
  } else {
    const record = value as Record<string, unknown>;
    for (const [key, pointer, child] of plan.properties) {
      if (Object.hasOwn(record, key)) walkStrings(child, record[key], path + pointer, visit);
    }
  }
}

/** Integer fields given as text (query strings, path parameters, forms). */
function integerPlan(schema: object): Plan | null {
  return planOf(schema as SchemaNode, (types) => types.includes('integer'));
}

/** Fields that may hold a string: typed string, or untyped (an enum, a const). */
function textPlan(schema: object): Plan | null {
  return planOf(schema as SchemaNode, (types) => types.length === 0 || types.includes('string'));
}

function nonCanonicalIntegers(plan: Plan | null, data: unknown): ErrorObject[] {
  if (plan === null) return [];
  let errors: Map<string, ErrorObject> | undefined;
  walkStrings(plan, data, '', (text, path) => {
    if (text === '' || isIntegerText(text)) return;
    (errors ??= new Map()).set(path, { instancePath: path, schemaPath: '#/type', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' });
  });
  return errors === undefined ? [] : [...errors.values()];
}

function unstorableStrings(plan: Plan | null, data: unknown): ErrorObject[] {
  if (plan === null) return [];
  let errors: Map<string, ErrorObject> | undefined;
  walkStrings(plan, data, '', (text, path) => {
    if (isStorableText(text)) return;
    (errors ??= new Map()).set(path, {
      instancePath: path,
      schemaPath: '#',
      keyword: 'storableText',
      params: {},
      message: 'must not contain NUL or unpaired surrogates',
    });
  });
  return errors === undefined ? [] : [...errors.values()];
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export type FormCheck<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const formValidators = new WeakMap<object, Check>();

/** The validator of a form's schema, compiled once: form fields are text, so values are coerced. */
function formValidator(schema: object): Check {
  let validate = formValidators.get(schema);
  if (validate === undefined) {
    validate = withTextRules(schema, textAjv.compile(schema) as Check, true);
    formValidators.set(schema, validate);
  }
  return validate;
}

/**
 * Route validator for the bodies of page forms (`PageRoutes` form routes):
 * the fields are text, checked exactly as checkForm checks them.
 */
export const formValidatorCompiler: FastifySchemaCompiler<object> = ({ schema }) => onFirstUse(() => formValidator(schema));

/**
 * Validate a submitted HTML form against the same schema (and so with the same
 * messages) the API uses. Form fields are text, so values are coerced.
 */
export function checkForm<S extends TSchema>(schema: S, data: unknown): FormCheck<Static<S>> {
  const validate = formValidator(schema);
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
    // "contains an invisible character (U+200D)" says more than "format is invalid".
    if (error.keyword === 'pattern' && errors.some((other) => other.keyword === 'noInvisible' && other.instancePath === error.instancePath)) return false;
    if (error.keyword === 'anyOf') {
      return !errors.some((other) => other !== error && other.instancePath === error.instancePath && other.keyword !== 'anyOf');
    }
    return true;
  });

  for (const error of meaningful) {
    const base = error.instancePath.split('/').slice(1).map(unescapePointer).join('.');
    if (error.keyword === 'required') {
      const field = joinField(base, String(error.params['missingProperty']));
      add(field, t('validation.required', { field: fieldName(field) }));
      continue;
    }
    const field = base === '' ? 'body' : base;
    add(field, messageFor(error, fieldName(field)));
  }
  return result;
}

/**
 * Laravel's message for a failed rule, in the reader's language: the API's
 * requests have none, so the API answers in the contract's English. Limits
 * are written as the contract writes them (`10000`) in every language; their
 * number still chooses the plural form.
 */
function messageFor(error: ErrorObject, name: string): string {
  const params = error.params as Record<string, unknown>;
  const field = { field: name };
  const count = Number(params['limit']);
  const limited = { field: name, limit: String(params['limit']) };
  switch (error.keyword) {
    case 'notBlank':
    case 'visible':
      return t('validation.required', field);
    case 'reference':
      return t('validation.selected', field);
    case 'noInvisible':
      return t('validation.invisible', { ...field, character: String(params['character']) });
    case 'webAddress':
      return t('validation.web_address', field);
    case 'storableText':
      return t('validation.storable', field);
    case 'minLength':
      return count === 1 ? t('validation.required', field) : tn('validation.min_length', count, limited);
    case 'maxLength':
      return tn('validation.max_length', count, limited);
    case 'minimum':
      return t('validation.minimum', limited);
    case 'maximum':
      return t('validation.maximum', limited);
    case 'minItems':
      return count === 1 ? t('validation.required', field) : tn('validation.min_items', count, limited);
    case 'maxItems':
      return tn('validation.max_items', count, limited);
    case 'uniqueItems':
      return t('validation.unique_items', field);
    case 'pattern':
      return t('validation.pattern', field);
    case 'format':
      return params['format'] === 'email' ? t('validation.email', field) : t('validation.format', { ...field, format: String(params['format']) });
    case 'enum':
      return isFlagEnum(params['allowedValues']) ? t('validation.boolean', field) : t('validation.selected', field);
    case 'const':
      return t('validation.selected', field);
    case 'type':
      return typeMessage(name, String(params['type']));
    default:
      return t('validation.invalid', field);
  }
}

function typeMessage(name: string, expected: string): string {
  const type = expected.split(',').find((part) => part !== 'null') ?? expected;
  const field = { field: name };
  switch (type) {
    case 'integer':
      return t('validation.integer', field);
    case 'number':
      return t('validation.number', field);
    case 'string':
      return t('validation.string', field);
    case 'boolean':
      return t('validation.boolean', field);
    case 'array':
      return t('validation.array', field);
    case 'object':
      return t('validation.object', field);
    default:
      return t('validation.invalid', field);
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
