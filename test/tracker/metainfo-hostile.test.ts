// The holes issue 26 found by uploading .torrent files as a cheater would:
// names and paths that clients write differently from what the list shows,
// piece lengths whose check overflowed, a file that is also a folder, huge
// "padding", names no file system takes or that hide their end, and web
// seeds that show members' addresses to the uploader.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { asReader } from '../../src/i18n/context.ts';
import { decode, encode, type BencodeDict, type Encodable } from '../../src/tracker/bencode.ts';
import { MAX_FILES, MAX_ITEMS, MAX_PIECE_LENGTH, MetainfoError, parseTorrent, torrentForUser, type Metainfo } from '../../src/tracker/metainfo.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const options = { maxBytes: 1024 * 1024, announceUrl: 'https://tracker.example/bt/announce.php' };
const KIB = 1024;

function parse(torrent: Buffer): Metainfo {
  return parseTorrent(torrent, options);
}

function refused(torrent: Buffer, pattern: RegExp): void {
  assert.throws(
    () => parse(torrent),
    (error: unknown) => {
      assert.ok(error instanceof MetainfoError, `expected a MetainfoError, got ${String(error)}`);
      assert.match(error.message, pattern);
      assert.match(error.message, /\.$/, 'a sentence');
      return true;
    },
  );
}

function raw(info: Record<string, Encodable | undefined>, top: Record<string, Encodable> = {}): Buffer {
  return encode({ announce: 'x', ...top, info });
}

/** A v1 multi-file torrent of these files (1 byte each unless given), with the right number of piece hashes. */
function v1Files(files: Array<Record<string, Encodable>>, info: Record<string, Encodable | undefined> = {}): Buffer {
  const pieceLength = (info['piece length'] as number | undefined) ?? 16 * KIB;
  const withLengths = files.map((file) => ({ length: 1, ...file }));
  const total = withLengths.reduce((sum, file) => sum + (file['length'] as number), 0);
  return raw({ name: 'folder', 'piece length': pieceLength, pieces: Buffer.alloc(20 * Math.ceil(total / pieceLength)), files: withLengths, ...info });
}

function v1Single(name: Encodable, extra: Record<string, Encodable> = {}): Buffer {
  return raw({ name, 'piece length': 16 * KIB, length: 10, pieces: Buffer.alloc(20), ...extra });
}

/** A v2 file tree from paths (each file 10 bytes, so no piece layers are needed). */
function tree(paths: string[][]): Map<string, Encodable> {
  const root = new Map<string, Encodable>();
  for (const path of paths) {
    let node = root;
    for (const part of path) {
      const key = Buffer.from(part, 'utf8').toString('latin1');
      let next = node.get(key) as Map<string, Encodable> | undefined;
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
    }
    node.set('', { length: 10, 'pieces root': Buffer.alloc(32, 1) });
  }
  return root;
}

function v2(fileTree: Map<string, Encodable>, info: Record<string, Encodable> = {}): Buffer {
  return raw({ name: 'tree', 'piece length': 16 * KIB, 'meta version': 2, 'file tree': fileTree, ...info });
}

describe('plain "name" and "path" are checked like their ".utf-8" forms, and must agree with them', () => {
  it('refuses an unsafe plain path hidden behind a safe path.utf-8 (what older clients would write)', () => {
    refused(v1Files([{ path: ['..', '..', 'evil.sh'], 'path.utf-8': ['evil.sh'] }]), /"\.\.\/\.\.\/evil\.sh" is refused: a part is "\.\."/);
    refused(v1Single('..', { 'name.utf-8': 'fine' }), /The torrent's name is "\.\."/);
    refused(v1Single('a/b', { 'name.utf-8': 'a_b' }), /contains a slash/);
  });

  it('refuses a plain path and a path.utf-8 that name different files', () => {
    refused(v1Files([{ path: ['setup.exe'], 'path.utf-8': ['movie.mkv'] }]), /"path" and "path\.utf-8".*"setup\.exe".*"movie\.mkv"/);
    refused(v1Files([{ path: ['a', 'b'], 'path.utf-8': ['a'] }]), /"path" and "path\.utf-8"/);
    refused(v1Single('Movie', { 'name.utf-8': 'Other' }), /"name" and "name\.utf-8".*"Movie".*"Other"/);
  });

  it('accepts both when they agree: the same bytes, or the same name in a legacy code page (old BitComet torrents)', () => {
    const cyrillic = 'Фильм (2004)';
    const legacy = Buffer.from([0xd4, 0xe8, 0xeb, 0xfc, 0xec, 0x20, 0x28, 0x32, 0x30, 0x30, 0x34, 0x29]); // the same in windows-1251
    assert.equal(new TextDecoder('windows-1251').decode(legacy), cyrillic);
    const facts = parse(v1Files([{ path: [legacy, 'cd1.avi'], 'path.utf-8': [cyrillic, 'cd1.avi'] }], { name: legacy, 'name.utf-8': cyrillic }));
    assert.equal(facts.name, cyrillic);
    assert.deepEqual(facts.files, [{ path: `${cyrillic}/cd1.avi`, size: 1 }]);
    assert.deepEqual(parse(v1Single('same', { 'name.utf-8': 'same' })).name, 'same');
  });

  it('refuses names that are not UTF-8 when no ".utf-8" form says what they are', () => {
    refused(v1Single(Buffer.from([0xd4, 0xe8, 0xeb, 0xfc, 0xec])), /The torrent's name is not UTF-8 text/);
    refused(v1Files([{ path: [Buffer.from([0x66, 0xff])] }]), /is not UTF-8 text/);
  });
});

describe('piece lengths', () => {
  it('refuses a v2 piece length of 2^32 or more that is not a power of two (the check overflowed 32 bits)', () => {
    refused(v2(tree([['a']]), { 'piece length': 2 ** 32 + 16 * KIB }), /power of two of at least 16 KiB/);
    refused(v2(tree([['a']]), { 'piece length': 2 ** 40 + 2 ** 14 }), /power of two of at least 16 KiB/);
    refused(v2(tree([['a']]), { 'piece length': 3 * 2 ** 31 }), /power of two of at least 16 KiB/);
  });

  it('refuses pieces longer than clients load (libtorrent: 512 MiB at most), v1 and v2 alike', () => {
    assert.equal(MAX_PIECE_LENGTH, 512 * 1024 * KIB);
    refused(v2(tree([['a']]), { 'piece length': 2 * MAX_PIECE_LENGTH }), /"piece length" of at most 512 MiB/);
    refused(raw({ name: 'f', 'piece length': 2 ** 50, length: 10, pieces: Buffer.alloc(20) }), /"piece length" of at most 512 MiB/);
    assert.equal(parse(raw({ name: 'f', 'piece length': MAX_PIECE_LENGTH, length: 10, pieces: Buffer.alloc(20) })).pieceLength, MAX_PIECE_LENGTH);
  });
});

describe('a file that is also a folder', () => {
  it('is refused in v1 ("a" beside "a/b", either order)', () => {
    refused(v1Files([{ path: ['a'] }, { path: ['a', 'b'] }]), /The path "a" is both a file and the folder of "a\/b"/);
    refused(v1Files([{ path: ['x', 'a', 'b'] }, { path: ['x', 'a'] }]), /"x\/a" is both a file and the folder of "x\/a\/b"/);
    assert.equal(parse(v1Files([{ path: ['a', 'b'] }, { path: ['ab'] }, { path: ['a', 'c'] }])).files.length, 3);
  });

  it('is refused in v2 and in a hybrid torrent', () => {
    const both = new Map<string, Encodable>([['a', new Map<string, Encodable>([['', { length: 10, 'pieces root': Buffer.alloc(32, 1) }], ...tree([['b']])])]]);
    refused(v2(both), /"a" is both a file and a folder/);
    const hybrid = v1Files(
      [
        { path: ['a'], length: 10 },
        { path: ['a', 'b'], length: 10 },
      ],
      { 'meta version': 2, 'file tree': both },
    );
    refused(hybrid, /both a file and/);
  });
});

describe('padding files (attr "p")', () => {
  it('refuses padding longer than a piece: 1 PiB of "padding" beside a 10-byte file', () => {
    const pieceLength = 16 * KIB;
    refused(
      raw({
        name: 'pad',
        'piece length': pieceLength,
        pieces: Buffer.alloc(20 * 2),
        files: [
          { length: 10, path: ['a'] },
          { length: pieceLength + 1, path: ['.pad', String(pieceLength + 1)], attr: 'p' },
        ],
      }),
      /padding file "\.pad\/16385" is longer than a piece \(16,384 bytes\)/,
    );
    // With pieces of 1 PiB there were only two piece hashes to give: now the piece length is refused first.
    refused(
      raw({
        name: 'pad',
        'piece length': 2 ** 50,
        pieces: Buffer.alloc(20 * 2),
        files: [
          { length: 10, path: ['a'] },
          { length: 2 ** 50, path: ['.pad', 'x'], attr: 'p' },
        ],
      }),
      /"piece length" of at most 512 MiB/,
    );
  });

  it('checks their paths like any other (clients without padding support create them)', () => {
    refused(v1Files([{ path: ['a'] }, { path: ['..', 'evil'], attr: 'p', length: 100 }, { path: ['b'] }]), /"\.\.\/evil" is refused/);
  });

  it('leaves them out of the list and the size: what is shown is the real files and their lengths', () => {
    const facts = parse(
      makeTorrent({
        version: 'hybrid',
        files: [
          { path: ['a.bin'], data: randomBytes(20_000) },
          { path: ['b.bin'], data: randomBytes(100) },
        ],
      }),
    );
    assert.deepEqual(facts.files, [
      { path: 'a.bin', size: 20_000 },
      { path: 'b.bin', size: 100 },
    ]);
    assert.equal(facts.size, 20_100);
  });
});

describe('what a name or path part may be', () => {
  it('refuses parts over 255 bytes and paths over 4,096 bytes (what file systems take)', () => {
    refused(v1Single('a'.repeat(500_000)), /The torrent's name is longer than 255 bytes/);
    refused(v1Single('я'.repeat(128)), /longer than 255 bytes/); // 256 bytes of UTF-8
    assert.equal(parse(v1Single('a'.repeat(255))).name.length, 255);
    refused(v1Files([{ path: ['ok', 'b'.repeat(256)] }]), /a part is longer than 255 bytes/);
    const deep = Array.from({ length: 20 }, () => 'c'.repeat(250));
    refused(v1Files([{ path: deep }]), /longer than 4,096 bytes/);
    refused(v2(tree([deep])), /longer than 4,096 bytes/);
  });

  it('refuses control characters', () => {
    for (const bad of ['new\nline', 'bell\u0007', 'tab\there', 'del\u007f', 'c1\u0085', 'esc\u001b[31m']) {
      refused(v1Single(bad), /The torrent's name contains a control character/);
      refused(v1Files([{ path: ['dir', bad] }]), /a part contains a control character/);
    }
  });

  it('refuses bidirectional overrides and isolates and other invisible format characters', () => {
    const invisible = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200b',
      '\u200e',
      '\u200f',
      '\u061c',
      '\ufeff',
      '\u00ad',
      '\u2060',
      '\u2028',
    ];
    for (const character of invisible) {
      const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      refused(v1Single(`movie${character}vaa.exe`), new RegExp(`invisible formatting character ${code.replace('+', '\\+')}`));
      refused(v1Files([{ path: [`x${character}`] }]), /invisible formatting character/);
      refused(v2(tree([[`x${character}`]])), /invisible formatting character/);
    }
  });

  it('keeps the joiners that scripts and emoji need', () => {
    const persian = 'می\u200cخواهم'; // zero-width non-joiner
    const family = '👨\u200d👩\u200d👧'; // zero-width joiner
    assert.equal(parse(v1Single(persian)).name, persian);
    assert.equal(parse(v1Single(family)).name, family);
  });
});

describe('cheap limits come before the expensive work', () => {
  it(`refuses more than ${MAX_FILES.toLocaleString('en')} files (where the size limit is raised to let them in)`, () => {
    // Written out by hand: the encoder would take seconds over 50,001 entries.
    const names = Array.from({ length: MAX_FILES + 1 }, (_, index) => `${String(index).length}:${index}`);
    const v1 = `d8:announce1:x4:infod5:filesl${names.map((name) => `d6:lengthi1e4:pathl${name}ee`).join('')}e4:name4:many12:piece lengthi16384e6:pieces80:${'\0'.repeat(80)}ee`;
    assert.throws(() => parseTorrent(Buffer.from(v1, 'latin1'), { ...options, maxBytes: 4 * 1024 * 1024 }), /The torrent lists more than 50,000 files\./);
    const leaves = names.map((name) => `${name}d0:d6:lengthi0eee`).sort(); // keys in any order: sorting is not what is tested
    const v2 = `d8:announce1:x4:infod9:file treed${leaves.join('')}e12:meta versioni2e4:name4:many12:piece lengthi16384eee`;
    assert.throws(() => parseTorrent(Buffer.from(v2, 'latin1'), { ...options, maxBytes: 4 * 1024 * 1024 }), /more than 50,000 files/);
  });

  it(`stops decoding past ${MAX_ITEMS.toLocaleString('en')} values and keys (where the size limit is raised to let them in)`, () => {
    const bomb = Buffer.from(`d4:infol${'le'.repeat(MAX_ITEMS)}ee`, 'latin1');
    assert.throws(
      () => parseTorrent(bomb, { ...options, maxBytes: 4 * 1024 * 1024 }),
      /The file is not a valid \.torrent \(bencode\): more than 1,000,000 values and keys \(at byte 2000002\)\./,
    );
    assert.throws(
      () => asReader({ locale: 'ru', timeZone: 'UTC' }, () => parseTorrent(bomb, { ...options, maxBytes: 4 * 1024 * 1024 })),
      /больше 1\u00a0000\u00a0000 значений и ключей/,
    );
  });

  it('counts the pieces against the size before reading any path', () => {
    // One piece hash too many, and a bad path: the piece count is what is said.
    const files = [{ length: 10, path: ['..'] }];
    refused(raw({ name: 'x', 'piece length': 16 * KIB, pieces: Buffer.alloc(40), files }), /has 2 piece hashes, but its files need 1 piece/);
  });
});

describe('web seeds', () => {
  it('are stripped from the stored file (the tracker is private: they would show members to the uploader)', () => {
    const facts = parse(makeTorrent({ top: { 'url-list': ['http://uploader.example/seed/'], httpseeds: ['http://uploader.example/hs'] } }));
    const stored = decode(facts.torrent) as BencodeDict;
    assert.equal(stored.has('url-list'), false);
    assert.equal(stored.has('httpseeds'), false);
    // A single url-list string too.
    assert.equal((decode(parse(makeTorrent({ top: { 'url-list': 'http://uploader.example/' } })).torrent) as BencodeDict).has('url-list'), false);
  });

  it('are stripped from downloads of files stored before (imported torrents, earlier uploads)', () => {
    const stored = makeTorrent({ top: { 'url-list': ['http://uploader.example/seed/'], httpseeds: ['http://uploader.example/hs'] } });
    const personal = decode(torrentForUser(stored, 'https://tracker.example/bt/announce.php?uk=K')) as BencodeDict;
    assert.equal(personal.has('url-list'), false);
    assert.equal(personal.has('httpseeds'), false);
    assert.deepEqual(personal.get('info'), (decode(stored) as BencodeDict).get('info'), 'the info dictionary is untouched');
  });
});
