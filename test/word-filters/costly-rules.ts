// The costliest rule sets and texts the word-filter validator lets through,
// for the cost tests (engine and HTTP) and bench/word-filters.ts: 2,000
// rules of which 600 are regex rules at the limits (100-fold counts, 300
// instructions, DFA-exploding shapes, no literal for the screen), 400
// wildcard rules with many stars, 1,000 exact words; and texts of 100 KB
// made to keep every one of those busy.
import type { ActiveRule } from '../../src/word-filters/engine/rule-book.ts';
import type { FilterType, PatternType } from '../../src/word-filters/rules.ts';

/** Regex shapes at the limits; `{c}` is a character that varies per rule, so no two rules are alike. */
export const COSTLY_REGEX_SHAPES: readonly string[] = [
  '\\w{1,100}{c}', // the reported rule, cut to the limits
  '\\w{1,70}\\w{1,70}{c}', // two counts back to back: 283 instructions
  '(?i)[a-z]{1,100}{c}',
  '.{1,100}{c}',
  '(?s).{100}{c}',
  '[^{c}]{1,100}{c}{c}',
  '(?i)\\b\\w{1,100}\\b{c}',
  '[ab]*a[ab]{100}{c}', // the textbook DFA explosion (2^100 states)
  '(?:\\w|\\s){1,100}{c}',
  '(?:a|aa|ab|b)+\\w{1,90}{c}',
  'aaa\\w{1,100}{c}', // passes the literal screen on text full of a
  '(?i)(?:ab|ba){1,45}{c}',
];

/** Characters appended to the shapes above: punctuation and digits, which ordinary posts have few of. */
const ENDINGS = '!#%&,;:=@~"\'<>`-_0123456789';

export interface CostlyRuleInput {
  pattern: string;
  pattern_type: PatternType;
  filter_type: FilterType;
}

/** `count` rules: 30% regex at the limits, 20% wildcard with many stars, 50% exact words. */
export function costlyRuleInputs(count = 2000): CostlyRuleInput[] {
  const inputs: CostlyRuleInput[] = [];
  const filterType = (i: number): FilterType => (i % 20 === 0 ? 'block' : i % 5 === 0 ? 'moderate' : 'replace');
  for (let i = 0; inputs.length < count * 0.3; i++) {
    const shape = COSTLY_REGEX_SHAPES[i % COSTLY_REGEX_SHAPES.length]!;
    const ending = ENDINGS[Math.floor(i / COSTLY_REGEX_SHAPES.length) % ENDINGS.length]!;
    const variant = Math.floor(i / (COSTLY_REGEX_SHAPES.length * ENDINGS.length));
    // Past the endings, vary the count instead.
    const pattern = shape.replaceAll('{c}', escape(ending)).replace('{1,100}', `{1,${100 - variant}}`);
    inputs.push({ pattern, pattern_type: 'regex', filter_type: filterType(inputs.length) });
  }
  for (let i = 0; inputs.length < count * 0.5; i++) {
    const letters = 'abcdefghij';
    const a = letters[i % 10]!;
    const b = letters[Math.floor(i / 10) % 10]!;
    const shapes = [`*a*${a}*a*${b}*a*x${i}`, `a*a*a*a*${a}${b}${i}`, `*${a}?${b}*${i}`, `a?a?a?a*${a}${i}*`];
    inputs.push({ pattern: shapes[i % shapes.length]!, pattern_type: 'wildcard', filter_type: filterType(inputs.length) });
  }
  for (let i = 0; inputs.length < count; i++) {
    inputs.push({ pattern: `word${i}`, pattern_type: 'exact', filter_type: filterType(inputs.length) });
  }
  return inputs;
}

export function costlyRules(count = 2000): ActiveRule[] {
  return costlyRuleInputs(count).map((input, index) => ({
    id: index + 1,
    ...input,
    replacement: input.filter_type === 'replace' ? '***' : null,
    severity: 'medium',
    case_sensitive: index % 7 === 0,
    applies_to: ['posts'],
  }));
}

function escape(char: string): string {
  return /[\\^$.*+?()[\]{}|-]/.test(char) ? `\\${char}` : char;
}

/**
 * Texts of `length` characters that keep those rules busy: long runs of
 * word characters broken by the rules' end characters, random a/b runs
 * (the DFA explosion), words the exact and wildcard rules are made of.
 */
export function costlyTexts(length = 100_000): Record<string, string> {
  let seed = 7;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const fill = (piece: () => string): string => {
    let text = '';
    while (text.length < length) text += piece();
    return text.slice(0, length);
  };
  return {
    'runs of a and punctuation': fill(() => `${'a'.repeat(150)}${ENDINGS[Math.floor(next() * ENDINGS.length)]} `),
    'random a and b': fill(() => (next() < 0.5 ? 'a' : 'b') + (next() < 0.01 ? ENDINGS[Math.floor(next() * ENDINGS.length)]! : '')),
    'rule words and wildcards': fill(
      () => `word${Math.floor(next() * 3000)} aaaa${'abcdefghij'[Math.floor(next() * 10)]}b${Math.floor(next() * 500)} aXb${Math.floor(next() * 500)} `,
    ),
    'one long word': 'a'.repeat(length),
  };
}
