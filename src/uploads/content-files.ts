// Files under UPLOAD_DIR named by their content: a URL always shows the same
// bytes and can be cached forever, and the same file stored twice is one file.
// Used by the emoji images (emoji/images/store.ts) and the avatars
// (users/avatars/). Files are written beside and renamed, so a reader never
// sees half a file.
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

/** The folder exists and can be written to; otherwise start-up stops naming UPLOAD_DIR. */
export async function ensureWritableFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new ConfigError('UPLOAD_DIR', `must be a folder the server can write to (${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Stores the bytes as `<hash>.<extension>` in `folder` and returns that name; storing the same bytes again is a no-op. */
export async function saveByContent(folder: string, bytes: Uint8Array, extension: string): Promise<string> {
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension}`;
  const path = join(folder, name);
  if (!(await exists(path))) {
    const temporary = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, bytes, { flag: 'wx' });
    await rename(temporary, path);
  }
  return name;
}

/** A plain file name in an upload folder: no path, no hidden files. */
export function isFileName(name: string): boolean {
  return /^[\w-][\w.-]{0,254}$/.test(name) && !name.includes('..');
}

/** Removes a stored file; false when there is no such file. */
export async function deleteFile(folder: string, name: string): Promise<boolean> {
  if (!isFileName(name)) return false;
  try {
    await unlink(join(folder, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
