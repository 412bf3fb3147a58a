// Members' avatars (docs/members.md): a member sets or removes their own;
// moderators and admins remove anyone's (an avatar breaking the rules), which
// the moderation log records. Files live in UPLOAD_DIR/avatars/ named by
// content; a file goes when no member shows it any more.
import { join, resolve } from 'node:path';
import type { Transaction } from 'kysely';
import { STAFF, hasRole } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import { type Clock, isoNow } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { integerFromText, ID_RANGE } from '../../http/integers.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../../http/errors.ts';
import { deleteFile, ensureWritableFolder, saveByContent } from '../../uploads/content-files.ts';
import type { AlsoOnAvatarChange, UserRow, UsersRepository } from '../repository.ts';
import { makeAvatar } from './avatar-image.ts';

/** Where avatars are served; a file's name is its content's hash, so it is cached forever. */
export const AVATAR_PATH = '/avatars/';

export function avatarUrl(user: Pick<UserRow, 'avatar'>): string | null {
  return user.avatar === null ? null : AVATAR_PATH + user.avatar;
}

/** The folder under UPLOAD_DIR holding the avatar files. */
export function avatarFolder(uploadDir: string): string {
  return join(resolve(uploadDir), 'avatars');
}

export type StoredAvatar = { ok: true; name: string } | { ok: false; message: string };

/**
 * An image file made into a stored avatar (read, checked and resized by
 * avatar-image.ts): its file name in `folder`, or why it is refused. Uploads
 * and the TorrentPier import both come through here, so an imported avatar
 * meets exactly the rules an upload meets.
 */
export async function storeAvatar(folder: string, bytes: Uint8Array): Promise<StoredAvatar> {
  const image = await makeAvatar(bytes);
  if (!image.ok) return image;
  return { ok: true, name: await saveByContent(folder, image.webp, 'webp') };
}

/**
 * Where a staff removal is written: the moderation log
 * (forum/moderation-log.ts), a module above this one, handed in by
 * services.ts. It is written in the removal's transaction.
 */
export interface AvatarRemovalLog {
  record(
    entry: { actorId: number; action: 'remove_avatar'; forumId: null; topicId: null; userId: number; subject: string },
    at: string,
    db: Transaction<Database>,
  ): Promise<void>;
}

export class Avatars {
  readonly #repository: UsersRepository;
  readonly #clock: Clock;
  readonly #log: AvatarRemovalLog;
  readonly folder: string;

  constructor(repository: UsersRepository, uploadDir: string, clock: Clock, log: AvatarRemovalLog) {
    this.#repository = repository;
    this.#clock = clock;
    this.#log = log;
    this.folder = avatarFolder(uploadDir);
  }

  init(): Promise<void> {
    return ensureWritableFolder(this.folder);
  }

  /** The member's new avatar from an uploaded file; a file that is not a fitting image is a 422 on `field`. */
  async upload(userId: number, bytes: Uint8Array | undefined, actor: AuthUser, field = 'file'): Promise<UserRow> {
    this.assertMayChoose(userId, actor);
    const stored = await storeAvatar(this.folder, bytes ?? new Uint8Array());
    if (!stored.ok) throw ValidationError.field(field, stored.message);
    return this.#set(userId, stored.name);
  }

  /**
   * Only the member chooses their avatar. Also asked before an upload's body is
   * read, when the id is still the path's text: text that is no id at all is
   * left to the path's validation (404).
   */
  assertMayChoose(userId: number | string, actor: AuthUser): void {
    const id = typeof userId === 'number' ? userId : integerFromText(userId, ID_RANGE);
    if (id !== null && id !== actor.id) throw new ApiError('FORBIDDEN', 'Only the member can choose their avatar.');
  }

  /** A staff removal of someone else's avatar is logged; the member's own is not, nor a removal that found no avatar (nothing happened). */
  async remove(userId: number, actor: AuthUser): Promise<UserRow> {
    if (actor.id === userId) return this.#set(userId, null);
    if (!hasRole(actor, STAFF)) throw new ApiError('FORBIDDEN', 'Only the member, a moderator or an admin can remove an avatar.');
    return this.#set(userId, null, async (trx, before) => {
      if (before.avatar === null) return;
      const entry = { actorId: actor.id, action: 'remove_avatar', forumId: null, topicId: null, userId, subject: before.username } as const;
      await this.#log.record(entry, isoNow(this.#clock), trx);
    });
  }

  async #set(userId: number, avatar: string | null, also?: AlsoOnAvatarChange): Promise<UserRow> {
    const changed = await this.#repository.setAvatar(userId, avatar, isoNow(this.#clock), also);
    if (changed === undefined) throw new ModelNotFoundError('User', userId);
    const { replaced } = changed;
    if (replaced !== null && replaced !== avatar && !(await this.#repository.avatarInUse(replaced))) await deleteFile(this.folder, replaced);
    return (await this.#repository.find(userId))!;
  }
}
