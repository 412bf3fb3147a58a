// What an uploader is told about a malformed .torrent (src/tracker/metainfo.ts),
// in the reader's language: the bencode parser's problems (a BencodeError's
// code, said by metainfo.ts) and the checks of the info dictionary, with the
// bencode keys named as the file format spells them and counts in each
// language's plural forms. Outside a request (the API, the import) and for an
// English reader it is the English of test/tracker/metainfo.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asReader, type Reader } from '../../src/i18n/context.ts';
import { BencodeError, decode, encode } from '../../src/tracker/bencode.ts';
import { MetainfoError, parseTorrent } from '../../src/tracker/metainfo.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const RUSSIAN: Reader = { locale: 'ru', timeZone: 'UTC' };
const ENGLISH: Reader = { locale: 'en', timeZone: 'UTC' };

/** The refusal of `torrent`, as `reader` reads it. */
function refusal(reader: Reader | null, torrent: Buffer | string): string {
  const bytes = typeof torrent === 'string' ? Buffer.from(torrent, 'latin1') : torrent;
  const parse = () => parseTorrent(bytes, { maxBytes: 1024 * 1024, announceUrl: 'https://tracker.example/bt/announce.php' });
  try {
    if (reader === null) parse();
    else asReader(reader, parse);
  } catch (error) {
    assert.ok(error instanceof MetainfoError, `expected a MetainfoError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('the torrent was accepted');
}

/** A bencoded torrent built by hand, as test/tracker/metainfo.test.ts does. */
function raw(info: Record<string, unknown>): Buffer {
  return encode({ announce: 'x', info } as never);
}

const v1Info = { name: 'file.bin', 'piece length': 16384, length: 100, pieces: Buffer.alloc(20) };
const withFiles = (files: unknown) => raw({ ...v1Info, length: undefined, files });
const withPath = (path: unknown[]) => withFiles([{ length: 100, path }]);

/**
 * A Russian sentence: Cyrillic, and no Latin word but the names the file format
 * and the trade use (the bencode keys in «», "bencode", "info", ".torrent", "SHA-1", "v2").
 */
function assertRussian(message: string): void {
  assert.match(message, /[а-яё]/i, `Cyrillic: ${message}`);
  const left = message
    .replace(/«[^»]*»/g, '')
    .replace(/\.torrent|\bbencode\b|\binfo\b|\bSHA-1\b|\bUTF-8\b|\bU\+[0-9A-F]{4,6}\b|\bv[12]\b|\b0x[0-9a-f]{2}\b/g, '');
  assert.doesNotMatch(left, /[a-z]/i, `no English left in: ${message}`);
}

describe('malformed .torrent diagnostics in the reader’s language', () => {
  // [torrent, Russian, English]
  const cases: [string, Buffer | string, string, string][] = [
    [
      'bencode cut short',
      'd8:announce1:x',
      'Это неправильный .torrent-файл (bencode): файл неожиданно обрывается (на байте 14).',
      'The file is not a valid .torrent (bencode): unexpected end of input (at byte 14).',
    ],
    [
      'a non-canonical integer',
      'd1:ai03ee',
      'Это неправильный .torrent-файл (bencode): целое число с ведущим нулём (на байте 4).',
      'The file is not a valid .torrent (bencode): integer with a leading zero (at byte 4).',
    ],
    [
      'a stray byte',
      'x',
      'Это неправильный .torrent-файл (bencode): неожиданный байт 0x78 (на байте 0).',
      'The file is not a valid .torrent (bencode): unexpected byte 0x78 (at byte 0).',
    ],
    [
      'a missing piece length',
      raw({ ...v1Info, 'piece length': undefined }),
      'В словаре info должно быть положительное значение «piece length».',
      'The info dictionary needs a positive "piece length".',
    ],
    [
      'an empty files list',
      withFiles([]),
      'Значение «files» в словаре info должно быть непустым списком.',
      'The "files" of the info dictionary must be a non-empty list.',
    ],
    [
      'a files entry that is not a dictionary',
      withFiles([{ length: 1, path: ['a'] }, 7]),
      'Файл № 2 в списке «files» — не словарь.',
      'File 2 of the "files" list is not a dictionary.',
    ],
    ['a file without a path', withPath([]), 'У файла № 1 нет «path».', 'File 1 has no "path".'],
    ['a torrent named ".."', raw({ ...v1Info, name: '..' }), 'Имя торрента — «..».', 'The torrent\'s name is "..".'],
    [
      'a path that climbs out',
      withPath(['..', 'etc', 'passwd']),
      'Путь файла «../etc/passwd» не принят: одна из его частей — «..».',
      'The file path "../etc/passwd" is refused: a part is "..".',
    ],
    [
      'a path with an empty part',
      withPath(['a', '', 'b']),
      'Путь файла «a//b» не принят: одна из его частей — пустая строка.',
      'The file path "a//b" is refused: a part is empty.',
    ],
    [
      'a drive letter',
      withPath(['C:', 'x']),
      'Путь файла «C:/x» не принят: одна из его частей — буква диска.',
      'The file path "C:/x" is refused: a part is a drive letter.',
    ],
    [
      'a file listed twice',
      withFiles([
        { length: 50, path: ['a'] },
        { length: 50, path: ['a'] },
      ]),
      'Файл «a» указан дважды.',
      'The file "a" is listed twice.',
    ],
    [
      'too few piece hashes',
      raw({ ...v1Info, length: 20000 }),
      'В торренте хеши для 1 части, а его файлы делятся на 2 части по 16\u00a0384 байта.',
      'The torrent has 1 piece hash, but its files need 2 pieces of 16,384 bytes.',
    ],
    [
      'too many piece hashes',
      raw({ ...v1Info, pieces: Buffer.alloc(5 * 20) }),
      'В торренте хеши для 5 частей, а его файлы делятся на 1 часть по 16\u00a0384 байта.',
      'The torrent has 5 piece hashes, but its files need 1 piece of 16,384 bytes.',
    ],
    [
      'hashes for 2 pieces of 21',
      raw({ ...v1Info, 'piece length': 1000, length: 20_500, pieces: Buffer.alloc(2 * 20) }),
      'В торренте хеши для 2 частей, а его файлы делятся на 21 часть по 1\u00a0000 байт.',
      'The torrent has 2 piece hashes, but its files need 21 pieces of 1,000 bytes.',
    ],
    [
      'a v2 piece length that is not a power of two',
      makeTorrent({ version: 'v2', info: { 'piece length': 1000 } }),
      'В торренте v2 значение «piece length» должно быть степенью двойки, не меньше 16 КиБ.',
      'A v2 torrent needs a "piece length" that is a power of two of at least 16 KiB.',
    ],
    [
      'a v2 file both a file and a folder',
      raw({
        name: 'f',
        'piece length': 16384,
        'meta version': 2,
        'file tree': new Map([
          [
            'd',
            new Map([
              ['', { length: 0 }],
              ['x', {}],
            ]),
          ],
        ]),
      }),
      'Запись «d» в «file tree» — одновременно и файл, и папка.',
      'The "file tree" entry "d" is both a file and a folder.',
    ],
    ['a name over 255 bytes', raw({ ...v1Info, name: 'a'.repeat(300) }), 'Имя торрента длиннее 255 байт.', "The torrent's name is longer than 255 bytes."],
    [
      'a path over 4,096 bytes',
      withPath(['dir', 'c'.repeat(250), ...Array.from({ length: 16 }, () => 'd'.repeat(250))]),
      `Путь файла «dir/${'c'.repeat(96)}…» вместе с именем торрента длиннее 4\u00a0096 байт.`,
      `The file path "dir/${'c'.repeat(96)}…" with the torrent's name is longer than 4,096 bytes.`,
    ],
    [
      'a control character in the name',
      raw({ ...v1Info, name: 'a\nb' }),
      'Имя торрента содержит управляющий символ (U+000A).',
      "The torrent's name contains a control character (U+000A).",
    ],
    [
      'a right-to-left override in a path',
      withPath(['movie\u202evaa.exe']),
      'Путь файла «movie\ufffdvaa.exe» не принят: одна из его частей содержит невидимый символ форматирования U+202E.',
      'The file path "movie\ufffdvaa.exe" is refused: a part contains the invisible formatting character U+202E.',
    ],
    [
      'a name that is not UTF-8',
      raw({ ...v1Info, name: Buffer.from([0x66, 0xff]) }),
      'Имя торрента — не текст в UTF-8.',
      "The torrent's name is not UTF-8 text.",
    ],
    [
      'a name and a name.utf-8 that differ',
      raw({ ...v1Info, name: 'Movie', 'name.utf-8': 'Other' }),
      '«name» и «name.utf-8» торрента — разные имена («Movie» и «Other»); создайте .torrent заново современным клиентом.',
      'The "name" and "name.utf-8" of the torrent are different names ("Movie" and "Other"); make the .torrent again with a current client.',
    ],
    [
      'a path and a path.utf-8 that differ',
      withFiles([{ length: 100, path: ['setup.exe'], 'path.utf-8': ['movie.mkv'] }]),
      '«path» и «path.utf-8» файла называют разные файлы («setup.exe» и «movie.mkv»); создайте .torrent заново современным клиентом.',
      'The "path" and "path.utf-8" of a file name different files ("setup.exe" and "movie.mkv"); make the .torrent again with a current client.',
    ],
    [
      'a file that is the folder of another',
      withFiles([
        { length: 50, path: ['a'] },
        { length: 50, path: ['a', 'b'] },
      ]),
      'Путь «a» — одновременно и файл, и папка файла «a/b».',
      'The path "a" is both a file and the folder of "a/b".',
    ],
    [
      'padding longer than a piece',
      withFiles([
        { length: 10, path: ['a'] },
        { length: 16385, path: ['.pad', '16385'], attr: 'p' },
      ]),
      'Файл выравнивания «.pad/16385» длиннее части (16\u00a0384 байта).',
      'The padding file ".pad/16385" is longer than a piece (16,384 bytes).',
    ],
    [
      'pieces of 1 GiB',
      raw({ ...v1Info, 'piece length': 2 ** 30 }),
      'В словаре info значение «piece length» должно быть не больше 512 МиБ.',
      'The info dictionary needs a "piece length" of at most 512 MiB.',
    ],
  ];

  for (const [what, torrent, russian, english] of cases) {
    it(`${what}: Russian for a Russian reader, English for an English one and outside a request`, () => {
      const said = refusal(RUSSIAN, torrent);
      assert.equal(said, russian);
      assertRussian(said);
      assert.equal(refusal(ENGLISH, torrent), english);
      assert.equal(refusal(null, torrent), english);
    });
  }

  it('counts in Russian plural forms in the bencode parser’s problems', () => {
    const problem = (input: string) => refusal(RUSSIAN, input).replace(/^Это неправильный \.torrent-файл \(bencode\): /, '');
    assert.equal(problem(`i${'9'.repeat(81)}e`), 'в целом числе больше 80 цифр (на байте 1).');
    assert.equal(problem(`${'9'.repeat(16)}:x`), 'в длине строки больше 15 цифр (на байте 0).');
    assert.equal(problem('5:abcd'), 'строка длиной 5 байт, а до конца файла осталось только 4 байта (на байте 0).');
    assert.equal(problem('2:a'), 'строка длиной 2 байта, а до конца файла остался только 1 байт (на байте 0).');
    assert.equal(problem('22:abcdefg'), 'строка длиной 22 байта, а до конца файла осталось только 7 байт (на байте 0).');
    assert.equal(problem(`d4:info${'l'.repeat(100)}${'e'.repeat(100)}e`), 'вложенность глубже 64 уровней (на байте 70).');
    assert.equal(refusal(ENGLISH, '2:a'), 'The file is not a valid .torrent (bencode): string of 2 bytes but only 1 byte remains (at byte 0).');
  });

  it('says every bencode problem in Russian', () => {
    const inputs = ['i1', 'i1.5e', 'ie', 'i-0e', '03:abc', '3abc', 'i1ei2e', 'di1ei2ee', 'd1:ai1e1:ai2ee', 'e'];
    const codes = new Set<string>();
    for (const input of inputs) {
      assert.throws(
        () => decode(Buffer.from(input, 'latin1')),
        (error: unknown) => error instanceof BencodeError && codes.add(error.problem.code) !== undefined,
      );
      assertRussian(refusal(RUSSIAN, input));
    }
    assert.equal(codes.size, inputs.length, 'a different problem each');
  });

  it('keeps a BencodeError’s own message English, for the log', () => {
    assert.throws(
      () => asReader(RUSSIAN, () => decode(Buffer.from('i03e'))),
      (error: unknown) => error instanceof BencodeError && error.message === 'integer with a leading zero (at byte 0)' && error.offset === 0,
    );
  });
});
