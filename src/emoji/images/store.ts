// Uploaded emoji images and sprite sheets: checked by content against the
// rules of their kind, stored under UPLOAD_DIR with a name made from their
// content (so a URL always shows the same bytes and can be cached forever,
// and the same file uploaded twice is stored once), written atomically.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fieldName } from '../../i18n/field-names.ts';
import { t, type TextKey } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';
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

/** The refusals that name the kind ("The sprite sheet must …"): one sentence per kind, as Russian words them by the noun's gender. */
const KIND_MESSAGES: Record<ImageKind, { tooLarge: TextKey; type: TextKey; dimensions: TextKey }> = {
  custom: { tooLarge: 'emoji_image.custom.too_large', type: 'emoji_image.custom.type', dimensions: 'emoji_image.custom.dimensions' },
  sprites: { tooLarge: 'emoji_image.sprites.too_large', type: 'emoji_image.sprites.type', dimensions: 'emoji_image.sprites.dimensions' },
};

/**
 * The rules of a kind applied to the bytes; the message says what is wrong in
 * words an admin acts on, in the reader's language (the API's: English).
 * Pixel counts are strings: the API's English writes them without separators.
 */
export function checkImage(bytes: Uint8Array, kind: ImageKind): ImageCheck {
  const rules = IMAGE_RULES[kind];
  const messages = KIND_MESSAGES[kind];
  const allowed = listOf(rules.types.map((type) => (type === 'webp' ? 'WebP' : type.toUpperCase())));
  if (bytes.length === 0) return { ok: false, message: t('validation.required', { field: fieldName('file') }) };
  if (bytes.length > rules.maxBytes) return { ok: false, message: t(messages.tooLarge, { size: formatBytes(rules.maxBytes) }) };
  const probe = probeImage(bytes);
  if (!probe.ok) {
    if (probe.problem === 'svg') return { ok: false, message: t('emoji_image.svg', { allowed }) };
    if (probe.problem === 'corrupt') return { ok: false, message: t('emoji_image.damaged') };
    return { ok: false, message: t('emoji_image.not_image', { allowed }) };
  }
  const image = probe.image;
  if (!rules.types.includes(image.type)) return { ok: false, message: t(messages.type, { allowed, type: image.type.toUpperCase() }) };
  if (image.width > rules.maxWidth || image.height > rules.maxHeight) {
    const max = `${rules.maxWidth}×${rules.maxHeight}`;
    return { ok: false, message: t(messages.dimensions, { max, size: `${image.width}×${image.height}` }) };
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

function listOf(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : t('list.or', { first: words.slice(0, -1).join(', '), second: words.at(-1) ?? '' });
}
