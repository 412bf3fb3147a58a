// What an uploaded file really is, from its bytes: the format by its magic
// number and the dimensions from its header. The file's name and the type
// the browser claims are never trusted. SVG is not an image here: it is a
// document that can carry scripts.

export const IMAGE_TYPES = ['png', 'gif', 'webp', 'jpeg'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export const MIME_TYPES: Record<ImageType, string> = { png: 'image/png', gif: 'image/gif', webp: 'image/webp', jpeg: 'image/jpeg' };
export const EXTENSIONS: Record<ImageType, string> = { png: 'png', gif: 'gif', webp: 'webp', jpeg: 'jpg' };

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export type Probe = { ok: true; image: ImageInfo } | { ok: false; problem: 'svg' | 'unknown' | 'corrupt' };

export function probeImage(bytes: Uint8Array): Probe {
  const found = png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes);
  if (found === 'corrupt') return { ok: false, problem: 'corrupt' };
  if (found !== undefined) {
    return found.width > 0 && found.height > 0 ? { ok: true, image: found } : { ok: false, problem: 'corrupt' };
  }
  return { ok: false, problem: looksLikeSvg(bytes) ? 'svg' : 'unknown' };
}

type Found = ImageInfo | 'corrupt' | undefined;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(b: Uint8Array): Found {
  if (!startsWith(b, PNG_SIGNATURE)) return undefined;
  // The first chunk must be IHDR: length (4), "IHDR", width (4), height (4), big-endian.
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return 'corrupt';
  return { type: 'png', width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): Found {
  const signature = ascii(b, 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return undefined;
  if (b.length < 10) return 'corrupt';
  return { type: 'gif', width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): Found {
  if (ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return undefined;
  if (b.length < 30) return 'corrupt';
  switch (ascii(b, 12, 4)) {
    case 'VP8 ':
      // Lossy: a frame tag (3 bytes), the start code 9d 01 2a, then 14-bit width and height.
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return 'corrupt';
      return { type: 'webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    case 'VP8L': {
      // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
      if (b[20] !== 0x2f) return 'corrupt';
      const bits = u32le(b, 21);
      return { type: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      // Extended (animation, alpha): canvas width-1 and height-1 in 24 bits each.
      return { type: 'webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
    default:
      return 'corrupt';
  }
}

// Start-of-frame markers carry the dimensions; DHT (c4), JPG (c8) and DAC (cc) share the range but do not.
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): Found {
  if (b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined;
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) return 'corrupt';
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return 'corrupt'; // end of image or scan data before any frame header
    const length = u16be(b, at + 2);
    if (length < 2) return 'corrupt';
    if (SOF_MARKERS.has(marker)) {
      if (at + 9 > b.length) return 'corrupt';
      return { type: 'jpeg', height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    at += 2 + length;
  }
  return 'corrupt';
}

function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<svg') || ((head.startsWith('<?xml') || head.startsWith('<!doctype svg') || head.startsWith('<!--')) && head.includes('<svg'));
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => b[i] === byte);
}

function ascii(b: Uint8Array, at: number, length: number): string {
  if (at + length > b.length) return '';
  return String.fromCharCode(...b.subarray(at, at + length));
}

function u16le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u16be(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}

function u24le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16);
}

function u32le(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

function u32be(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
}
