// Real .torrent files for tests, made from file contents with our own
// encoder: v1 (BEP 3), v2 (BEP 52: per-file merkle trees of 16 KiB blocks,
// piece layers) and hybrid (both, with v1 padding files so that every file
// starts on a piece boundary).
import { createHash, randomBytes } from 'node:crypto';
import { encode, byteKey, type Encodable } from '../../src/tracker/bencode.ts';

export type FixtureVersion = 'v1' | 'v2' | 'hybrid';

export interface FixtureFile {
  /** Path components inside the torrent's folder (ignored for a single file). */
  path: string[];
  data: Buffer;
}

export interface FixtureOptions {
  name?: string;
  version?: FixtureVersion;
  /** One file (single-file torrent) or several. Default: one file of 40 KiB random bytes. */
  files?: Buffer | FixtureFile[];
  pieceLength?: number;
  /** Extra top-level members (announce-list, comment, …) and info members. */
  top?: Record<string, Encodable>;
  info?: Record<string, Encodable>;
}

const BLOCK = 16 * 1024;
const ZERO = Buffer.alloc(32);

let counter = 0;

/** A valid .torrent; every call makes a new one (random content) unless `files` is given. */
export function makeTorrent(options: FixtureOptions = {}): Buffer {
  counter++;
  const version = options.version ?? 'v1';
  const pieceLength = options.pieceLength ?? 16 * 1024;
  const name = options.name ?? `fixture-${process.pid}-${counter}`;
  const single = options.files === undefined || Buffer.isBuffer(options.files);
  const files: FixtureFile[] = single
    ? [{ path: [name], data: (options.files as Buffer | undefined) ?? randomBytes(40 * 1024) }]
    : (options.files as FixtureFile[]);

  const info: Record<string, Encodable> = { name, 'piece length': pieceLength };
  const top: Record<string, Encodable> = { announce: 'http://elsewhere.example/announce', 'creation date': 1_700_000_000 };

  if (version !== 'v1') {
    const tree = new Map<string, Encodable>();
    const layers = new Map<string, Encodable>();
    for (const file of files) {
      let node = tree;
      for (const component of file.path) {
        const key = byteKey(component);
        let next = node.get(key) as Map<string, Encodable> | undefined;
        if (next === undefined) node.set(key, (next = new Map()));
        node = next;
      }
      const { root, layer } = merkle(file.data, pieceLength);
      node.set('', file.data.length === 0 ? { length: 0 } : { length: file.data.length, 'pieces root': root });
      if (file.data.length > pieceLength) layers.set(root.toString('latin1'), layer);
    }
    info['meta version'] = 2;
    info['file tree'] = tree;
    top['piece layers'] = layers;
  }

  if (version !== 'v2') {
    const stream: Buffer[] = [];
    const list: Encodable[] = [];
    files.forEach((file, index) => {
      stream.push(file.data);
      list.push({ length: file.data.length, path: file.path });
      const rest = file.data.length % pieceLength;
      if (version === 'hybrid' && rest !== 0 && index < files.length - 1) {
        const pad = pieceLength - rest;
        stream.push(Buffer.alloc(pad));
        list.push({ attr: 'p', length: pad, path: ['.pad', String(pad)] });
      }
    });
    const data = Buffer.concat(stream);
    const hashes: Buffer[] = [];
    for (let offset = 0; offset < data.length; offset += pieceLength) {
      hashes.push(
        createHash('sha1')
          .update(data.subarray(offset, offset + pieceLength))
          .digest(),
      );
    }
    info['pieces'] = Buffer.concat(hashes);
    if (single) info['length'] = files[0]!.data.length;
    else info['files'] = list;
  }

  return encode({ ...top, ...options.top, info: { ...info, ...options.info } });
}

/** BEP 52 merkle tree of one file: its root and its piece layer. */
function merkle(data: Buffer, pieceLength: number): { root: Buffer; layer: Buffer } {
  const leaves: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += BLOCK) leaves.push(sha256(data.subarray(offset, offset + BLOCK)));
  const blocksPerPiece = pieceLength / BLOCK;
  const pieces = Math.ceil(data.length / pieceLength);
  let width = 1;
  while (width < leaves.length) width *= 2;
  if (pieces > 1) while (width < blocksPerPiece) width *= 2;
  let level = [...leaves, ...Array.from({ length: width - leaves.length }, () => ZERO)];
  let height = 0;
  let layer = Buffer.alloc(0);
  while (level.length > 1) {
    if (2 ** height === blocksPerPiece) layer = Buffer.concat(level.slice(0, pieces));
    const next: Buffer[] = [];
    for (let index = 0; index < level.length; index += 2) next.push(sha256(Buffer.concat([level[index]!, level[index + 1]!])));
    level = next;
    height++;
  }
  if (2 ** height === blocksPerPiece) layer = Buffer.concat(level.slice(0, pieces));
  return { root: level[0]!, layer };
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/**
 * The costliest upload that is accepted: a valid v1 torrent of as many files
 * as `maxBytes` holds (one byte each, the shortest unique paths), written out
 * by hand (the encoder takes seconds over tens of thousands of entries).
 * `extraPieces` adds piece hashes its size does not need: such a file is
 * refused, but only once all of it is decoded. `name` is ASCII.
 */
export function crowdedTorrent(maxBytes: number, options: { name?: string; extraPieces?: number } = {}): Buffer {
  const name = options.name ?? `crowded-${process.pid}-${++counter}`;
  const pieceLength = 16 * 1024;
  const entry = (index: number) => {
    const path = index.toString(36);
    return `d6:lengthi1e4:pathl${path.length}:${path}ee`;
  };
  const piecesOf = (count: number) => 20 * (Math.ceil(count / pieceLength) + (options.extraPieces ?? 0));
  const around = (count: number, files: string) => {
    const pieces = piecesOf(count);
    return `d8:announce1:x4:infod5:filesl${files}e4:name${name.length}:${name}12:piece lengthi${pieceLength}e6:pieces${pieces}:${'\u0000'.repeat(pieces)}ee`;
  };
  // As many entries as fit, counted before anything is written.
  const frame = around(0, '').length - piecesOf(0) - String(piecesOf(0)).length;
  let count = 0;
  let entries = 0;
  for (;;) {
    const next = entries + entry(count).length;
    const pieces = piecesOf(count + 1);
    if (frame + next + pieces + String(pieces).length > maxBytes) break;
    entries = next;
    count++;
  }
  return Buffer.from(around(count, Array.from({ length: count }, (_, index) => entry(index)).join('')), 'latin1');
}
