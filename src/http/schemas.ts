// Schema pieces shared by every module's routes, and the helpers that read them.
import { Type, type TSchema } from 'typebox';
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

/** A value of the given schema, or null. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
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
