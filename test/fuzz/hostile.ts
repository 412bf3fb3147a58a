// Hostile values, as fast-check arbitraries: numbers in every spelling a
// parser may get wrong, text that breaks databases and encoders, sizes past
// every limit, and the URL, header and body shapes built from them.
import fc from 'fast-check';
import { nestedBbcode } from './nesting.ts';

/** Integers written the ways a lenient parser accepts and a strict one refuses, and ranges past every column. */
export const NUMBER_SPELLINGS = [
  '+1',
  '01',
  '001',
  '0x10',
  '0o7',
  '0b1',
  '1e3',
  '1E3',
  '1e0',
  '1.0',
  '1.5',
  '-1',
  '-0',
  '0',
  ' 1',
  '1 ',
  '1_000',
  '1,000',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '4611686018427387904',
  '9007199254740993',
  '99999999999999999999',
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
  '١',
  '１',
  '½',
  'true',
  'null',
  '[]',
];

/** Numbers as JSON text: some are not representable as a JS number at all. */
export const JSON_NUMBERS = [
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '4611686018427387904',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '1.5',
  '-0',
  '0',
  '-1',
  '1e-400',
  '123456789012345678901234567890',
];

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', 'x\ud83d'];

/** Text that has broken something somewhere. */
export const HOSTILE_TEXT = [
  '',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(3),
  ...LONE_SURROGATES,
  '\u200b',
  '\u200b\u200c\u200d\ufeff',
  '\u202e\u2066',
  '\u00ad',
  '..',
  '.',
  '../../etc/passwd',
  '%00',
  '%ff',
  '%2e%2e',
  '%',
  '%%',
  '%zz',
  '/',
  '//evil.example',
  '\\\\evil.example',
  '/\t/evil.example/',
  'http://evil.example/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '\\',
  '\\u0000',
  '%s%s%n',
  'ﬀ',
  'İ',
  'ß',
  'Σ',
  'ǅ',
  '🙂',
  '👨‍👩‍👧‍👦',
  '\u0301',
  'e\u0301',
  'Ａｄｍｉｎ',
  'ＡＤＭＩＮ',
  'اختبار',
  'テスト',
  '\u{10ffff}',
  '\uffff',
  '\ufffd',
  ':smile:',
  '::',
  ':a:b:',
  'a*b?c',
  '*',
  '(a+)+$',
  '[',
  '(?',
  '\\w{1,1000}\\w{1,1000}!',
  '(a|aa)+$',
  ...NUMBER_SPELLINGS,
];

/** Long text, from past a column's limit to past the body limit. */
export const HUGE_LENGTHS = [256, 1001, 60_001, 100_001, 1_048_577];

export function hugeText(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom('a', 'é', '🙂', 'word ', '\u0000', '\ud800', '<', 'x!'.padStart(3, ' ')))
    .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
}

/** Long texts that make word filters work hard (the reported stall took a 20 KB post). */
export const FILTER_STRESS = [
  `${'x'.repeat(20_000)}!`,
  'a'.repeat(60_000),
  'word '.repeat(12_000),
  `${'aab'.repeat(7_000)}x`,
  `${'c'.repeat(30_000)}x`,
  `${'buy  now '.repeat(3000)}zz`,
  'ab1'.repeat(20_000),
];

/** Text for fields whose text the word filters read and pages show (titles, bodies, messages, signatures). */
export function filteredText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...FILTER_STRESS) },
    { weight: 3, arbitrary: hostileText() },
    { weight: 2, arbitrary: nestedBbcode() },
  );
}

/** Does a field of this name carry text that word filters read? */
export function isFilteredField(name: string): boolean {
  return /^(title|body|text|message|subject|signature|content|username|name)$/.test(name);
}

/** Text a user could plausibly type, long enough to make a filter work. */
export function wordyText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.constantFrom(
      'Hello there',
      'darn spam buy now',
      'cash123 and more',
      'Привет, мир',
      `${'x'.repeat(20_000)}!`,
      'word '.repeat(4000),
      `${'aab'.repeat(5000)}x`,
    ),
  );
}

export function hostileText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: hugeText() },
    { weight: 2, arbitrary: wordyText() },
  );
}

/** A UTF-16 surrogate without its other half (matched by code unit: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Percent-encodes like encodeURIComponent, but also lone surrogates (as the
 * bytes WTF-8 would give them: invalid UTF-8, which a server must refuse or
 * replace, never crash on).
 */
export function encodeLoose(text: string): string {
  if (text.length < LONG_TEXT) return encodeLooseNow(text);
  let encoded = longEncodings.get(text);
  if (encoded === undefined) {
    if (longEncodings.size >= 200) longEncodings.clear();
    encoded = encodeLooseNow(text);
    longEncodings.set(text, encoded);
  }
  return encoded;
}

/**
 * Long texts come from a few dozen (hugeText, FILTER_STRESS) and are drawn
 * again and again: encoding them once each saved a fifth of a fuzz run.
 * (V8 hashes a string this long by its length, so a look-up costs one comparison.)
 */
const LONG_TEXT = 20_000;
const longEncodings = new Map<string, string>();

function encodeLooseNow(text: string): string {
  // encodeURIComponent does the work a slice at a time; only a lone
  // surrogate, which it refuses, is written by hand.
  let out = '';
  let from = 0;
  for (const match of text.matchAll(LONE_SURROGATE)) {
    const code = match[0].charCodeAt(0);
    out += `${encodeURIComponent(text.slice(from, match.index))}%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    from = match.index + 1;
  }
  return out + encodeURIComponent(text.slice(from));
}

/** A path segment as it appears in the URL (already encoded, or deliberately not). */
export function hostileSegment(valid: readonly string[]): fc.Arbitrary<string> {
  const options: Array<fc.WeightedArbitrary<string>> = [
    { weight: 3, arbitrary: fc.constantFrom(...NUMBER_SPELLINGS).map(encodeLoose) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%00',
        '%ff',
        '%fe%ff',
        '..',
        '.',
        '%2e%2e',
        '%2F',
        '%5C',
        '%',
        '%zz',
        '%c0%ae',
        '%ed%a0%80',
        '~',
        '*',
        ';',
        ';a=b',
        'a%00b',
        '%20',
        '',
      ),
    },
    { weight: 2, arbitrary: hostileText().map((text) => encodeLoose(text.slice(0, 2000))) },
    { weight: 1, arbitrary: fc.constantFrom(501, 2000, 100_000).map((length) => 'x'.repeat(length)) },
  ];
  if (valid.length > 0) {
    options.push({ weight: 4, arbitrary: fc.constantFrom(...valid) });
    options.push({ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...valid), fc.constantFrom(...NON_CANONICAL_FORMS)).map(([value, form]) => form(value)) });
  }
  return fc.oneof(...options);
}

/** Ways to write an existing id so that it is not the canonical decimal (each should be refused). */
export const NON_CANONICAL_FORMS: Array<(id: string) => string> = [
  (id) => `+${id}`,
  (id) => `0${id}`,
  (id) => `${id}.0`,
  (id) => `${id}e0`,
  (id) => `%2B${id}`,
  (id) => `%20${id}`,
  (id) => `0x${Number(id).toString(16)}`,
];

/** Does this text spell an integer in a non-canonical way (a form the canonical decimal would not have)? */
export function nonCanonicalSpellingOf(text: string, existing: readonly number[]): number | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return undefined;
  }
  const trimmed = decoded.trim();
  if (trimmed === '' || /^[1-9]\d*$/.test(decoded)) return undefined;
  const value = /^0x[0-9a-f]+$/i.test(trimmed) ? Number.parseInt(trimmed, 16) : Number(trimmed);
  return Number.isSafeInteger(value) && existing.includes(value) ? value : undefined;
}

export const HOSTS = [
  'localhost',
  'evil.example',
  'localhost:80',
  '[::1',
  '[::1]:80',
  'a b',
  '',
  'x:99999',
  'x:abc',
  'localhost:0',
  'localhost:',
  ':80',
  '..',
  'évil.example',
  'localhost, evil.example',
  'user@evil.example',
  'evil.example/path',
  'a'.repeat(300),
  '%00',
  'localhost\\evil.example',
  '127.0.0.1',
  '[::ffff:127.0.0.1]',
];

/** One or two hostile request headers. */
export function hostileHeaders(): fc.Arbitrary<Record<string, string>> {
  const values: Record<string, readonly string[]> = {
    host: HOSTS,
    accept: [
      'text/html',
      'application/json',
      '*/*',
      'text/html;q=0, application/json',
      'image/png',
      '',
      ',,,;q=abc',
      'application/json;q=0.5, text/html;q=0.6',
      'text/*',
    ],
    'x-request-id': ['', 'a'.repeat(65), '../../etc', '<script>', 'ok-id_1.2', 'a b', '%00', 'é'],
    'x-csrf-token': ['', 'x', 'a'.repeat(10_000), '%00'],
    'x-forwarded-for': ['evil.example', '1.2.3.4, 5.6.7.8', '::1', 'unknown', 'a'.repeat(1000)],
    'x-forwarded-host': ['evil.example', '[::1', ''],
    'x-forwarded-proto': ['https', 'gopher', ''],
    'accept-language': ['*', 'xx-YY;q=2', ',', 'a'.repeat(500)],
    'if-none-match': ['*', '"x"', 'W/', ''],
    'if-modified-since': ['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', ''],
    range: ['bytes=0-0', 'bytes=-1', 'bytes=5-1', 'bytes=0-0,1-1,2-2', 'lines=1-2'],
    authorization: [
      'Bearer',
      'Bearer ',
      `Bearer ${'a'.repeat(10_000)}`,
      `Bearer ${'a'.repeat(201)}`,
      'Basic YWRtaW46YWRtaW4=',
      'Bearer a\tb',
      'Bearer ../../',
      'Token abc',
      '%00',
    ],
    cookie: [
      `forum_session=${'x'.repeat(8000)}`,
      'forum_session=%00',
      'forum_session=',
      '=;;=;',
      'forum_session=a; forum_session=b',
      `forum_csrf=${'y'.repeat(100)}`,
      'forum_session=%E0%A4%A',
      `a=${'b'.repeat(50_000)}`,
    ],
  };
  const header = fc.constantFrom(...Object.keys(values)).chain((name) => fc.constantFrom(...values[name]!).map((value): [string, string] => [name, value]));
  return fc.array(header, { minLength: 1, maxLength: 2 }).map((pairs) => Object.fromEntries(pairs));
}

/** Query pairs: declared names with valid or hostile values, duplicates, array and object syntax, unknown keys. */
export function hostileQuery(names: readonly string[], valid: (name: string) => fc.Arbitrary<string>): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 6, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('q') },
    {
      weight: 1,
      arbitrary: (names.length > 0 ? fc.constantFrom(...names) : fc.constant('q')).chain((name) =>
        fc.constantFrom(`${name}[]`, `${name}[0]`, `${name}[a][b]`, `${name}.x`),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor[prototype][x]', '__proto__[admin]', '', '%00', 'a'.repeat(1000), '%ff') },
  );
  const pair = key.chain((name) =>
    fc.oneof(
      { weight: 3, arbitrary: valid(name).map((value) => `${encodeLoose(name)}=${encodeLoose(value)}`) },
      { weight: 3, arbitrary: hostileText().map((value) => `${encodeLoose(name)}=${encodeLoose(value.slice(0, 110_000))}`) },
      { weight: 2, arbitrary: fc.constantFrom(...NUMBER_SPELLINGS).map((value) => `${encodeLoose(name)}=${encodeLoose(value)}`) },
      { weight: 1, arbitrary: fc.constantFrom('%00', '%ff', '%ed%a0%80', '%', '', '=', '&', 'a'.repeat(100_000)).map((raw) => `${encodeLoose(name)}=${raw}`) },
      { weight: 1, arbitrary: fc.constant(encodeLoose(name)) },
    ),
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&'));
}
