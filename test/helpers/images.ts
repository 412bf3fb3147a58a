// Image files for upload tests, made here: real PNGs (decodable by a browser)
// and the smallest headers of the other formats the upload checks read.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync, inflateSync } from 'node:zlib';

export type Rgba = readonly [number, number, number, number];

/** An RGBA PNG; `paint` gives each pixel's colour (default opaque red). */
export function png(width: number, height: number, paint: (x: number, y: number) => Rgba = () => [255, 0, 0, 255]): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    for (let x = 0; x < width; x++) raw.set(paint(x, y), row + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of random pixels: it hardly compresses, so its size is about width × height × 4 bytes. */
export function noisePng(width: number, height: number): Buffer {
  const noise = randomBytes(width * height * 3);
  return png(width, height, (x, y) => {
    const at = (y * width + x) * 3;
    return [noise[at]!, noise[at + 1]!, noise[at + 2]!, 255];
  });
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A GIF89a header and logical screen of that size (enough for the checks). */
export function gif(width: number, height: number): Buffer {
  const bytes = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** A lossless WebP header (VP8L) of that size. */
export function webp(width: number, height: number): Buffer {
  const bits = Buffer.alloc(4);
  bits.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0);
  const payload = Buffer.concat([Buffer.from([0x2f]), bits, Buffer.alloc(8)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(payload.length);
  const body = Buffer.concat([Buffer.from('WEBP', 'ascii'), Buffer.from('VP8L', 'ascii'), size, payload]);
  const riff = Buffer.alloc(4);
  riff.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), riff, body]);
}

/** A JPEG with an APP0 segment and a baseline frame header of that size. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof = Buffer.from('ffc0001108000000000301220002110103110100', 'hex');
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

export const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

/** A multipart/form-data body as a browser sends it. */
export async function multipart(
  fields: Record<string, string | { bytes: Buffer; name: string; type: string }>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new Blob([value.bytes], { type: value.type }), value.name);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) to RGBA pixels. */
export function decodePng(bytes: Buffer): { width: number; height: number; pixel(x: number, y: number): Rgba } {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const data: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0 || (body[9] !== 2 && body[9] !== 6)) throw new Error('only 8-bit non-interlaced RGB(A) PNGs');
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[y * stride + i - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels]! : 0;
      const predictor = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[y * stride + i] = (line[i]! + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      const i = y * stride + x * channels;
      return [out[i]!, out[i + 1]!, out[i + 2]!, channels === 4 ? out[i + 3]! : 255];
    },
  };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
