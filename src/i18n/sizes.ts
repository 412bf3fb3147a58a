// A size in bytes in the reader's language: one way for every page and message
// (torrents, transfer figures, image and avatar limits).
import { currentReader } from './context.ts';
import type { Locale } from './locale.ts';
import { t, tn } from './messages.ts';

const UNITS = ['size.kib', 'size.mib', 'size.gib', 'size.tib', 'size.pib'] as const;
/** Up to two decimals, trailing zeros dropped: 1.5, 2.93, 3. */
const sizeFormats = new Map<Locale, Intl.NumberFormat>();

/**
 * A size in bytes as the reader's language writes it: whole bytes below 1 KiB
 * ("60 bytes", "60 байт"), else binary units with up to two decimals
 * ("1.5 KiB", "1,5 КиБ"; "3 GiB").
 */
export function formatBytes(bytes: number): string {
  const format = numberFormat();
  if (Math.abs(bytes) < 1024) return tn('size.bytes', bytes, { bytes: format.format(bytes) });
  let value = bytes / 1024;
  let unit = 0;
  // 1023.999 KiB would round to "1,024 KiB": that is 1 MiB.
  while (unit < UNITS.length - 1 && Math.abs(Math.round(value * 100)) >= 1024 * 100) {
    value /= 1024;
    unit++;
  }
  return t(UNITS[unit]!, { size: format.format(value) });
}

/** An exact count of bytes ("16,384 bytes"), where a rounded size would hide a mismatch or a limit. */
export function exactBytes(bytes: number): string {
  return tn('size.bytes', bytes, { bytes });
}

/**
 * Two sizes that must not read alike (a file's and the limit it is over), as
 * formatBytes writes them, or both exactly where its rounding would show them
 * equal: "1 MiB, more than the limit of 1 MiB" tells the reader nothing.
 */
export function formatBytesApart(size: number, limit: number): [string, string] {
  const apart: [string, string] = [formatBytes(size), formatBytes(limit)];
  if (apart[0] !== apart[1] || size === limit) return apart;
  return [exactBytes(size), exactBytes(limit)];
}

function numberFormat(): Intl.NumberFormat {
  const { locale } = currentReader();
  let format = sizeFormats.get(locale);
  if (format === undefined) sizeFormats.set(locale, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })));
  return format;
}
