import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  BencodeError,
  BencodeRaw,
  byteKey,
  decode,
  decodeDocument,
  encode,
  keyBytes,
  keyText,
  type BencodeDict,
  type BencodeValue,
} from '../../src/tracker/bencode.ts';

const b = (text: string): Buffer => Buffer.from(text, 'latin1');

function decodes(text: string | Buffer): BencodeValue {
  return decode(typeof text === 'string' ? b(text) : text);
}

function refuses(input: string | Buffer, pattern: RegExp, options = {}): void {
  assert.throws(
    () => decode(typeof input === 'string' ? b(input) : input, options),
    (error: unknown) => error instanceof BencodeError && pattern.test(error.message),
  );
}

describe('bencode decode', () => {
  it('reads integers, including negative ones and zero', () => {
    assert.equal(decodes('i0e'), 0);
    assert.equal(decodes('i42e'), 42);
    assert.equal(decodes('i-42e'), -42);
    assert.equal(decodes('i9007199254740991e'), Number.MAX_SAFE_INTEGER);
  });

  it('keeps integers beyond 2^53 exact as bigint', () => {
    assert.equal(decodes('i9007199254740993e'), 9007199254740993n);
    assert.equal(decodes('i-123456789012345678901234567890e'), -123456789012345678901234567890n);
    assert.deepEqual(encode(decodes('i9007199254740993e') as bigint), b('i9007199254740993e'));
  });

  it('reads byte strings as Buffers, binary content untouched', () => {
    const binary = Buffer.from([0x00, 0xff, 0x80, 0xc3, 0x28, 0x0a]);
    const value = decodes(Buffer.concat([b('6:'), binary]));
    assert.ok(Buffer.isBuffer(value));
    assert.deepEqual(value, binary);
    assert.deepEqual(decodes('0:'), Buffer.alloc(0));
  });

  it('reads lists and nested dictionaries', () => {
    const value = decodes('d4:listli1ei2e3:abce3:subd1:xi1eee') as BencodeDict;
    assert.deepEqual(value.get('list'), [1, 2, b('abc')]);
    const sub = value.get('sub') as BencodeDict;
    assert.deepEqual(sub.get('x'), 1);
  });

  it('keeps binary dictionary keys byte for byte (what the `bencode` package corrupts)', () => {
    const hashA = randomBytes(20);
    const hashB = Buffer.from('c3a9ff00fe80'.repeat(4).slice(0, 40), 'hex'); // invalid UTF-8 inside
    const scrape = encode({
      files: new Map([
        [byteKey(hashA), { complete: 1 }],
        [byteKey(hashB), { complete: 2 }],
      ]),
    });
    const files = (decode(scrape) as BencodeDict).get('files') as BencodeDict;
    const keys = [...files.keys()].map(keyBytes);
    assert.equal(keys.length, 2);
    assert.ok(keys.some((key) => key.equals(hashA)));
    assert.ok(keys.some((key) => key.equals(hashB)));
    assert.deepEqual(encode(decode(scrape)), scrape);
  });

  it('reads UTF-8 keys as text through keyText', () => {
    const value = decode(encode(new Map([[byteKey('Фильм.mkv'), 1]]))) as BencodeDict;
    assert.equal(keyText([...value.keys()][0]!), 'Фильм.mkv');
  });

  it('reports the byte span of each top-level value, so a hash can be taken on the original bytes', () => {
    const info = b('d4:name3:abc6:lengthi5ee'); // keys deliberately unsorted: kept as sent
    const torrent = Buffer.concat([b('d8:announce3:url4:info'), info, b('e')]);
    const { value, spans } = decodeDocument(torrent);
    const span = spans.get('info')!;
    assert.deepEqual(torrent.subarray(span.start, span.end), info);
    assert.equal(createHash('sha1').update(torrent.subarray(span.start, span.end)).digest('hex'), createHash('sha1').update(info).digest('hex'));
    assert.ok((value as BencodeDict).has('info'));
  });

  it("reports the spans of the members of each top-level dictionary (info's own members)", () => {
    const torrent = b('d8:announce3:url4:infod6:lengthi5e4:name3:abc5:piecel1:xee3:subi1ee');
    const { memberSpans } = decodeDocument(torrent);
    const info = memberSpans.get('info')!;
    const at = (key: string) => torrent.toString('latin1', info.get(key)!.start, info.get(key)!.end);
    assert.deepEqual([...info.keys()], ['length', 'name', 'piece']);
    assert.equal(at('length'), 'i5e');
    assert.equal(at('name'), '3:abc');
    assert.equal(at('piece'), 'l1:xe');
    assert.deepEqual([...memberSpans.keys()], ['info'], 'only dictionaries have members');
  });

  it('tells whether every dictionary had its keys in order, that is, whether encoding gives the input back', () => {
    for (const [input, canonical] of [
      ['d1:ai1e1:bd1:xi1e1:yi2eee', true],
      ['d1:bi2e1:ai1ee', false],
      ['d1:ad1:yi1e1:xi2eee', false], // nested
      ['ld1:bi1e1:ai2eee', false], // in a list
      ['d1:ald2:zz0:2:aa0:eee', false], // deep down
    ] as const) {
      const decoded = decodeDocument(b(input));
      assert.equal(decoded.canonical, canonical, input);
      assert.equal(encode(decoded.value).equals(b(input)), canonical, input);
    }
  });

  it('refuses integers that are not canonical (leading zero, -0, no digits)', () => {
    refuses('i03e', /leading zero/);
    refuses('i-0e', /negative zero/);
    refuses('ie', /without digits/);
    refuses('i-e', /without digits/);
    refuses('i1', /end of input|terminated/);
    refuses('i1.5e', /not terminated/);
    refuses('i+1e', /not terminated|without digits/);
  });

  it('refuses an integer with an absurd number of digits', () => {
    refuses(`i${'9'.repeat(1000)}e`, /more than 80 digits/);
  });

  it('refuses string lengths that are not canonical or missing the colon', () => {
    refuses('03:abc', /leading zero/);
    refuses('3abc', /not followed by ":"/);
    refuses('-1:a', /unexpected byte/);
  });

  it('never trusts a length prefix: a huge length fails at once, without allocating', () => {
    refuses('999999999999999:abc', /only 3 bytes remain/);
    refuses('4:abc', /string of 4 bytes but only 3 bytes remain/);
    refuses(`${'9'.repeat(100)}:x`, /more than 15 digits/);
    refuses('d3:key99999999:e', /only 1 bytes remain/);
  });

  it('refuses nesting deeper than the limit (depth bomb) without overflowing the stack', () => {
    refuses('l'.repeat(100_000) + 'e'.repeat(100_000), /nesting deeper than 64/);
    refuses(`${'d1:a'.repeat(65)}i1e${'e'.repeat(65)}`, /nesting deeper than 64/);
    assert.doesNotThrow(() => decodes('l'.repeat(64) + 'e'.repeat(64)));
    refuses('l'.repeat(4) + 'e'.repeat(4), /nesting deeper than 3/, { maxDepth: 3 });
  });

  it('refuses an input larger than maxBytes', () => {
    refuses('3:abc', /more than the limit of 4/, { maxBytes: 4 });
    assert.deepEqual(decode(b('3:abc'), { maxBytes: 5 }), b('abc'));
  });

  it('refuses truncated input, trailing bytes, empty input and stray bytes', () => {
    refuses('', /empty input/);
    refuses('l', /end of input/);
    refuses('d3:abc', /end of input/);
    refuses('d3:abci1e', /end of input/);
    refuses('i1ei2e', /after the end/);
    refuses('3:abcx', /after the end/);
    refuses('x', /unexpected byte 0x78/);
    refuses('e', /unexpected byte 0x65/);
  });

  it('stops at the most values and keys it is allowed to read, as it reads them', () => {
    assert.deepEqual(decode(b('d1:ali1ei2eee'), { maxItems: 5 }), new Map([['a', [1, 2]]])); // the dictionary, its key, the list, two integers
    refuses('d1:ali1ei2eee', /more than 4 values and keys \(at byte 8\)/, { maxItems: 4 });
    refuses(`l${'le'.repeat(100_000)}e`, /more than 1000 values and keys \(at byte 1999\)/, { maxItems: 1000 });
  });

  it('refuses dictionary keys that are not strings and duplicate keys', () => {
    refuses('di1ei2ee', /key is not a byte string/);
    refuses('dli1ee1:ae', /key is not a byte string/);
    refuses('d1:ai1e1:ai2ee', /duplicate dictionary key/);
    refuses('d1:ae', /unexpected byte 0x65/); // key without a value
  });

  it('accepts dictionaries whose keys are out of order (old tools wrote them) and re-encodes them sorted', () => {
    const value = decodes('d1:bi2e1:ai1ee');
    assert.deepEqual(encode(value as BencodeDict), b('d1:ai1e1:bi2ee'));
  });

  it('gives the offset of the failure', () => {
    assert.throws(
      () => decodes('li1ei02ee'),
      (error: unknown) => error instanceof BencodeError && error.offset === 4,
    );
  });
});

describe('bencode encode', () => {
  it('writes every kind canonically', () => {
    assert.deepEqual(encode(0), b('i0e'));
    assert.deepEqual(encode(-7), b('i-7e'));
    assert.deepEqual(encode(12345678901234567890n), b('i12345678901234567890e'));
    assert.deepEqual(encode('spam'), b('4:spam'));
    assert.deepEqual(encode(''), b('0:'));
    assert.deepEqual(encode([1, 'a', []]), b('li1e1:alee'));
    assert.deepEqual(encode({}), b('de'));
  });

  it('writes text as UTF-8 with the byte length as prefix', () => {
    assert.deepEqual(encode('é'), Buffer.concat([b('2:'), Buffer.from('é', 'utf8')]));
  });

  it('sorts plain-object keys by their UTF-8 bytes, not by UTF-16 units', () => {
    // U+FF5E (ｾ-range) is EF BD 9E in UTF-8; U+1F600 is F0 9F 98 80: bytes order F0 after EF,
    // while UTF-16 puts the surrogate D83D before FF5E.
    const encoded = encode({ '\u{1F600}': 1, '\uFF5E': 2, a: 3 });
    const keys = [...(decode(encoded) as BencodeDict).keys()].map(keyText);
    assert.deepEqual(keys, ['a', '\uFF5E', '\u{1F600}']);
  });

  it('sorts Map keys as raw bytes (0x80 after 0x7f, 0x00 first)', () => {
    const map = new Map<string, number>([
      ['\x80', 1],
      ['\x7f', 2],
      ['\x00', 3],
      ['\x7f\x00', 4],
    ]);
    assert.deepEqual(encode(map), b('d1:\x00i3e1:\x7fi2e2:\x7f\x00i4e1:\x80i1ee'));
  });

  it('leaves out undefined members of plain objects', () => {
    assert.deepEqual(encode({ a: 1, b: undefined }), b('d1:ai1ee'));
  });

  it('inserts raw pieces verbatim (an info dictionary kept byte for byte)', () => {
    const info = b('d1:zi1e1:ai2ee'); // not canonical on purpose
    assert.deepEqual(encode({ announce: 'x', info: new BencodeRaw(info) }), b('d8:announce1:x4:infod1:zi1e1:ai2eee'));
  });

  it('refuses what bencode cannot hold', () => {
    assert.throws(() => encode(1.5), /not a safe integer/);
    assert.throws(() => encode(Number.NaN), /not a safe integer/);
    assert.throws(() => encode(null as never), /cannot encode null/);
    assert.throws(() => encode(true as never), /cannot encode boolean/);
    assert.throws(() => encode(new Map([['\u0100', 1]])), /byte string/);
  });

  it('round-trips random binary documents exactly', () => {
    for (let round = 0; round < 50; round++) {
      const doc = new Map<string, BencodeValue>();
      for (let index = 0; index < 10; index++) {
        doc.set(byteKey(randomBytes(1 + (index % 7))), [randomBytes(index * 3), index - 5, new Map([[byteKey(randomBytes(4)), randomBytes(2)]])]);
      }
      const once = encode(doc);
      assert.deepEqual(encode(decode(once)), once);
    }
  });
});
