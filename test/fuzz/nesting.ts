// Deeply nested BBCode (issue 27) as hostile text: every costly body of the
// renderer's tests (deep nesting of each tag and of all of them mixed, stray
// closers, unclosed openers, long runs) at a signature's limit, at the size
// of the reported 14 KB reply, and at the body limit. Drawn for every field
// whose text is shown (hostile.ts filteredText, and the plausible values of
// bodies.ts), so a write that stores one is followed, in the same request or
// a later one, by a render of it.
import fc from 'fast-check';
import { BODY_LIMIT, COSTLY_BODIES } from '../forum/bbcode/costly-bodies.ts';

const LENGTHS = [500, 14_000, BODY_LIMIT];

const NESTED_BBCODE: readonly string[] = COSTLY_BODIES.flatMap((body) => LENGTHS.map((length) => body.build(length)));

export function nestedBbcode(): fc.Arbitrary<string> {
  return fc.constantFrom(...NESTED_BBCODE);
}
