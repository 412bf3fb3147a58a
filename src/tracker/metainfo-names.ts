// What a torrent's name and its files' path parts may be: names every file
// system takes, that say what they are (no control characters, nothing
// invisible that reorders or hides part of a name), and the same for every
// client: where a .torrent has both a plain `name`/`path` (what older
// clients write) and a `name.utf-8`/`path.utf-8` (what current ones write),
// both are checked and they must name the same files.
//
// Problems are the ends of sentences ("is empty", "contains a slash") in the
// reader's language, as metainfo.ts's refusals take them.
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { t } from '../i18n/messages.ts';
import { exactBytes } from '../i18n/sizes.ts';

/** Longest name or path part, in bytes of UTF-8: what ext4, NTFS, APFS and the rest allow for one name. */
export const MAX_PART_BYTES = 255;
/** Longest path of a file with the torrent's folder (`name/part/part`), in bytes of UTF-8: Linux's PATH_MAX. */
export const MAX_PATH_BYTES = 4096;

/**
 * The code pages older Windows clients wrote plain names in (with the UTF-8
 * form beside them): a plain name in one of them agrees with its `.utf-8`
 * form when it decodes to exactly that text.
 */
const LEGACY_ENCODINGS = [
  'windows-1251',
  'windows-1252',
  'windows-1250',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'windows-874',
  'koi8-r',
  'ibm866',
  'gbk',
  'big5',
  'shift_jis',
  'euc-jp',
  'euc-kr',
] as const;

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// Invisible format characters (bidirectional overrides and isolates, marks, zero-width spaces, soft hyphen,
// byte order mark, tags…) and the line and paragraph separators; the two joiners that scripts (Persian, Indic)
// and emoji sequences need are kept.
const INVISIBLE = /(?![\u200c\u200d])[\p{Cf}\u2028\u2029]/u;
const DRIVE = /^[A-Za-z]:$/;

/** A character as problems name it: U+202E. */
function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why a name or path part (as the file holds it, meant to be UTF-8) cannot be used, or null. */
export function partProblem(bytes: Buffer): string | null {
  if (bytes.length === 0) return t('metainfo.part.empty');
  if (bytes.length > MAX_PART_BYTES) return t('metainfo.part.too_long', { limit: exactBytes(MAX_PART_BYTES) });
  if (!isUtf8(bytes)) return t('metainfo.part.not_utf8');
  return textProblem(bytes.toString('utf8'));
}

/**
 * Why a plain part written beside its `.utf-8` form cannot be used, or null.
 * It may be in a legacy code page, so what is checked is what is the same in
 * all of them: no bytes that separate folders or stand for control
 * characters, not `.` or `..`. A plain part that is UTF-8 is checked as such.
 */
export function plainPartProblem(bytes: Buffer): string | null {
  if (bytes.length === 0 || bytes.length > MAX_PART_BYTES || isUtf8(bytes)) return partProblem(bytes);
  for (const byte of bytes) {
    if (byte === 0x00) return t('metainfo.part.nul');
    if (byte < 0x20 || byte === 0x7f) return t('metainfo.part.control', { code: codePoint(String.fromCharCode(byte)) });
    if (byte === 0x2f || byte === 0x5c) return t('metainfo.part.slash');
  }
  // Only `.`/`..` remain to refuse, and bytes that are not UTF-8 are neither.
  return null;
}

function textProblem(part: string): string | null {
  if (part === '.' || part === '..') return t('metainfo.part.dots', { part });
  if (part.includes('/') || part.includes('\\')) return t('metainfo.part.slash');
  if (part.includes('\u0000')) return t('metainfo.part.nul');
  const control = CONTROL.exec(part);
  if (control !== null) return t('metainfo.part.control', { code: codePoint(control[0]) });
  const invisible = INVISIBLE.exec(part);
  if (invisible !== null) return t('metainfo.part.invisible', { code: codePoint(invisible[0]) });
  if (DRIVE.test(part)) return t('metainfo.part.drive');
  return null;
}

/** Whether a whole path is too long; `bytes` counts the torrent's name, the parts and the slashes between. */
export function pathTooLong(bytes: number): boolean {
  return bytes > MAX_PATH_BYTES;
}

/**
 * Tells whether plain parts name the same as their checked `.utf-8` forms:
 * the same bytes, or the same text in one legacy code page. The first plain
 * part in a code page fixes which (a torrent is written on one system), so
 * the rest cost one decoding each.
 */
export class PlainNames {
  #encoding: TextDecoder | null = null;

  agrees(plain: Buffer, utf8: Buffer): boolean {
    if (plain.equals(utf8)) return true;
    if (isUtf8(plain)) return false;
    const text = utf8.toString('utf8');
    if (this.#encoding !== null) return decodes(this.#encoding, plain, text);
    for (const encoding of LEGACY_ENCODINGS) {
      const decoder = decoderFor(encoding);
      if (decodes(decoder, plain, text)) {
        this.#encoding = decoder;
        return true;
      }
    }
    return false;
  }
}

const decoders = new Map<string, TextDecoder>();

function decoderFor(encoding: string): TextDecoder {
  let decoder = decoders.get(encoding);
  if (decoder === undefined) decoders.set(encoding, (decoder = new TextDecoder(encoding, { fatal: true })));
  return decoder;
}

function decodes(decoder: TextDecoder, bytes: Buffer, text: string): boolean {
  try {
    return decoder.decode(bytes) === text;
  } catch {
    return false;
  }
}

/** A name or path as a refusal quotes it: cut to 100 characters, control and invisible characters shown as U+FFFD. */
export function quoted(text: string): string {
  const characters = [...text];
  const cut = characters.length > 100 ? `${characters.slice(0, 100).join('')}…` : text;
  return cut.replace(new RegExp(`${CONTROL.source}|${INVISIBLE.source}`, 'gu'), '\ufffd');
}
