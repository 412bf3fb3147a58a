// JSON sent to page forms (issue 27: `{"email": <5,000 nested arrays>}` with
// the guest's CSRF token was a 500 before login). The token goes in the body,
// so the request gets past the token check to whatever reads the form; one
// field is nested thousands of levels deep, as arrays or as objects.
import fc from 'fast-check';

export interface JsonForm {
  payload: string;
  kind: string;
}

/** The form's fields as JSON, one of them (the first besides `_csrf`, else `x`) nested `levels` deep. */
export function deepJsonForm(pairs: ReadonlyArray<readonly [string, string]>, levels: number, shape: 'arrays' | 'objects'): JsonForm {
  const fields = Object.fromEntries(pairs);
  const target = pairs.find(([name]) => name !== '_csrf' && name !== '__proto__')?.[0] ?? 'x';
  const placeholder = '\u0001nested\u0001';
  fields[target] = placeholder;
  const nested = shape === 'arrays' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  return {
    payload: JSON.stringify(fields).replace(JSON.stringify(placeholder), nested),
    kind: `json, ${target} as ${shape} nested ${levels} deep`,
  };
}

/** How deep, and in what shape: deep enough to overflow a recursive copy or walk. */
export function jsonNesting(): fc.Arbitrary<{ levels: number; shape: 'arrays' | 'objects' }> {
  return fc.record({ levels: fc.constantFrom(5_000, 50_000), shape: fc.constantFrom('arrays' as const, 'objects' as const) });
}
