// Uploaded emoji images and sprite sheets: checked by content against the
// rules of their kind, stored under UPLOAD_DIR with a name made from their
// content (so a URL always shows the same bytes and can be cached forever,
// and the same file uploaded twice is stored once), written atomically.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { deleteFile, ensureWritableFolder, saveByContent } from '../../uploads/content-files.ts';
import { SPRITE_SHEET_PATH } from '../resource.ts';
import { EXTENSIONS, MIME_TYPES, probeImage, type ImageInfo, type ImageType } from './probe.ts';

export type ImageKind = 'custom' | 'sprites';

export interface ImageRules {
  types: readonly ImageType[];
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
}

export const IMAGE_RULES: Record<ImageKind, ImageRules> = {
  custom: { types: ['png', 'gif', 'webp', 'jpeg'], maxBytes: 256 * 1024, maxWidth: 512, maxHeight: 512 },
  sprites: { types: ['png', 'gif', 'webp'], maxBytes: 2 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096 },
};

/** Where each kind is served; the forum renderer draws sprites from SPRITE_SHEET_PATH. */
export const IMAGE_PATHS: Record<ImageKind, string> = { custom: '/emojis/custom/', sprites: SPRITE_SHEET_PATH };

export interface StoredImage {
  kind: ImageKind;
  /** File name under the kind's folder: the value of sprite_params.sheet for sprite sheets. */
  name: string;
  url: string;
  width: number;
  height: number;
  type: ImageType;
  /** MIME type. */
  mime: string;
  size: number;
}

export interface ImageFile {
  name: string;
  url: string;
  size: number;
  modifiedAt: string;
}

export type ImageCheck = { ok: true; image: ImageInfo } | { ok: false; message: string };

const NAMES = { custom: 'emoji image', sprites: 'sprite sheet' } as const;

/** The rules of a kind applied to the bytes; the message says what is wrong in words an admin acts on. */
export function checkImage(bytes: Uint8Array, kind: ImageKind): ImageCheck {
  const rules = IMAGE_RULES[kind];
  const allowed = listOf(rules.types.map((type) => (type === 'webp' ? 'WebP' : type.toUpperCase())));
  if (bytes.length === 0) return { ok: false, message: 'The file field is required.' };
  if (bytes.length > rules.maxBytes) return { ok: false, message: `The ${NAMES[kind]} must not be larger than ${sizeText(rules.maxBytes)}.` };
  const probe = probeImage(bytes);
  if (!probe.ok) {
    if (probe.problem === 'svg') return { ok: false, message: `SVG files are not accepted (they can carry scripts); upload a ${allowed} image.` };
    if (probe.problem === 'corrupt') return { ok: false, message: 'The file looks like an image but its header is damaged.' };
    return { ok: false, message: `The file must be a ${allowed} image.` };
  }
  const image = probe.image;
  if (!rules.types.includes(image.type)) return { ok: false, message: `The ${NAMES[kind]} must be a ${allowed} image (this is ${image.type.toUpperCase()}).` };
  if (image.width > rules.maxWidth || image.height > rules.maxHeight) {
    return {
      ok: false,
      message: `The ${NAMES[kind]} must be at most ${rules.maxWidth}×${rules.maxHeight} pixels (this one is ${image.width}×${image.height}).`,
    };
  }
  return { ok: true, image };
}

export class ImageStore {
  readonly #root: string;

  /** `root` may be relative (UPLOAD_DIR's default is): it is taken from the working directory at start. */
  constructor(root: string) {
    this.#root = resolve(root);
  }

  /** The folders exist and can be written to; otherwise start-up stops naming UPLOAD_DIR. */
  async init(): Promise<void> {
    for (const kind of ['custom', 'sprites'] as const) await ensureWritableFolder(this.folder(kind));
  }

  folder(kind: ImageKind): string {
    return join(this.#root, kind);
  }

  /** Stores checked bytes; storing the same bytes again is a no-op with the same result. */
  async save(kind: ImageKind, bytes: Uint8Array, image: ImageInfo): Promise<StoredImage> {
    const name = await saveByContent(this.folder(kind), bytes, EXTENSIONS[image.type]);
    return {
      kind,
      name,
      url: IMAGE_PATHS[kind] + name,
      width: image.width,
      height: image.height,
      type: image.type,
      mime: MIME_TYPES[image.type],
      size: bytes.length,
    };
  }

  /** Every stored file of a kind, newest first. */
  async list(kind: ImageKind): Promise<ImageFile[]> {
    const names = (await readdir(this.folder(kind))).filter((name) => !name.startsWith('.'));
    const files = await Promise.all(
      names.map(async (name) => {
        const info = await stat(join(this.folder(kind), name));
        return info.isFile() ? { name, url: IMAGE_PATHS[kind] + encodeURIComponent(name), size: info.size, modifiedAt: info.mtime.toISOString() } : undefined;
      }),
    );
    return files.filter((file) => file !== undefined).sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || a.name.localeCompare(b.name));
  }

  /** False when there is no such file. */
  delete(kind: ImageKind, name: string): Promise<boolean> {
    return deleteFile(this.folder(kind), name);
  }
}

export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${bytes} bytes`;
}

function listOf(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
