// Bencode (BEP 3): decode with limits and exact bytes, encode canonically.
//
// Bytes stay bytes. A byte string decodes to a Buffer (a view into the input,
// never re-decoded as text), and a dictionary to a Map whose keys are *byte
// strings*: JS strings holding one code unit per byte (latin1), so any key,
// binary or UTF-8, survives a round trip unchanged, and comparing two keys
// with `<` compares their raw bytes, which is the order BEP 3 asks for.
// (The popular `bencode` package decodes keys as UTF-8 and so corrupts
// binary keys such as the 20-byte hashes of a scrape reply.) Use
// `keyBytes`/`keyText` to turn a key into bytes or UTF-8 text.
//
// Integers decode to `number` when they are safe integers and to `bigint`
// otherwise, so nothing is rounded and everything re-encodes as it was.
//
// Nothing in the input is trusted: nesting is limited (`maxDepth`), and so is
// the number of values and keys (`maxItems`, counted as they are read, so a
// file of a million tiny lists stops being decoded at the limit), a length
// prefix is checked against the bytes that remain before anything is sliced,
// digit runs are bounded, duplicate keys and trailing bytes are refused.
// The decoder records where each value of a top-level dictionary lies in the
// input (`spans`), and each member of such a value that is itself a
// dictionary (`memberSpans`), so a caller can hash the original bytes of
// `info` or rewrite one member of it without encoding the rest again; and
// whether every dictionary had its keys in order (`canonical`), in which
// case encoding the decoded value gives back the input byte for byte.

export type BencodeValue = number | bigint | Buffer | BencodeValue[] | BencodeDict;
export type BencodeDict = Map<string, BencodeValue>;

/** What `encode` accepts: decoded values, plus text (UTF-8), plain objects and raw pieces. */
export type Encodable =
  | number
  | bigint
  | string
  | Uint8Array
  | BencodeRaw
  | readonly Encodable[]
  | ReadonlyMap<string, Encodable>
  | { readonly [key: string]: Encodable | undefined };

/**
 * What is wrong with the input, as a code and the values its sentence needs, so that a caller can say it in its
 * reader's language (metainfo.ts: the `metainfo.bencode.<code>` texts); `BencodeError.message` says it in English.
 */
export type BencodeProblem =
  | { code: 'too_large'; size: number; limit: number }
  | { code: 'empty' }
  | { code: 'trailing_bytes' }
  | { code: 'too_deep'; limit: number }
  | { code: 'too_many_items'; limit: number }
  | { code: 'unexpected_byte'; byte: number }
  | { code: 'end_of_input' }
  | { code: 'integer_unterminated' }
  | { code: 'integer_without_digits' }
  | { code: 'integer_leading_zero' }
  | { code: 'negative_zero' }
  | { code: 'integer_too_long'; limit: number }
  | { code: 'length_too_long'; limit: number }
  | { code: 'length_leading_zero' }
  | { code: 'length_without_colon' }
  | { code: 'string_too_long'; length: number; remaining: number }
  | { code: 'key_not_string' }
  | { code: 'duplicate_key' };

/** A problem in English, for logs and tests. */
function english(problem: BencodeProblem): string {
  switch (problem.code) {
    case 'too_large':
      return `input is ${problem.size} bytes, more than the limit of ${problem.limit}`;
    case 'empty':
      return 'empty input';
    case 'trailing_bytes':
      return 'unexpected bytes after the end of the value';
    case 'too_deep':
      return `nesting deeper than ${problem.limit} levels`;
    case 'too_many_items':
      return `more than ${problem.limit} values and keys`;
    case 'unexpected_byte':
      return `unexpected byte ${byteHex(problem.byte)}`;
    case 'end_of_input':
      return 'unexpected end of input';
    case 'integer_unterminated':
      return 'integer not terminated by "e"';
    case 'integer_without_digits':
      return 'integer without digits';
    case 'integer_leading_zero':
      return 'integer with a leading zero';
    case 'negative_zero':
      return 'negative zero';
    case 'integer_too_long':
      return `integer has more than ${problem.limit} digits`;
    case 'length_too_long':
      return `string length has more than ${problem.limit} digits`;
    case 'length_leading_zero':
      return 'string length with a leading zero';
    case 'length_without_colon':
      return 'string length not followed by ":"';
    case 'string_too_long':
      return `string of ${problem.length} bytes but only ${problem.remaining} bytes remain`;
    case 'key_not_string':
      return 'dictionary key is not a byte string';
    case 'duplicate_key':
      return 'duplicate dictionary key';
  }
}

/** A byte as bencode problems name it: 0x0a. */
export function byteHex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

export class BencodeError extends Error {
  /** What is wrong, for a sentence in the reader's language. */
  readonly problem: BencodeProblem;
  /** Byte offset in the input where decoding failed. */
  readonly offset: number;

  constructor(problem: BencodeProblem, offset: number) {
    super(`${english(problem)} (at byte ${offset})`);
    this.name = 'BencodeError';
    this.problem = problem;
    this.offset = offset;
  }
}

/** Already-encoded bencode inserted verbatim by `encode` (for example the stored bytes of an info dictionary). */
export class BencodeRaw {
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

export interface DecodeOptions {
  /** Deepest nesting of lists and dictionaries (the top-level value is depth 1). Default 64. */
  maxDepth?: number;
  /** Largest input accepted, in bytes. Default: no limit beyond the input's own length. */
  maxBytes?: number;
  /** Most values and dictionary keys read, all levels together. Default: no limit beyond the input's length. */
  maxItems?: number;
}

/** Where a value lies in the input: [start, end) byte offsets. */
export interface Span {
  start: number;
  end: number;
}

export interface Decoded {
  value: BencodeValue;
  /** For a top-level dictionary: where each key's value lies in the input. */
  spans: Map<string, Span>;
  /** For each member of a top-level dictionary that is a dictionary: where each of its values lies. */
  memberSpans: Map<string, Map<string, Span>>;
  /** Every dictionary's keys were in order, so `encode(value)` is the input itself. */
  canonical: boolean;
}

export const DEFAULT_MAX_DEPTH = 64;

/** Longest digit run in a length prefix (15 digits already exceed any real input). */
const MAX_LENGTH_DIGITS = 15;
/** Longest digit run in an integer: a 256-bit value has 78 digits; nothing legitimate is longer. */
const MAX_INTEGER_DIGITS = 80;

const CHAR_0 = 0x30;
const CHAR_9 = 0x39;
const CHAR_COLON = 0x3a;
const CHAR_MINUS = 0x2d;
const CHAR_D = 0x64;
const CHAR_E = 0x65;
const CHAR_I = 0x69;
const CHAR_L = 0x6c;

export function decode(input: Uint8Array, options: DecodeOptions = {}): BencodeValue {
  return decodeDocument(input, options).value;
}

export function decodeDocument(input: Uint8Array, options: DecodeOptions = {}): Decoded {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (options.maxBytes !== undefined && input.length > options.maxBytes) {
    throw new BencodeError({ code: 'too_large', size: input.length, limit: options.maxBytes }, 0);
  }
  const buffer = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.length);
  const decoder = new Decoder(buffer, maxDepth, options.maxItems ?? Number.POSITIVE_INFINITY);
  if (buffer.length === 0) throw new BencodeError({ code: 'empty' }, 0);
  const value = decoder.value(1);
  if (decoder.position !== buffer.length) {
    throw new BencodeError({ code: 'trailing_bytes' }, decoder.position);
  }
  return { value, spans: decoder.spans, memberSpans: decoder.memberSpans, canonical: decoder.canonical };
}

class Decoder {
  readonly input: Buffer;
  readonly maxDepth: number;
  readonly maxItems: number;
  items = 0;
  position = 0;
  readonly spans = new Map<string, Span>();
  readonly memberSpans = new Map<string, Map<string, Span>>();
  canonical = true;
  /** The top-level key whose value is being read, while at depth 2. */
  #member: Map<string, Span> | null = null;

  constructor(input: Buffer, maxDepth: number, maxItems: number) {
    this.input = input;
    this.maxDepth = maxDepth;
    this.maxItems = maxItems;
  }

  /** Counts a value or key about to be read. */
  item(): void {
    if (++this.items > this.maxItems) throw new BencodeError({ code: 'too_many_items', limit: this.maxItems }, this.position);
  }

  value(depth: number): BencodeValue {
    this.item();
    const byte = this.peek();
    if (byte === CHAR_I) return this.integer();
    if (byte >= CHAR_0 && byte <= CHAR_9) return this.bytes();
    if (byte === CHAR_L || byte === CHAR_D) {
      if (depth > this.maxDepth) throw new BencodeError({ code: 'too_deep', limit: this.maxDepth }, this.position);
      return byte === CHAR_L ? this.list(depth) : this.dict(depth);
    }
    throw new BencodeError({ code: 'unexpected_byte', byte }, this.position);
  }

  peek(): number {
    const byte = this.input[this.position];
    if (byte === undefined) throw new BencodeError({ code: 'end_of_input' }, this.position);
    return byte;
  }

  integer(): number | bigint {
    const start = this.position;
    this.position++; // 'i'
    const negative = this.peek() === CHAR_MINUS;
    if (negative) this.position++;
    const digitsStart = this.position;
    const digits = this.digits(MAX_INTEGER_DIGITS, 'integer_too_long');
    if (this.peek() !== CHAR_E) throw new BencodeError({ code: 'integer_unterminated' }, this.position);
    this.position++;
    if (digits === 0) throw new BencodeError({ code: 'integer_without_digits' }, start);
    if (digits > 1 && this.input[digitsStart] === CHAR_0) throw new BencodeError({ code: 'integer_leading_zero' }, start);
    if (negative && digits === 1 && this.input[digitsStart] === CHAR_0) throw new BencodeError({ code: 'negative_zero' }, start);
    const text = this.input.toString('latin1', start + 1, this.position - 1);
    if (digits <= 15) return Number(text);
    const big = BigInt(text);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  /** Counts a run of ASCII digits (at most `limit`) and moves past it. */
  digits(limit: number, code: 'integer_too_long' | 'length_too_long'): number {
    const start = this.position;
    for (;;) {
      const byte = this.input[this.position];
      if (byte === undefined || byte < CHAR_0 || byte > CHAR_9) break;
      this.position++;
      if (this.position - start > limit) throw new BencodeError({ code, limit }, start);
    }
    return this.position - start;
  }

  bytes(): Buffer {
    const start = this.stringStart();
    return this.input.subarray(start, this.position);
  }

  /** A dictionary key: read straight into a byte string, with no Buffer made for it. */
  key(): string {
    this.item();
    const start = this.stringStart();
    return this.input.toString('latin1', start, this.position);
  }

  /** Reads a string's length prefix and moves past the string; gives where its bytes start. */
  stringStart(): number {
    const start = this.position;
    const digits = this.digits(MAX_LENGTH_DIGITS, 'length_too_long');
    if (digits > 1 && this.input[start] === CHAR_0) throw new BencodeError({ code: 'length_leading_zero' }, start);
    if (this.peek() !== CHAR_COLON) throw new BencodeError({ code: 'length_without_colon' }, this.position);
    const length = Number(this.input.toString('latin1', start, this.position));
    this.position++;
    const remaining = this.input.length - this.position;
    if (length > remaining) {
      throw new BencodeError({ code: 'string_too_long', length, remaining }, start);
    }
    const bytesStart = this.position;
    this.position += length;
    return bytesStart;
  }

  list(depth: number): BencodeValue[] {
    this.position++; // 'l'
    const items: BencodeValue[] = [];
    while (this.peek() !== CHAR_E) items.push(this.value(depth + 1));
    this.position++;
    return items;
  }

  dict(depth: number): BencodeDict {
    this.position++; // 'd'
    const map: BencodeDict = new Map();
    const member = depth === 2 ? this.#member : null;
    let previous: string | null = null;
    while (this.peek() !== CHAR_E) {
      const keyStart = this.position;
      const byte = this.peek();
      if (byte < CHAR_0 || byte > CHAR_9) throw new BencodeError({ code: 'key_not_string' }, keyStart);
      const key = this.key();
      if (map.has(key)) throw new BencodeError({ code: 'duplicate_key' }, keyStart);
      // Byte strings compare as their bytes do (one code unit per byte).
      if (previous !== null && key < previous) this.canonical = false;
      previous = key;
      const valueStart = this.position;
      if (depth === 1) this.#member = this.input[valueStart] === CHAR_D ? new Map() : null;
      map.set(key, this.value(depth + 1));
      if (depth === 1) {
        this.spans.set(key, { start: valueStart, end: this.position });
        if (this.#member !== null) this.memberSpans.set(key, this.#member);
      } else if (member !== null) {
        member.set(key, { start: valueStart, end: this.position });
      }
    }
    this.position++;
    return map;
  }
}

/** Canonical bencode: dictionary keys sorted by their raw bytes, integers without leading zeros. */
export function encode(value: Encodable): Buffer {
  const parts: Uint8Array[] = [];
  encodeInto(value, parts, 0);
  return Buffer.concat(parts);
}

const E = Buffer.from('e');
const L = Buffer.from('l');
const D = Buffer.from('d');

function encodeInto(value: Encodable, parts: Uint8Array[], depth: number): void {
  if (depth > 512) throw new TypeError('bencode: value nested too deeply (cycle?)');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`bencode: ${value} is not a safe integer`);
    parts.push(Buffer.from(`i${value}e`, 'latin1'));
  } else if (typeof value === 'bigint') {
    parts.push(Buffer.from(`i${value}e`, 'latin1'));
  } else if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    parts.push(Buffer.from(`${bytes.length}:`, 'latin1'), bytes);
  } else if (value instanceof Uint8Array) {
    parts.push(Buffer.from(`${value.length}:`, 'latin1'), value);
  } else if (value instanceof BencodeRaw) {
    parts.push(value.bytes);
  } else if (Array.isArray(value)) {
    parts.push(L);
    for (const item of value as readonly Encodable[]) encodeInto(item, parts, depth + 1);
    parts.push(E);
  } else if (value instanceof Map) {
    // Map keys are byte strings (one code unit per byte).
    const keys = [...value.keys()].sort(compareCodeUnits);
    parts.push(D);
    for (const key of keys) {
      if (!isByteString(key)) throw new TypeError('bencode: a Map key must be a byte string (code units 0-255)');
      const bytes = Buffer.from(key, 'latin1');
      parts.push(Buffer.from(`${bytes.length}:`, 'latin1'), bytes);
      encodeInto(value.get(key) as Encodable, parts, depth + 1);
    }
    parts.push(E);
  } else if (typeof value === 'object' && value !== null) {
    // Plain-object keys are text: encoded as UTF-8, sorted by those bytes; undefined members are left out.
    const entries = Object.entries(value as Record<string, Encodable | undefined>)
      .filter((entry): entry is [string, Encodable] => entry[1] !== undefined)
      .map(([key, item]) => [Buffer.from(key, 'utf8'), item] as const)
      .sort((a, b) => Buffer.compare(a[0], b[0]));
    parts.push(D);
    for (const [key, item] of entries) {
      parts.push(Buffer.from(`${key.length}:`, 'latin1'), key);
      encodeInto(item, parts, depth + 1);
    }
    parts.push(E);
  } else {
    throw new TypeError(`bencode: cannot encode ${value === null ? 'null' : typeof value}`);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isByteString(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[^\x00-\xff]/.test(text);
}

/** The raw bytes of a dictionary key. */
export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'latin1');
}

/** A dictionary key read as UTF-8 text (for path components, names). */
export function keyText(key: string): string {
  return Buffer.from(key, 'latin1').toString('utf8');
}

/** The dictionary key for some bytes or UTF-8 text. */
export function byteKey(bytes: Uint8Array | string): string {
  return (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes)).toString('latin1');
}

export function isDict(value: BencodeValue | undefined): value is BencodeDict {
  return value instanceof Map;
}

export function isBytes(value: BencodeValue | undefined): value is Buffer {
  return Buffer.isBuffer(value);
}

export function isInteger(value: BencodeValue | undefined): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}
