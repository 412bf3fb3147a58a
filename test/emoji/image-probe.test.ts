import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeImage } from '../../src/emoji/images/probe.ts';
import { checkImage } from '../../src/emoji/images/store.ts';
import { SVG, gif, jpeg, noisePng, png, webp } from '../helpers/images.ts';

describe('probeImage: the format and size from the bytes', () => {
  it('reads PNG, GIF, WebP (lossless, lossy, extended) and JPEG headers', () => {
    assert.deepEqual(probeImage(png(31, 17)), { ok: true, image: { type: 'png', width: 31, height: 17 } });
    assert.deepEqual(probeImage(gif(300, 2)), { ok: true, image: { type: 'gif', width: 300, height: 2 } });
    assert.deepEqual(probeImage(webp(640, 480)), { ok: true, image: { type: 'webp', width: 640, height: 480 } });
    assert.deepEqual(probeImage(jpeg(1024, 768)), { ok: true, image: { type: 'jpeg', width: 1024, height: 768 } });

    const lossy = Buffer.concat([
      Buffer.from('RIFF\0\0\0\0WEBPVP8 \0\0\0\0', 'latin1'),
      Buffer.from([0, 0, 0, 0x9d, 0x01, 0x2a, 0x20, 0x00, 0x10, 0x00]),
      Buffer.alloc(8),
    ]);
    assert.deepEqual(probeImage(lossy), { ok: true, image: { type: 'webp', width: 32, height: 16 } });
    const extended = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8X\0\0\0\0', 'latin1'), Buffer.from([0, 0, 0, 0, 0x3f, 0, 0, 0x1f, 0, 0]), Buffer.alloc(8)]);
    assert.deepEqual(probeImage(extended), { ok: true, image: { type: 'webp', width: 64, height: 32 } });
  });

  it('skips JPEG segments before the frame header (EXIF, tables, fill bytes)', () => {
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x10]), Buffer.alloc(14, 0x41)]);
    const dqt = Buffer.concat([Buffer.from([0xff, 0xff, 0xdb, 0x00, 0x04, 0x00, 0x00])]);
    const base = jpeg(99, 55);
    const withSegments = Buffer.concat([base.subarray(0, 2), exif, dqt, base.subarray(2)]);
    assert.deepEqual(probeImage(withSegments), { ok: true, image: { type: 'jpeg', width: 99, height: 55 } });
  });

  it('recognises SVG (with or without an XML prolog) and refuses it', () => {
    assert.deepEqual(probeImage(SVG), { ok: false, problem: 'svg' });
    assert.deepEqual(probeImage(Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>')), { ok: false, problem: 'svg' });
  });

  it('tells an unknown file from a damaged image', () => {
    assert.deepEqual(probeImage(Buffer.from('just some text')), { ok: false, problem: 'unknown' });
    assert.deepEqual(probeImage(Buffer.from('<html><body>hi</body></html>')), { ok: false, problem: 'unknown' });
    assert.deepEqual(probeImage(png(4, 4).subarray(0, 20)), { ok: false, problem: 'corrupt' });
    assert.deepEqual(probeImage(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02])), { ok: false, problem: 'corrupt' });
    assert.deepEqual(probeImage(gif(0, 5)), { ok: false, problem: 'corrupt' });
  });
});

describe('checkImage: the rules of each kind', () => {
  it('accepts the four formats for emoji images up to 256 KiB and 512×512', () => {
    for (const bytes of [png(512, 512), gif(16, 16), webp(512, 1), jpeg(64, 64)]) assert.equal(checkImage(bytes, 'custom').ok, true);
  });

  it('refuses what breaks them, with a message saying what to do', () => {
    const refused = (bytes: Buffer, kind: 'custom' | 'sprites') => {
      const result = checkImage(bytes, kind);
      assert.equal(result.ok, false);
      return result.ok ? '' : result.message;
    };
    assert.equal(refused(png(513, 10), 'custom'), 'The emoji image must be at most 512×512 pixels (this one is 513×10).');
    assert.equal(refused(noisePng(300, 300), 'custom'), 'The emoji image must not be larger than 256 KiB.');
    assert.equal(refused(SVG, 'custom'), 'SVG files are not accepted (they can carry scripts); upload a PNG, GIF, WebP or JPEG image.');
    assert.equal(refused(Buffer.from('%PDF-1.7'), 'custom'), 'The file must be a PNG, GIF, WebP or JPEG image.');
    assert.equal(refused(Buffer.alloc(0), 'custom'), 'The file field is required.');
    assert.equal(refused(jpeg(100, 100), 'sprites'), 'The sprite sheet must be a PNG, GIF or WebP image (this is JPEG).');
    assert.equal(refused(gif(4097, 10), 'sprites'), 'The sprite sheet must be at most 4096×4096 pixels (this one is 4097×10).');
    assert.equal(checkImage(png(4096, 64), 'sprites').ok, true);
  });
});
