// An uploaded avatar, read by libvips (sharp): what the file is comes from its
// content, never its name or claimed type; the picture is turned upright by
// its EXIF orientation, cut to a square from its middle, scaled to
// AVATAR_SIZE and written as WebP without its metadata (no camera, place or
// time leaks). Decoding runs on libuv's thread pool, not the event loop, and
// a file whose header claims more pixels than the rules allow is refused
// before it is decoded (no decompression bombs). Its refusals are in the
// reader's language (the API's English).
import sharp, { type Metadata } from 'sharp';
import { t } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';

export const AVATAR_RULES = {
  maxBytes: 2 * 1024 * 1024,
  maxWidth: 4096,
  maxHeight: 4096,
  formats: ['png', 'jpeg', 'gif', 'webp'] as const,
};

/** Side of the stored square, in pixels: twice the largest display size, for sharp screens. */
export const AVATAR_SIZE = 160;

export type AvatarImage = { ok: true; webp: Buffer; source: { format: string; width: number; height: number } } | { ok: false; message: string };

// libvips's cache would keep decoded uploads in memory for nothing.
sharp.cache(false);

export async function makeAvatar(bytes: Uint8Array): Promise<AvatarImage> {
  if (bytes.length === 0) return { ok: false, message: t('avatar.choose') };
  if (bytes.length > AVATAR_RULES.maxBytes) return { ok: false, message: t('avatar.too_large', { size: formatBytes(AVATAR_RULES.maxBytes) }) };
  const limits = { limitInputPixels: AVATAR_RULES.maxWidth * AVATAR_RULES.maxHeight, failOn: 'error' as const };
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, limits).metadata();
  } catch {
    return { ok: false, message: t('avatar.unreadable') };
  }
  const format = metadata.format as string;
  if (format === 'svg') return { ok: false, message: t('avatar.svg') };
  if (!(AVATAR_RULES.formats as readonly string[]).includes(format)) return { ok: false, message: t('avatar.format') };
  const { width, height } = metadata;
  if (width > AVATAR_RULES.maxWidth || height > AVATAR_RULES.maxHeight) {
    return { ok: false, message: t('avatar.dimensions', { max: `${AVATAR_RULES.maxWidth}×${AVATAR_RULES.maxHeight}`, size: `${width}×${height}` }) };
  }
  try {
    const webp = await sharp(bytes, limits).rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' }).webp({ quality: 85 }).toBuffer();
    return { ok: true, webp, source: { format, width, height } };
  } catch {
    return { ok: false, message: t('avatar.damaged') };
  }
}
