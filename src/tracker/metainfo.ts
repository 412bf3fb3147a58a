// .torrent files (BEP 3, v1; BEP 52, v2; both: hybrid) → validated facts,
// and the rewrite that makes a torrent this tracker's own: info.private = 1,
// `announce` set to the tracker's URL, `announce-list` removed. The hashes are
// those of the rewritten info dictionary: v1 = SHA-1, v2 = SHA-256.
//
// Every refusal is a MetainfoError whose message is a sentence for the
// uploader ("The .torrent file has no info dictionary.") in the reader's
// language (English for the API and the import), the bencode parser's
// problems (BencodeError.problem) included. The bencode keys it names
// ("piece length", "file tree") stay as the file format spells them.
import { createHash } from 'node:crypto';
import { t, tn } from '../i18n/messages.ts';
import { formatBytes } from '../i18n/sizes.ts';
import {
  BencodeError,
  BencodeRaw,
  byteHex,
  decodeDocument,
  encode,
  isBytes,
  isDict,
  isInteger,
  keyText,
  type BencodeDict,
  type BencodeProblem,
  type BencodeValue,
  type Encodable,
} from './bencode.ts';

export class MetainfoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetainfoError';
  }
}

export type TorrentVersion = 'v1' | 'v2' | 'hybrid';

export interface TorrentFileEntry {
  /** Path components joined with "/" (the torrent's name is not included for multi-file torrents). */
  path: string;
  size: number;
}

export interface Metainfo {
  version: TorrentVersion;
  name: string;
  /** Total bytes of the files (padding files left out). */
  size: number;
  pieceLength: number;
  pieceCount: number;
  files: TorrentFileEntry[];
  /** ISO timestamp, or null when absent or implausible. */
  creationDate: string | null;
  /** Lower-case hex SHA-1 of the rewritten info dictionary; null for v2-only. */
  infoHashV1: string | null;
  /** Lower-case hex SHA-256 of the rewritten info dictionary; null for v1-only. */
  infoHashV2: string | null;
  /** The rewritten .torrent, to store. */
  torrent: Buffer;
}

export interface ParseOptions {
  /** Largest .torrent accepted, in bytes. */
  maxBytes: number;
  /** Written into `announce`. */
  announceUrl: string;
}

/** Deepest nesting accepted: v2 file trees nest one level per directory. */
const MAX_DEPTH = 64;
const V2_BLOCK = 16 * 1024;

/** Validates a .torrent and rewrites it for this tracker. */
export function parseTorrent(bytes: Uint8Array, options: ParseOptions): Metainfo {
  if (bytes.length === 0) throw new MetainfoError(t('metainfo.empty'));
  if (bytes.length > options.maxBytes) {
    throw new MetainfoError(t('metainfo.too_large', { size: formatBytes(bytes.length), limit: formatBytes(options.maxBytes) }));
  }
  let top: BencodeValue;
  try {
    top = decodeDocument(bytes, { maxDepth: MAX_DEPTH }).value;
  } catch (error) {
    if (error instanceof BencodeError) throw new MetainfoError(bencodeRefusal(error));
    throw error;
  }
  if (!isDict(top)) throw new MetainfoError(t('metainfo.not_dictionary'));
  const info = top.get('info');
  if (!isDict(info)) throw new MetainfoError(t('metainfo.no_info'));

  const facts = readInfo(info, top);

  const rewrittenInfo = new Map<string, Encodable>(info);
  rewrittenInfo.set('private', 1);
  const infoBytes = encode(rewrittenInfo);
  const rewritten = new Map<string, Encodable>(top);
  rewritten.delete('announce-list');
  rewritten.set('announce', Buffer.from(options.announceUrl, 'utf8'));
  rewritten.set('info', new BencodeRaw(infoBytes));
  const torrent = encode(rewritten);

  return {
    ...facts,
    infoHashV1: facts.version === 'v2' ? null : createHash('sha1').update(infoBytes).digest('hex'),
    infoHashV2: facts.version === 'v1' ? null : createHash('sha256').update(infoBytes).digest('hex'),
    torrent,
  };
}

/**
 * Validates a .torrent and keeps it as it is: no private flag, no announce
 * rewrite. The hashes are those of the info dictionary's bytes exactly as the
 * file holds them, which is what clients that already have the file announce
 * (the TorrentPier import carries registered torrents over this way).
 */
export function readTorrentAsIs(bytes: Uint8Array, options: { maxBytes: number }): Metainfo {
  if (bytes.length === 0) throw new MetainfoError(t('metainfo.empty'));
  if (bytes.length > options.maxBytes) {
    throw new MetainfoError(t('metainfo.too_large', { size: formatBytes(bytes.length), limit: formatBytes(options.maxBytes) }));
  }
  let decoded: ReturnType<typeof decodeDocument>;
  try {
    decoded = decodeDocument(bytes, { maxDepth: MAX_DEPTH });
  } catch (error) {
    if (error instanceof BencodeError) throw new MetainfoError(bencodeRefusal(error));
    throw error;
  }
  const top = decoded.value;
  if (!isDict(top)) throw new MetainfoError(t('metainfo.not_dictionary'));
  const info = top.get('info');
  const span = decoded.spans.get('info');
  if (!isDict(info) || span === undefined) throw new MetainfoError(t('metainfo.no_info'));
  const facts = readInfo(info, top);
  const infoBytes = Buffer.from(bytes.buffer, bytes.byteOffset + span.start, span.end - span.start);
  return {
    ...facts,
    infoHashV1: facts.version === 'v2' ? null : createHash('sha1').update(infoBytes).digest('hex'),
    infoHashV2: facts.version === 'v1' ? null : createHash('sha256').update(infoBytes).digest('hex'),
    torrent: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}

type InfoFacts = Omit<Metainfo, 'infoHashV1' | 'infoHashV2' | 'torrent'>;

function readInfo(info: BencodeDict, top: BencodeDict): InfoFacts {
  const name = readName(info);
  const pieceLength = info.get('piece length');
  if (!isInteger(pieceLength) || typeof pieceLength !== 'number' || pieceLength <= 0) {
    throw new MetainfoError(t('metainfo.piece_length'));
  }
  const metaVersion = info.get('meta version');
  const hasV2 = metaVersion !== undefined;
  if (hasV2 && metaVersion !== 2) throw new MetainfoError(t('metainfo.meta_version'));
  const hasV1 = info.has('pieces');
  if (!hasV1 && !hasV2) throw new MetainfoError(t('metainfo.no_pieces'));

  const v1 = hasV1 ? readV1(info, name, pieceLength) : null;
  const v2 = hasV2 ? readV2(info, top, pieceLength) : null;
  if (v1 !== null && v2 !== null && !sameFiles(v1.files, v2.files)) {
    throw new MetainfoError(t('metainfo.hybrid_mismatch'));
  }
  const chosen = (v2 ?? v1)!;
  const size = chosen.files.reduce((sum, file) => sum + file.size, 0);
  if (size <= 0) throw new MetainfoError(t('metainfo.empty_torrent'));
  if (!Number.isSafeInteger(size)) throw new MetainfoError(t('metainfo.too_big'));
  return {
    version: v1 !== null && v2 !== null ? 'hybrid' : v2 !== null ? 'v2' : 'v1',
    name,
    size,
    pieceLength,
    pieceCount: chosen.pieceCount,
    files: chosen.files,
    creationDate: readCreationDate(top.get('creation date')),
  };
}

function readName(info: BencodeDict): string {
  const raw = info.get('name.utf-8') ?? info.get('name');
  if (!isBytes(raw) || raw.length === 0) throw new MetainfoError(t('metainfo.no_name'));
  const name = text(raw);
  const problem = componentProblem(name);
  if (problem !== null) throw new MetainfoError(t('metainfo.bad_name', { problem }));
  return name;
}

interface FileList {
  files: TorrentFileEntry[];
  pieceCount: number;
}

function readV1(info: BencodeDict, name: string, pieceLength: number): FileList {
  const pieces = info.get('pieces');
  if (!isBytes(pieces) || pieces.length === 0 || pieces.length % 20 !== 0) {
    throw new MetainfoError(t('metainfo.bad_pieces'));
  }
  const length = info.get('length');
  const list = info.get('files');
  if ((length === undefined) === (list === undefined)) {
    throw new MetainfoError(t('metainfo.length_or_files'));
  }
  let files: TorrentFileEntry[];
  let total: number;
  if (length !== undefined) {
    files = [{ path: name, size: readLength(length, name) }];
    total = files[0]!.size;
  } else {
    if (!Array.isArray(list) || list.length === 0) throw new MetainfoError(t('metainfo.bad_files'));
    files = [];
    total = 0;
    list.forEach((entry, index) => {
      if (!isDict(entry)) throw new MetainfoError(t('metainfo.file_not_dictionary', { number: index + 1 }));
      const rawPath = entry.get('path.utf-8') ?? entry.get('path');
      if (!Array.isArray(rawPath) || rawPath.length === 0) throw new MetainfoError(t('metainfo.file_no_path', { number: index + 1 }));
      const components = rawPath.map((component) => {
        if (!isBytes(component)) throw new MetainfoError(t('metainfo.file_path_part', { number: index + 1 }));
        return text(component);
      });
      const path = components.join('/');
      for (const component of components) {
        const problem = componentProblem(component);
        if (problem !== null) throw new MetainfoError(t('metainfo.bad_path', { path, problem }));
      }
      const size = readLength(entry.get('length'), path);
      total += size;
      const attr = entry.get('attr');
      const padding = isBytes(attr) && attr.includes('p'.charCodeAt(0));
      if (!padding) files.push({ path, size });
    });
    assertUniquePaths(files);
  }
  const pieceCount = pieces.length / 20;
  const needed = Math.ceil(total / pieceLength);
  if (pieceCount !== needed) {
    throw new MetainfoError(tn('metainfo.piece_count', pieceCount, { needed: tn('metainfo.pieces', needed), length: byteCount(pieceLength) }));
  }
  return { files, pieceCount };
}

function readV2(info: BencodeDict, top: BencodeDict, pieceLength: number): FileList {
  if (pieceLength < V2_BLOCK || (pieceLength & (pieceLength - 1)) !== 0) {
    throw new MetainfoError(t('metainfo.v2_piece_length', { size: formatBytes(V2_BLOCK) }));
  }
  const tree = info.get('file tree');
  if (!isDict(tree) || tree.size === 0) throw new MetainfoError(t('metainfo.no_file_tree'));
  const layers = top.get('piece layers');
  if (layers !== undefined && !isDict(layers)) throw new MetainfoError(t('metainfo.piece_layers'));

  const files: TorrentFileEntry[] = [];
  const walk = (node: BencodeDict, path: string[]): void => {
    for (const [key, child] of node) {
      if (key === '') {
        if (path.length === 0) throw new MetainfoError(t('metainfo.unnamed_file'));
        files.push(readV2File(child, path.join('/'), pieceLength, layers));
        continue;
      }
      const component = keyText(key);
      const problem = componentProblem(component);
      const entry = [...path, component].join('/');
      if (problem !== null) throw new MetainfoError(t('metainfo.bad_path', { path: entry, problem }));
      if (!isDict(child)) throw new MetainfoError(t('metainfo.tree_entry', { path: entry }));
      if (child.has('') && child.size > 1) throw new MetainfoError(t('metainfo.file_and_folder', { path: entry }));
      walk(child, [...path, component]);
    }
  };
  walk(tree, []);
  // Paths are relative to the torrent's folder, except a single-file torrent's one file, named like the torrent.
  // v2 pieces never span files.
  const pieceCount = files.reduce((sum, file) => sum + Math.ceil(file.size / pieceLength), 0);
  return { files, pieceCount };
}

function readV2File(value: BencodeValue, path: string, pieceLength: number, layers: BencodeDict | undefined): TorrentFileEntry {
  if (!isDict(value)) throw new MetainfoError(t('metainfo.file_entry', { path }));
  const size = readLength(value.get('length'), path);
  if (size === 0) return { path, size };
  const root = value.get('pieces root');
  if (!isBytes(root) || root.length !== 32) throw new MetainfoError(t('metainfo.pieces_root', { path }));
  if (size > pieceLength) {
    const layer = layers?.get(root.toString('latin1'));
    if (!isBytes(layer) || layer.length !== 32 * Math.ceil(size / pieceLength)) {
      throw new MetainfoError(t('metainfo.no_layer', { path }));
    }
  }
  return { path, size };
}

function readLength(value: BencodeValue | undefined, path: string): number {
  if (!isInteger(value) || typeof value !== 'number' || value < 0) throw new MetainfoError(t('metainfo.file_length', { path }));
  return value;
}

/** Why a path component is unsafe ("is empty", the end of a sentence about a name or path part), or null. */
function componentProblem(component: string): string | null {
  if (component === '') return t('metainfo.part.empty');
  if (component === '.' || component === '..') return t('metainfo.part.dots', { part: component });
  if (/[/\\]/.test(component)) return t('metainfo.part.slash');
  if (component.includes('\u0000')) return t('metainfo.part.nul');
  if (/^[A-Za-z]:$/.test(component)) return t('metainfo.part.drive');
  return null;
}

function assertUniquePaths(files: TorrentFileEntry[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new MetainfoError(t('metainfo.duplicate_path', { path: file.path }));
    seen.add(file.path);
  }
}

function sameFiles(a: TorrentFileEntry[], b: TorrentFileEntry[]): boolean {
  // v1 multi-file order is the file tree's order in a hybrid; compare as sets of path and size.
  if (a.length !== b.length) return false;
  const sizes = new Map(a.map((file) => [file.path, file.size]));
  return b.every((file) => sizes.get(file.path) === file.size);
}

function readCreationDate(value: BencodeValue | undefined): string | null {
  if (typeof value !== 'number' || value <= 0 || value > 253_402_300_799) return null; // up to 9999-12-31
  return new Date(value * 1000).toISOString();
}

/** UTF-8 text of a byte string; bytes that are not UTF-8 become U+FFFD. */
function text(bytes: Buffer): string {
  return bytes.toString('utf8');
}

/** A bencode problem as a sentence in the reader's language: "The file is not a valid .torrent (bencode): …". */
function bencodeRefusal(error: BencodeError): string {
  return t('metainfo.bencode', { problem: t('metainfo.bencode_at', { problem: bencodeProblem(error.problem), offset: String(error.offset) }) });
}

function bencodeProblem(problem: BencodeProblem): string {
  switch (problem.code) {
    case 'too_large':
      return t('metainfo.bencode.too_large', { size: byteCount(problem.size), limit: byteCount(problem.limit) });
    case 'too_deep':
    case 'integer_too_long':
    case 'length_too_long':
      return tn(`metainfo.bencode.${problem.code}`, problem.limit);
    case 'unexpected_byte':
      return t('metainfo.bencode.unexpected_byte', { byte: byteHex(problem.byte) });
    case 'string_too_long':
      return tn('metainfo.bencode.string_too_long', problem.remaining, { length: byteCount(problem.length) });
    default:
      return t(`metainfo.bencode.${problem.code}`);
  }
}

/** An exact count of bytes ("16,384 bytes"), where a rounded size would hide the mismatch. */
function byteCount(bytes: number): string {
  return tn('size.bytes', bytes, { bytes });
}

/**
 * The stored .torrent with `announce` set to this user's announce URL. The
 * info dictionary is copied byte for byte, so the info hash is the same for
 * every user.
 */
export function torrentForUser(stored: Uint8Array, announceUrl: string): Buffer {
  const { value, spans } = decodeDocument(stored, { maxDepth: MAX_DEPTH });
  if (!isDict(value)) throw new Error('stored .torrent is not a dictionary');
  const out = new Map<string, Encodable>();
  for (const key of value.keys()) {
    const span = spans.get(key)!;
    out.set(key, new BencodeRaw(Buffer.from(stored.buffer, stored.byteOffset + span.start, span.end - span.start)));
  }
  out.set('announce', Buffer.from(announceUrl, 'utf8'));
  return encode(out);
}

/** magnet: link (BEP 9, and BEP 52's btmh for v2): hashes, name, size, tracker. */
export function magnetLink(torrent: { info_hash_v1: string | null; info_hash_v2: string | null; name: string; size: number }, announceUrl: string): string {
  const parts: string[] = [];
  if (torrent.info_hash_v1 !== null) parts.push(`xt=urn:btih:${torrent.info_hash_v1}`);
  if (torrent.info_hash_v2 !== null) parts.push(`xt=urn:btmh:1220${torrent.info_hash_v2}`);
  parts.push(`dn=${encodeURIComponent(torrent.name)}`, `xl=${torrent.size}`, `tr=${encodeURIComponent(announceUrl)}`);
  return `magnet:?${parts.join('&')}`;
}
