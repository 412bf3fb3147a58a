import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { decode, decodeDocument, encode, type BencodeDict } from '../../src/tracker/bencode.ts';
import { MetainfoError, magnetLink, parseTorrent, torrentForUser, type Metainfo } from '../../src/tracker/metainfo.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const ANNOUNCE = 'https://tracker.example/bt/announce.php';
const options = { maxBytes: 1024 * 1024, announceUrl: ANNOUNCE };

function parse(torrent: Buffer, overrides: Partial<typeof options> = {}): Metainfo {
  return parseTorrent(torrent, { ...options, ...overrides });
}

function refused(torrent: Buffer | string, pattern: RegExp): void {
  assert.throws(
    () => parse(typeof torrent === 'string' ? Buffer.from(torrent, 'latin1') : torrent),
    (error: unknown) => {
      assert.ok(error instanceof MetainfoError, `expected a MetainfoError, got ${String(error)}`);
      assert.match(error.message, pattern);
      assert.match(error.message, /\.$/, 'a sentence');
      return true;
    },
  );
}

/** The info dictionary's bytes inside a .torrent, as the decoder found them. */
function infoBytes(torrent: Buffer): Buffer {
  const span = decodeDocument(torrent).spans.get('info')!;
  return torrent.subarray(span.start, span.end);
}

/** A bencoded torrent built by hand (for malformed cases the fixture maker will not produce). */
function raw(info: Record<string, unknown>, top: Record<string, unknown> = {}): Buffer {
  return encode({ announce: 'x', ...top, info } as never);
}

const v1Info = { name: 'file.bin', 'piece length': 16384, length: 100, pieces: Buffer.alloc(20) };

describe('parseTorrent: v1, v2 and hybrid', () => {
  it('reads a single-file v1 torrent: name, size, pieces, one file, creation date', () => {
    const data = randomBytes(40_000);
    const facts = parse(makeTorrent({ name: 'single.iso', files: data }));
    assert.equal(facts.version, 'v1');
    assert.equal(facts.name, 'single.iso');
    assert.equal(facts.size, 40_000);
    assert.equal(facts.pieceLength, 16384);
    assert.equal(facts.pieceCount, 3);
    assert.deepEqual(facts.files, [{ path: 'single.iso', size: 40_000 }]);
    assert.equal(facts.creationDate, '2023-11-14T22:13:20.000Z');
    assert.match(facts.infoHashV1!, /^[0-9a-f]{40}$/);
    assert.equal(facts.infoHashV2, null);
  });

  it('reads a multi-file v1 torrent with paths relative to its folder', () => {
    const facts = parse(
      makeTorrent({
        name: 'Album',
        files: [
          { path: ['CD1', '01 Intro.flac'], data: randomBytes(30_000) },
          { path: ['cover.jpg'], data: randomBytes(5_000) },
        ],
      }),
    );
    assert.deepEqual(facts.files, [
      { path: 'CD1/01 Intro.flac', size: 30_000 },
      { path: 'cover.jpg', size: 5_000 },
    ]);
    assert.equal(facts.size, 35_000);
    assert.equal(facts.pieceCount, 3);
  });

  it('reads a v2 torrent: SHA-256 hash only, files from the file tree', () => {
    const facts = parse(
      makeTorrent({
        version: 'v2',
        name: 'Show',
        files: [
          { path: ['S01', 'E01.mkv'], data: randomBytes(50_000) },
          { path: ['S01', 'E02.mkv'], data: randomBytes(10_000) },
          { path: ['empty.txt'], data: Buffer.alloc(0) },
        ],
      }),
    );
    assert.equal(facts.version, 'v2');
    assert.equal(facts.infoHashV1, null);
    assert.match(facts.infoHashV2!, /^[0-9a-f]{64}$/);
    assert.deepEqual(facts.files, [
      { path: 'S01/E01.mkv', size: 50_000 },
      { path: 'S01/E02.mkv', size: 10_000 },
      { path: 'empty.txt', size: 0 },
    ]);
    assert.equal(facts.size, 60_000);
    assert.equal(facts.pieceCount, 4 + 1); // pieces never span files in v2
  });

  it('reads a hybrid torrent: both hashes, padding files left out of the list', () => {
    const facts = parse(
      makeTorrent({
        version: 'hybrid',
        name: 'Both',
        files: [
          { path: ['a.bin'], data: randomBytes(20_000) },
          { path: ['b.bin'], data: randomBytes(20_000) },
        ],
      }),
    );
    assert.equal(facts.version, 'hybrid');
    assert.match(facts.infoHashV1!, /^[0-9a-f]{40}$/);
    assert.match(facts.infoHashV2!, /^[0-9a-f]{64}$/);
    assert.deepEqual(facts.files, [
      { path: 'a.bin', size: 20_000 },
      { path: 'b.bin', size: 20_000 },
    ]);
    assert.equal(facts.size, 40_000);
  });

  it('keeps non-ASCII names, with or without a name.utf-8 beside them', () => {
    assert.equal(parse(makeTorrent({ name: 'Фильм (2024) ✓', info: { 'name.utf-8': 'Фильм (2024) ✓' } })).name, 'Фильм (2024) ✓');
    assert.equal(parse(makeTorrent({ name: '映画 2024' })).name, '映画 2024');
  });
});

describe('parseTorrent: the rewrite that makes a torrent ours', () => {
  it('sets info.private = 1, sets announce to the tracker, removes announce-list, keeps the rest', () => {
    const original = makeTorrent({ top: { 'announce-list': [['http://a/ann'], ['http://b/ann']], comment: 'hello' }, info: { source: 'XYZ' } });
    const facts = parse(original);
    const rewritten = decode(facts.torrent) as BencodeDict;
    assert.equal(rewritten.get('announce')!.toString(), ANNOUNCE);
    assert.equal(rewritten.has('announce-list'), false);
    assert.equal(rewritten.get('comment')!.toString(), 'hello');
    const info = rewritten.get('info') as BencodeDict;
    assert.equal(info.get('private'), 1);
    assert.equal(info.get('source')!.toString(), 'XYZ');
  });

  it('computes the hashes on the rewritten info dictionary (SHA-1 and SHA-256 of its exact bytes)', () => {
    const facts = parse(makeTorrent({ version: 'hybrid' }));
    const bytes = infoBytes(facts.torrent);
    assert.equal(facts.infoHashV1, createHash('sha1').update(bytes).digest('hex'));
    assert.equal(facts.infoHashV2, createHash('sha256').update(bytes).digest('hex'));
  });

  it('changes the hash of a public torrent (private flag added), and keeps that of one already private', () => {
    const publicTorrent = makeTorrent();
    const ourPublic = parse(publicTorrent);
    assert.notEqual(ourPublic.infoHashV1, createHash('sha1').update(infoBytes(publicTorrent)).digest('hex'));
    const privateTorrent = makeTorrent({ info: { private: 1 } });
    assert.equal(parse(privateTorrent).infoHashV1, createHash('sha1').update(infoBytes(privateTorrent)).digest('hex'));
  });

  it('gives the same hashes when our own output is uploaded again (duplicates are recognised)', () => {
    const first = parse(makeTorrent({ version: 'hybrid' }));
    const again = parse(first.torrent);
    assert.equal(again.infoHashV1, first.infoHashV1);
    assert.equal(again.infoHashV2, first.infoHashV2);
  });

  it('writes the same bytes as encoding the whole file again, whether its keys were in order or not', () => {
    for (const version of ['v1', 'v2', 'hybrid'] as const) {
      const original = makeTorrent({ version, top: { comment: 'hi', 'url-list': ['http://seed.example/'] }, info: { source: 'X' } });
      const top = decode(original) as BencodeDict;
      const expected = new Map(top);
      const info = new Map(top.get('info') as BencodeDict);
      info.set('private', 1);
      expected.set('info', info);
      expected.delete('url-list');
      expected.set('announce', Buffer.from(ANNOUNCE));
      assert.deepEqual(parse(original).torrent, encode(expected), `${version}, keys in order`);
      // The same file with its info keys written backwards, as some old tools did.
      const span = decodeDocument(original).spans.get('info')!;
      const members = decodeDocument(original).memberSpans.get('info')!;
      const backwards = Buffer.concat([
        original.subarray(0, span.start),
        Buffer.from('d'),
        ...[...members].reverse().flatMap(([key, at]) => [Buffer.from(`${key.length}:${key}`, 'latin1'), original.subarray(at.start, at.end)]),
        Buffer.from('e'),
        original.subarray(span.end),
      ]);
      assert.equal(decodeDocument(backwards).canonical, false);
      assert.deepEqual(parse(backwards).torrent, encode(expected), `${version}, keys out of order`);
    }
  });

  it('keeps the v2 piece layers', () => {
    const facts = parse(makeTorrent({ version: 'v2', files: randomBytes(100_000) }));
    const layers = (decode(facts.torrent) as BencodeDict).get('piece layers') as BencodeDict;
    assert.equal(layers.size, 1);
  });
});

describe('parseTorrent refuses, saying why', () => {
  it('an empty file and a file over the size limit', () => {
    refused(Buffer.alloc(0), /empty/);
    assert.throws(() => parse(makeTorrent(), { maxBytes: 100 }), /is \d+ bytes, more than the limit of 100 bytes\./);
    assert.throws(() => parse(Buffer.alloc(2 * 1024 * 1024, 0x64)), /is 2 MiB, more than the limit of 1 MiB\./);
  });

  it('what is not bencode, or not a dictionary, or has no info dictionary', () => {
    refused('<html>not a torrent</html>', /not a valid \.torrent \(bencode\)/);
    refused('d8:announce1:x', /not a valid \.torrent \(bencode\): unexpected end of input/);
    refused('li1ee', /not a bencoded dictionary/);
    refused('d8:announce1:xe', /no info dictionary/);
    refused('d4:infoi1ee', /no info dictionary/);
  });

  it('nesting bombs', () => {
    refused(`d4:info${'l'.repeat(5000)}${'e'.repeat(5000)}e`, /nesting deeper than 64/);
  });

  it('an info dictionary without name, piece length, or any pieces', () => {
    refused(raw({ ...v1Info, name: undefined }), /non-empty "name"/);
    refused(raw({ ...v1Info, name: '' }), /non-empty "name"/);
    refused(raw({ ...v1Info, 'piece length': 0 }), /positive "piece length"/);
    refused(raw({ ...v1Info, 'piece length': '16384' }), /positive "piece length"/);
    refused(raw({ ...v1Info, pieces: undefined }), /neither "pieces" \(v1\) nor "meta version" 2/);
    refused(raw({ ...v1Info, pieces: Buffer.alloc(19) }), /20-byte SHA-1 hashes/);
    refused(raw({ ...v1Info, 'meta version': 3 }), /unknown "meta version"/);
  });

  it('pieces that do not match the size, and both or neither of length and files', () => {
    refused(raw({ ...v1Info, length: 20000 }), /has 1 piece hash, but its files need 2 pieces of 16,384 bytes\./);
    refused(raw({ ...v1Info, files: [{ length: 1, path: ['a'] }] }), /exactly one of "length" \(one file\) and "files"/);
    refused(raw({ ...v1Info, length: undefined }), /exactly one of "length"/);
    refused(raw({ ...v1Info, length: -5 }), /"length" of 0 or more bytes/);
  });

  it('a total size of zero', () => {
    refused(raw({ ...v1Info, length: 0, pieces: Buffer.alloc(0) }), /20-byte SHA-1 hashes/);
    refused(makeTorrent({ version: 'v2', files: [{ path: ['empty'], data: Buffer.alloc(0) }] }), /total size of 0 bytes/);
  });

  it('unsafe file paths: "..", absolute, empty parts, slashes, drive letters', () => {
    const multi = (path: unknown[]) => raw({ ...v1Info, length: undefined, files: [{ length: 100, path }] });
    refused(multi(['..', 'etc', 'passwd']), /"\.\.\/etc\/passwd" is refused: a part is "\.\."/);
    refused(multi(['a', '', 'b']), /a part is empty/);
    refused(multi(['/etc', 'passwd']), /contains a slash/);
    refused(multi(['a\\..\\b']), /contains a slash/);
    refused(multi(['C:', 'x']), /drive letter/);
    refused(multi([]), /has no "path"/);
    refused(multi(['.']), /a part is "\."/);
    refused(raw({ ...v1Info, name: '..' }), /The torrent's name is "\.\."/);
    refused(
      raw({
        ...v1Info,
        length: undefined,
        files: [
          { length: 50, path: ['a'] },
          { length: 50, path: ['a'] },
        ],
      }),
      /listed twice/,
    );
  });

  it('unsafe paths in a v2 file tree', () => {
    refused(
      makeTorrent({ version: 'v2', name: 'x', files: [{ path: ['..', 'evil'], data: randomBytes(100) }] }),
      /The file path "\.\." is refused: a part is "\.\."/,
    );
  });

  it('a v2 torrent with a bad piece length, a missing pieces root or missing piece layers', () => {
    refused(makeTorrent({ version: 'v2', info: { 'piece length': 1000 } }), /power of two of at least 16 KiB/);
    const tree = new Map([['f', new Map([['', { length: 10 }]])]]);
    refused(raw({ name: 'f', 'piece length': 16384, 'meta version': 2, 'file tree': tree }), /32-byte "pieces root"/);
    refused(makeTorrent({ version: 'v2', files: randomBytes(100_000), top: { 'piece layers': {} } }), /no complete entry for the file/);
    refused(raw({ name: 'f', 'piece length': 16384, 'meta version': 2, 'file tree': {} }), /non-empty "file tree"/);
  });

  it('a hybrid torrent whose v1 and v2 halves describe different files', () => {
    const v2Part = decode(makeTorrent({ version: 'v2', name: 'same', files: randomBytes(1000) })) as BencodeDict;
    const info = v2Part.get('info') as BencodeDict;
    info.set('length', 2000);
    info.set('pieces', Buffer.alloc(20));
    refused(encode(v2Part), /describe different files/);
  });
});

describe('torrentForUser', () => {
  it("puts the user's announce URL in and leaves the info dictionary byte for byte", () => {
    const facts = parse(makeTorrent({ version: 'hybrid' }));
    const personal = torrentForUser(facts.torrent, 'https://tracker.example/bt/announce.php?uk=AbCdEfGhIjKlMnOpQrSt');
    assert.equal((decode(personal) as BencodeDict).get('announce')!.toString(), 'https://tracker.example/bt/announce.php?uk=AbCdEfGhIjKlMnOpQrSt');
    assert.deepEqual(infoBytes(personal), infoBytes(facts.torrent));
    assert.equal(parse(personal).infoHashV1, facts.infoHashV1);
  });

  it('works on a Uint8Array view (SQLite returns those)', () => {
    const facts = parse(makeTorrent());
    const padded = new Uint8Array(facts.torrent.length + 8);
    padded.set(facts.torrent, 4);
    const view = padded.subarray(4, 4 + facts.torrent.length);
    assert.deepEqual(infoBytes(torrentForUser(view, 'u')), infoBytes(facts.torrent));
  });
});

describe('magnetLink', () => {
  it('names v1 and v2 hashes, name, size and the personal tracker', () => {
    const link = magnetLink(
      { info_hash_v1: 'a'.repeat(40), info_hash_v2: 'b'.repeat(64), name: 'Два файла & more', size: 1234 },
      'https://t.example/bt/announce.php?uk=K',
    );
    assert.equal(
      link,
      `magnet:?xt=urn:btih:${'a'.repeat(40)}&xt=urn:btmh:1220${'b'.repeat(64)}&dn=${encodeURIComponent('Два файла & more')}&xl=1234&tr=${encodeURIComponent('https://t.example/bt/announce.php?uk=K')}`,
    );
    assert.doesNotMatch(magnetLink({ info_hash_v1: 'a'.repeat(40), info_hash_v2: null, name: 'x', size: 1 }, 'u'), /btmh/);
  });
});
