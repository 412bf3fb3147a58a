// Cross-check with libtorrent (python3-libtorrent), when this machine has it:
// our fixtures must be torrents a real client accepts, and our hashes the
// ones it computes. Skipped where libtorrent is not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encode } from '../../src/tracker/bencode.ts';
import { parseTorrent } from '../../src/tracker/metainfo.ts';
import { makeTorrent } from '../helpers/torrents.ts';

const PYTHONS = ['/usr/bin/python3', 'python3'];
const python = PYTHONS.find((candidate) => spawnSync(candidate, ['-c', 'import libtorrent'], { stdio: 'ignore' }).status === 0);

const READ = `
import json, sys, libtorrent as lt
out = []
for path in sys.argv[1:]:
    ti = lt.torrent_info(path)
    hashes = ti.info_hashes()
    fs = ti.files()
    out.append({
        'v1': str(hashes.v1) if hashes.has_v1() else None,
        'v2': str(hashes.v2) if hashes.has_v2() else None,
        'private': ti.priv(),
        'name': ti.name(),
        'size': ti.total_size(),
        'files': [[fs.file_path(i), fs.file_size(i)] for i in range(fs.num_files()) if not (fs.file_flags(i) & fs.flag_pad_file)],
        'trackers': [t.url for t in ti.trackers()],
        'web_seeds': [w['url'] for w in ti.web_seeds()],
    })
print(json.dumps(out))
`;

/** A v1 torrent as old BitComet wrote them: plain names in windows-1251, the UTF-8 ones beside them. */
function legacyNames(): Buffer {
  const cp1251 = (text: string) => Buffer.from([...text].map((character) => (character === 'я' ? 0xff : character.charCodeAt(0) - 0x410 + 0xc0)));
  const data = randomBytes(20_000);
  const pieces = [data.subarray(0, 16_384), data.subarray(16_384)].map((piece) => createHash('sha1').update(piece).digest());
  return encode({
    announce: 'http://elsewhere.example/announce',
    info: {
      name: cp1251('Фильмы'),
      'name.utf-8': 'Фильмы',
      'piece length': 16_384,
      pieces: Buffer.concat(pieces),
      files: [{ length: 20_000, path: [cp1251('Серия'), Buffer.from('1.avi')], 'path.utf-8': ['Серия', '1.avi'] }],
    },
  });
}

describe('metainfo agrees with libtorrent', { skip: python === undefined ? 'python3-libtorrent is not installed' : false }, () => {
  it('on v1, v2 and hybrid torrents: hashes, private flag, files, tracker', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-check-'));
    try {
      const cases = [
        makeTorrent({ version: 'v1', files: randomBytes(70_000) }),
        makeTorrent({
          version: 'v1',
          name: 'Folder',
          files: [
            { path: ['a', 'x.bin'], data: randomBytes(20_000) },
            { path: ['y.bin'], data: randomBytes(9_000) },
          ],
        }),
        makeTorrent({ version: 'v2', files: randomBytes(100_000) }),
        makeTorrent({
          version: 'v2',
          name: 'Tree',
          files: [
            { path: ['d', 'one.bin'], data: randomBytes(50_000) },
            { path: ['two.bin'], data: randomBytes(3_000) },
          ],
        }),
        makeTorrent({
          version: 'hybrid',
          name: 'Hybrid',
          files: [
            { path: ['p.bin'], data: randomBytes(40_000) },
            { path: ['q.bin'], data: randomBytes(17_000) },
          ],
        }),
        makeTorrent({ version: 'hybrid', files: randomBytes(33_000), pieceLength: 32 * 1024 }),
        // Web seeds are stripped; plain names in a legacy code page beside their UTF-8 forms name the same files.
        makeTorrent({ top: { 'url-list': ['http://uploader.example/seed/'], httpseeds: ['http://uploader.example/hs'] } }),
        legacyNames(),
      ].map((torrent) => parseTorrent(torrent, { maxBytes: 1024 * 1024, announceUrl: 'http://tracker.test/bt/announce.php' }));
      const paths = cases.map((facts, index) => {
        const path = join(dir, `${index}.torrent`);
        writeFileSync(path, facts.torrent);
        return path;
      });
      const run = spawnSync(python!, ['-c', READ, ...paths], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const seen = JSON.parse(run.stdout) as Array<{
        v1: string | null;
        v2: string | null;
        private: boolean;
        name: string;
        size: number;
        files: [string, number][];
        trackers: string[];
        web_seeds: string[];
      }>;
      cases.forEach((facts, index) => {
        const lt = seen[index]!;
        assert.equal(lt.v1, facts.infoHashV1, `v1 hash of case ${index}`);
        assert.equal(lt.v2, facts.infoHashV2, `v2 hash of case ${index}`);
        assert.equal(lt.private, true);
        assert.equal(lt.name, facts.name);
        assert.deepEqual(lt.trackers, ['http://tracker.test/bt/announce.php']);
        assert.deepEqual(lt.web_seeds, []);
        const prefix = facts.files.length === 1 && facts.files[0]!.path === facts.name ? '' : `${facts.name}/`;
        assert.deepEqual(
          lt.files,
          facts.files.map((file) => [`${prefix}${file.path}`, file.size]),
          `files of case ${index}`,
        );
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
