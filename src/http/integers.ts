// Integer bounds of every id, count, order and page number, defined once.
// Columns are 32-bit integers on both databases; a value past the column's
// range is invalid input (422 on the field, 404 in a path), never a 500.
// Text (path segments, query strings, form fields) must spell an integer the
// canonical decimal way: `16`, not `+16`, `016`, `0x10`, `1.6e1` or ` 16`.

export const INT32_MAX = 2_147_483_647;

export interface IntegerRange {
  readonly minimum: number;
  readonly maximum: number;
}

/** Row ids, in paths and as references in bodies and filters. */
export const ID_RANGE: IntegerRange = { minimum: 1, maximum: INT32_MAX };
/** Counts, display orders, offsets, pixel sizes: anything stored in a 32-bit column from 0. */
export const COUNT_RANGE: IntegerRange = { minimum: 0, maximum: INT32_MAX };
/** `page`: from 1; past the last page a list is empty (API) or 404 (pages). */
export const PAGE_RANGE: IntegerRange = { minimum: 1, maximum: INT32_MAX };

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 100;
export const PER_PAGE_RANGE: IntegerRange = { minimum: 1, maximum: PER_PAGE_MAX };

/** `limit` of the /search endpoints. */
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_RANGE: IntegerRange = { minimum: 1, maximum: 100 };

/** Canonical decimal spelling: optional minus, no leading zero, no plus, no spaces, no exponent. */
const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]*)$/;

export function isIntegerText(text: string): boolean {
  return INTEGER_TEXT.test(text);
}

/** The integer a canonical text spells, when it lies in `range`; otherwise null. */
export function integerFromText(text: string, range: IntegerRange): number | null {
  if (text.length > 11 || !INTEGER_TEXT.test(text)) return null;
  const value = Number(text);
  return value >= range.minimum && value <= range.maximum ? value : null;
}

export function inRange(value: number, range: IntegerRange): boolean {
  return Number.isInteger(value) && value >= range.minimum && value <= range.maximum;
}

/** Whether a number can be a row id. */
export function isStorableId(value: number): boolean {
  return inRange(value, ID_RANGE);
}
