// Members' avatars (docs/members.md): a member sets or removes their own;
// moderators and admins remove anyone's (an avatar breaking the rules). Files
// live in UPLOAD_DIR/avatars/ named by content; a file goes when no member
// shows it any more.
import { join, resolve } from 'node:path';
import { STAFF, hasRole } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import { type Clock, isoNow } from '../../clock.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../../http/errors.ts';
import { deleteFile, ensureWritableFolder, saveByContent } from '../../uploads/content-files.ts';
import type { UserRow, UsersRepository } from '../repository.ts';
import { makeAvatar } from './avatar-image.ts';

/** Where avatars are served; a file's name is its content's hash, so it is cached forever. */
export const AVATAR_PATH = '/avatars/';

export function avatarUrl(user: Pick<UserRow, 'avatar'>): string | null {
  return user.avatar === null ? null : AVATAR_PATH + user.avatar;
}

export class Avatars {
  readonly #repository: UsersRepository;
  readonly #clock: Clock;
  readonly folder: string;

  constructor(repository: UsersRepository, uploadDir: string, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
    this.folder = join(resolve(uploadDir), 'avatars');
  }

  init(): Promise<void> {
    return ensureWritableFolder(this.folder);
  }

  /** The member's new avatar from an uploaded file; a file that is not a fitting image is a 422 on `field`. */
  async upload(userId: number, bytes: Uint8Array | undefined, actor: AuthUser, field = 'file'): Promise<UserRow> {
    if (actor.id !== userId) throw new ApiError('FORBIDDEN', 'Only the member can choose their avatar.');
    const image = await makeAvatar(bytes ?? new Uint8Array());
    if (!image.ok) throw ValidationError.field(field, image.message);
    const name = await saveByContent(this.folder, image.webp, 'webp');
    return this.#set(userId, name);
  }

  async remove(userId: number, actor: AuthUser): Promise<UserRow> {
    if (actor.id !== userId && !hasRole(actor, STAFF)) throw new ApiError('FORBIDDEN', 'Only the member, a moderator or an admin can remove an avatar.');
    return this.#set(userId, null);
  }

  async #set(userId: number, avatar: string | null): Promise<UserRow> {
    const changed = await this.#repository.setAvatar(userId, avatar, isoNow(this.#clock));
    if (changed === undefined) throw new ModelNotFoundError('User', userId);
    const { replaced } = changed;
    if (replaced !== null && replaced !== avatar && !(await this.#repository.avatarInUse(replaced))) await deleteFile(this.folder, replaced);
    return (await this.#repository.find(userId))!;
  }
}
