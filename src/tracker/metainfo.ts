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
import { exactBytes, formatBytes } from '../i18n/sizes.ts';
import {
  BencodeError,
  BencodeRaw,
  byteHex,
  decodeDocument,
  encode,
  isBytes,
  isDict,
  isInteger,
  keyBytes,
  type BencodeDict,
  type BencodeProblem,
  type BencodeValue,
  type Decoded,
  type Encodable,
  type Span,
} from './bencode.ts';
import { MAX_PATH_BYTES, partProblem, pathTooLong, plainPartProblem, PlainNames, quoted } from './metainfo-names.ts';

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
/** Largest piece length: the most libtorrent loads (it refuses 1 GiB pieces). It also bounds what padding can hide. */
export const MAX_PIECE_LENGTH = 512 * 1024 * 1024;
/**
 * Most files one torrent may list (v1 entries, padding included; v2 file
 * tree entries): more than a 1 MiB .torrent can hold, so it binds only where
 * TRACKER_MAX_TORRENT_BYTES is raised, and bounds the work of one upload.
 */
export const MAX_FILES = 50_000;
/**
 * Most values and keys decoded: a limit that no file within the size limit reaches with real content (a 1 MiB
 * file holds at most about 500,000), so that a raised TRACKER_MAX_TORRENT_BYTES still bounds a worker's memory.
 */
export const MAX_ITEMS = 1_000_000;
/** Top-level members left out of the stored file and of downloads: web seeds (BEP 19, BEP 17). */
const WEB_SEEDS = ['url-list', 'httpseeds'];

/** Validates a .torrent and rewrites it for this tracker. */
export function parseTorrent(bytes: Uint8Array, options: ParseOptions): Metainfo {
  const decoded = decodeTorrent(bytes, options.maxBytes);
  const { top, info } = decoded;
  const facts = readInfo(info, top);

  // The private flag set, the tracker's announce URL, no other trackers and no web seeds. A file whose keys were
  // all in order is rewritten from its own bytes (only `private` is new); encoding it again would give the same.
  const infoParts = decoded.canonical ? rawMembers(bytes, decoded.memberSpans.get('info')!) : new Map<string, Encodable>(info);
  infoParts.set('private', 1);
  const infoBytes = encode(infoParts);
  const rewritten = decoded.canonical ? rawMembers(bytes, decoded.spans) : new Map<string, Encodable>(top);
  for (const key of ['announce-list', ...WEB_SEEDS]) rewritten.delete(key);
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
  const { top, info, spans } = decodeTorrent(bytes, options.maxBytes);
  const facts = readInfo(info, top);
  const span = spans.get('info')!;
  const infoBytes = Buffer.from(bytes.buffer, bytes.byteOffset + span.start, span.end - span.start);
  return {
    ...facts,
    infoHashV1: facts.version === 'v2' ? null : createHash('sha1').update(infoBytes).digest('hex'),
    infoHashV2: facts.version === 'v1' ? null : createHash('sha256').update(infoBytes).digest('hex'),
    torrent: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}

function decodeTorrent(bytes: Uint8Array, maxBytes: number): Decoded & { top: BencodeDict; info: BencodeDict } {
  if (bytes.length === 0) throw new MetainfoError(t('metainfo.empty'));
  if (bytes.length > maxBytes) {
    throw new MetainfoError(t('metainfo.too_large', { size: formatBytes(bytes.length), limit: formatBytes(maxBytes) }));
  }
  let decoded: Decoded;
  try {
    decoded = decodeDocument(bytes, { maxDepth: MAX_DEPTH, maxItems: MAX_ITEMS });
  } catch (error) {
    if (error instanceof BencodeError) throw new MetainfoError(bencodeRefusal(error));
    throw error;
  }
  const top = decoded.value;
  if (!isDict(top)) throw new MetainfoError(t('metainfo.not_dictionary'));
  const info = top.get('info');
  if (!isDict(info)) throw new MetainfoError(t('metainfo.no_info'));
  return { ...decoded, top, info };
}

/** A dictionary's members as the input holds them, to be encoded again without decoding what they hold. */
function rawMembers(bytes: Uint8Array, spans: ReadonlyMap<string, Span>): Map<string, Encodable> {
  const members = new Map<string, Encodable>();
  for (const [key, span] of spans) members.set(key, new BencodeRaw(bytes.subarray(span.start, span.end)));
  return members;
}

type InfoFacts = Omit<Metainfo, 'infoHashV1' | 'infoHashV2' | 'torrent'>;

// Cheap checks first, the costly ones last: the piece length, the number of
// files and their lengths against the piece hashes are read before any name
// is decoded or compared, so most malformed files are refused at once.
function readInfo(info: BencodeDict, top: BencodeDict): InfoFacts {
  const metaVersion = info.get('meta version');
  const hasV2 = metaVersion !== undefined;
  if (hasV2 && metaVersion !== 2) throw new MetainfoError(t('metainfo.meta_version'));
  const hasV1 = info.has('pieces');
  if (!hasV1 && !hasV2) throw new MetainfoError(t('metainfo.no_pieces'));
  const pieceLength = readPieceLength(info.get('piece length'), hasV2);
  const name = readName(info);

  const v1 = hasV1 ? readV1(info, name, pieceLength) : null;
  const v2 = hasV2 ? readV2(info, top, name, pieceLength) : null;
  if (v1 !== null && v2 !== null && !sameFiles(v1.files, v2.files)) {
    throw new MetainfoError(t('metainfo.hybrid_mismatch'));
  }
  const chosen = (v2 ?? v1)!;
  const size = chosen.files.reduce((sum, file) => sum + file.size, 0);
  if (size <= 0) throw new MetainfoError(t('metainfo.empty_torrent'));
  if (!Number.isSafeInteger(size)) throw new MetainfoError(t('metainfo.too_big'));
  return {
    version: v1 !== null && v2 !== null ? 'hybrid' : v2 !== null ? 'v2' : 'v1',
    name: name.text,
    size,
    pieceLength,
    pieceCount: chosen.pieceCount,
    files: chosen.files,
    creationDate: readCreationDate(top.get('creation date')),
  };
}

function readPieceLength(value: BencodeValue | undefined, hasV2: boolean): number {
  if (!isInteger(value) || (typeof value === 'number' && value <= 0) || (typeof value === 'bigint' && value <= 0n)) {
    throw new MetainfoError(t('metainfo.piece_length'));
  }
  // Exact at any size: the bitwise test this replaces worked on 32 bits, so 2^32 + 16 KiB passed as a power of two.
  if (hasV2 && (typeof value !== 'number' || value < V2_BLOCK || 2 ** Math.round(Math.log2(value)) !== value)) {
    throw new MetainfoError(t('metainfo.v2_piece_length', { size: formatBytes(V2_BLOCK) }));
  }
  if (typeof value !== 'number' || value > MAX_PIECE_LENGTH) throw new MetainfoError(t('metainfo.piece_length_max', { size: formatBytes(MAX_PIECE_LENGTH) }));
  return value;
}

/** The torrent's name: its text (the folder of a multi-file torrent, the file of a single-file one) and its bytes. */
interface Name {
  text: string;
  bytes: number;
}

function readName(info: BencodeDict): Name {
  const plain = info.get('name');
  const utf8 = info.get('name.utf-8');
  const shown = utf8 ?? plain;
  if (!isBytes(shown) || shown.length === 0) throw new MetainfoError(t('metainfo.no_name'));
  const problem = partProblem(shown);
  if (problem !== null) throw new MetainfoError(t('metainfo.bad_name', { problem }));
  if (plain !== undefined && utf8 !== undefined) {
    if (!isBytes(plain)) throw new MetainfoError(t('metainfo.no_name'));
    const plainProblem = plainPartProblem(plain);
    if (plainProblem !== null) throw new MetainfoError(t('metainfo.bad_name', { problem: plainProblem }));
    if (!new PlainNames().agrees(plain, shown)) {
      throw new MetainfoError(t('metainfo.name_disagree', { plain: quoted(text(plain)), utf8: quoted(text(shown)) }));
    }
  }
  return { text: text(shown), bytes: shown.length };
}

interface FileList {
  files: TorrentFileEntry[];
  pieceCount: number;
}

function readV1(info: BencodeDict, name: Name, pieceLength: number): FileList {
  const pieces = info.get('pieces');
  if (!isBytes(pieces) || pieces.length === 0 || pieces.length % 20 !== 0) {
    throw new MetainfoError(t('metainfo.bad_pieces'));
  }
  const length = info.get('length');
  const list = info.get('files');
  if ((length === undefined) === (list === undefined)) {
    throw new MetainfoError(t('metainfo.length_or_files'));
  }
  if (list !== undefined && (!Array.isArray(list) || list.length === 0)) throw new MetainfoError(t('metainfo.bad_files'));
  const entries = list ?? [];
  if (entries.length > MAX_FILES) throw new MetainfoError(tn('metainfo.too_many_files', MAX_FILES));

  // The lengths first: they are what the piece hashes must cover.
  let total = 0;
  const sizes: number[] = [];
  const padding: boolean[] = [];
  if (length !== undefined) {
    total = readLength(length, () => name.text);
  } else {
    entries.forEach((entry, index) => {
      if (!isDict(entry)) throw new MetainfoError(t('metainfo.file_not_dictionary', { number: index + 1 }));
      const size = readLength(entry.get('length'), () => entryLabel(entry, index));
      const attr = entry.get('attr');
      const pad = isBytes(attr) && attr.includes(ATTR_PADDING);
      // Padding (BEP 47) only fills up to the next piece boundary. Clients that know it do not store it, and the
      // list leaves it out; longer "padding" would be data the list does not show.
      if (pad && size > pieceLength) {
        throw new MetainfoError(t('metainfo.pad_too_long', { path: quoted(entryLabel(entry, index)), length: exactBytes(pieceLength) }));
      }
      sizes.push(size);
      padding.push(pad);
      total += size;
    });
  }
  if (!Number.isSafeInteger(total)) throw new MetainfoError(t('metainfo.too_big'));
  const pieceCount = pieces.length / 20;
  const needed = Math.ceil(total / pieceLength);
  if (pieceCount !== needed) {
    throw new MetainfoError(tn('metainfo.piece_count', pieceCount, { needed: tn('metainfo.pieces', needed), length: exactBytes(pieceLength) }));
  }
  if (length !== undefined) return { files: [{ path: name.text, size: total }], pieceCount };

  // Then the paths: every part of what is shown checked, the plain form beside a `.utf-8` one too, and the two
  // naming the same file.
  const plainNames = new PlainNames();
  const files: TorrentFileEntry[] = [];
  entries.forEach((entry, index) => {
    const path = readV1Path(entry as BencodeDict, index, name, plainNames);
    if (!padding[index]) files.push({ path, size: sizes[index]! });
  });
  assertUniquePaths(files);
  return { files, pieceCount };
}

const ATTR_PADDING = 'p'.charCodeAt(0);

/** A v1 entry's path, checked, as the list shows it ("folder/file"). */
function readV1Path(entry: BencodeDict, index: number, name: Name, plainNames: PlainNames): string {
  const plain = entry.get('path');
  const utf8 = entry.get('path.utf-8');
  const shown = pathParts(utf8 ?? plain, index);
  const path = shown.map(text).join('/');
  for (const part of shown) {
    const problem = partProblem(part);
    if (problem !== null) throw new MetainfoError(t('metainfo.bad_path', { path: quoted(path), problem }));
  }
  if (pathTooLong(shown.reduce((bytes, part) => bytes + part.length + 1, name.bytes))) {
    throw new MetainfoError(t('metainfo.path_too_long', { path: quoted(path), limit: exactBytes(MAX_PATH_BYTES) }));
  }
  if (plain !== undefined && utf8 !== undefined) {
    const plainParts = pathParts(plain, index);
    const plainPath = plainParts.map(text).join('/');
    for (const part of plainParts) {
      const problem = plainPartProblem(part);
      if (problem !== null) throw new MetainfoError(t('metainfo.bad_path', { path: quoted(plainPath), problem }));
    }
    const agree = plainParts.length === shown.length && plainParts.every((part, at) => plainNames.agrees(part, shown[at]!));
    if (!agree) throw new MetainfoError(t('metainfo.path_disagree', { plain: quoted(plainPath), utf8: quoted(path) }));
  }
  return path;
}

function pathParts(value: BencodeValue | undefined, index: number): Buffer[] {
  if (!Array.isArray(value) || value.length === 0) throw new MetainfoError(t('metainfo.file_no_path', { number: index + 1 }));
  return value.map((part) => {
    if (!isBytes(part)) throw new MetainfoError(t('metainfo.file_path_part', { number: index + 1 }));
    return part;
  });
}

/** How a refusal names a v1 entry before its path is checked: its path as text when it has one, else its number. */
function entryLabel(entry: BencodeDict, index: number): string {
  const path = entry.get('path.utf-8') ?? entry.get('path');
  if (Array.isArray(path) && path.length > 0 && path.every(isBytes)) return path.map(text).join('/');
  return t('metainfo.file_number', { number: index + 1 });
}

function readV2(info: BencodeDict, top: BencodeDict, name: Name, pieceLength: number): FileList {
  const tree = info.get('file tree');
  if (!isDict(tree) || tree.size === 0) throw new MetainfoError(t('metainfo.no_file_tree'));
  const layers = top.get('piece layers');
  if (layers !== undefined && !isDict(layers)) throw new MetainfoError(t('metainfo.piece_layers'));

  const files: TorrentFileEntry[] = [];
  let entries = 0;
  // `bytes`: the path's length so far with the torrent's name and the slashes.
  const walk = (node: BencodeDict, path: string[], bytes: number): void => {
    for (const [key, child] of node) {
      if (++entries > MAX_FILES) throw new MetainfoError(tn('metainfo.too_many_files', MAX_FILES));
      if (key === '') {
        if (path.length === 0) throw new MetainfoError(t('metainfo.unnamed_file'));
        files.push(readV2File(child, path.join('/'), pieceLength, layers));
        continue;
      }
      const part = keyBytes(key);
      const component = text(part);
      const entry = [...path, component].join('/');
      const problem = partProblem(part);
      if (problem !== null) throw new MetainfoError(t('metainfo.bad_path', { path: quoted(entry), problem }));
      if (pathTooLong(bytes + 1 + part.length))
        throw new MetainfoError(t('metainfo.path_too_long', { path: quoted(entry), limit: exactBytes(MAX_PATH_BYTES) }));
      if (!isDict(child)) throw new MetainfoError(t('metainfo.tree_entry', { path: quoted(entry) }));
      if (child.has('') && child.size > 1) throw new MetainfoError(t('metainfo.file_and_folder', { path: quoted(entry) }));
      walk(child, [...path, component], bytes + 1 + part.length);
    }
  };
  walk(tree, [], name.bytes);
  // Paths are relative to the torrent's folder, except a single-file torrent's one file, named like the torrent.
  // v2 pieces never span files.
  const pieceCount = files.reduce((sum, file) => sum + Math.ceil(file.size / pieceLength), 0);
  return { files, pieceCount };
}

function readV2File(value: BencodeValue, path: string, pieceLength: number, layers: BencodeDict | undefined): TorrentFileEntry {
  if (!isDict(value)) throw new MetainfoError(t('metainfo.file_entry', { path: quoted(path) }));
  const size = readLength(value.get('length'), () => path);
  if (size === 0) return { path, size };
  const root = value.get('pieces root');
  if (!isBytes(root) || root.length !== 32) throw new MetainfoError(t('metainfo.pieces_root', { path: quoted(path) }));
  if (size > pieceLength) {
    const layer = layers?.get(root.toString('latin1'));
    if (!isBytes(layer) || layer.length !== 32 * Math.ceil(size / pieceLength)) {
      throw new MetainfoError(t('metainfo.no_layer', { path: quoted(path) }));
    }
  }
  return { path, size };
}

/** A file's length; `path` names the file in the refusal (asked only then). */
function readLength(value: BencodeValue | undefined, path: () => string): number {
  if (!isInteger(value) || typeof value !== 'number' || value < 0) throw new MetainfoError(t('metainfo.file_length', { path: quoted(path()) }));
  return value;
}

/** No path listed twice, and none that is a file and also the folder of another (`a` beside `a/b`): clients cannot make both. */
function assertUniquePaths(files: TorrentFileEntry[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new MetainfoError(t('metainfo.duplicate_path', { path: quoted(file.path) }));
    seen.add(file.path);
  }
  for (const file of files) {
    for (let slash = file.path.indexOf('/'); slash !== -1; slash = file.path.indexOf('/', slash + 1)) {
      const folder = file.path.slice(0, slash);
      if (seen.has(folder)) throw new MetainfoError(t('metainfo.file_is_folder', { file: quoted(folder), other: quoted(file.path) }));
    }
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
      return t('metainfo.bencode.too_large', { size: exactBytes(problem.size), limit: exactBytes(problem.limit) });
    case 'too_deep':
    case 'too_many_items':
    case 'integer_too_long':
    case 'length_too_long':
      return tn(`metainfo.bencode.${problem.code}`, problem.limit);
    case 'unexpected_byte':
      return t('metainfo.bencode.unexpected_byte', { byte: byteHex(problem.byte) });
    case 'string_too_long':
      return tn('metainfo.bencode.string_too_long', problem.remaining, { length: exactBytes(problem.length) });
    default:
      return t(`metainfo.bencode.${problem.code}`);
  }
}

/**
 * The stored .torrent with `announce` set to this user's announce URL. The
 * info dictionary is copied byte for byte, so the info hash is the same for
 * every user.
 */
export function torrentForUser(stored: Uint8Array, announceUrl: string): Buffer {
  const { value, spans } = decodeDocument(stored, { maxDepth: MAX_DEPTH });
  if (!isDict(value)) throw new Error('stored .torrent is not a dictionary');
  const out = rawMembers(stored, spans);
  // Files stored before web seeds were stripped on upload, and imported ones, lose them here.
  for (const key of WEB_SEEDS) out.delete(key);
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
