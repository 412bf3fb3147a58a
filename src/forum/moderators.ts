// Forum moderators (docs/moderation.md, "Forum moderators"): the members who
// moderate one forum besides staff, who moderate them all. Admins set a
// forum's list (the API's PUT, the admin forum page); the forum's page and
// the index name them. What a forum moderator may do is access.ts's.
import { FieldErrorBag, ValidationError } from '../http/errors.ts';
import { isForeignKeyViolation } from '../db/dialect.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t, tn } from '../i18n/messages.ts';
import { usernameKey } from '../users/repository.ts';
import type { Forums } from './forums.ts';
import type { ForumModerator, ForumRepository } from './repository.ts';

export type { ForumModerator };

/** How many moderators one forum may have: a list an admin can still read. */
export const MODERATORS_MAX = 100;

export class ForumModerators {
  readonly #repository: ForumRepository;
  readonly #forums: Forums;

  constructor(repository: ForumRepository, forums: Forums) {
    this.#repository = repository;
    this.#forums = forums;
  }

  /** The forum's moderators by name; 404 for an unknown forum. */
  async of(forumId: number): Promise<ForumModerator[]> {
    const forum = await this.#forums.get(forumId);
    return (await this.#repository.moderatorsOf([forum.id])).get(forum.id) ?? [];
  }

  /** The moderators of each of these forums (one query for a whole list; forums without any are absent). */
  ofForums(forumIds: readonly number[]): Promise<Map<number, ForumModerator[]>> {
    return this.#repository.moderatorsOf(forumIds);
  }

  /**
   * The forum's moderators become exactly these users, at once (one
   * transaction: nobody sees half a list). 404 for an unknown forum; 422 for
   * an id no user has (`user_ids.<index>`), a repeated one or too many.
   */
  async replace(forumId: number, userIds: readonly number[]): Promise<ForumModerator[]> {
    const forum = await this.#forums.get(forumId);
    const errors = new FieldErrorBag();
    if (userIds.length > MODERATORS_MAX)
      errors.add('user_ids', tn('validation.max_items', MODERATORS_MAX, { field: fieldName('user_ids'), limit: String(MODERATORS_MAX) }));
    if (new Set(userIds).size !== userIds.length) errors.add('user_ids', t('validation.unique_items', { field: fieldName('user_ids') }));
    errors.throwIfAny();
    try {
      await this.#repository.transaction(async (trx) => {
        const users = await this.#repository.usersById(userIds, trx);
        userIds.forEach((id, index) => {
          if (!users.has(id)) errors.add(`user_ids.${index}`, t('validation.selected', { field: fieldName(`user_ids.${index}`) }));
        });
        errors.throwIfAny();
        await this.#repository.replaceModerators(forum.id, userIds, trx);
      });
    } catch (error) {
      // A user deleted (or the forum) between the check and the write.
      if (!isForeignKeyViolation(error)) throw error;
      await this.#forums.get(forum.id);
      throw ValidationError.field('user_ids', t('validation.selected', { field: fieldName('user_ids') }));
    }
    return this.of(forum.id);
  }

  /** The users with these names (any letter case), and the names no user has, as typed. */
  async named(names: readonly string[]): Promise<{ found: ForumModerator[]; unknown: string[] }> {
    const users = await this.#repository.usersByNameKey([...new Set(names.map(usernameKey))]);
    const found = new Map<number, ForumModerator>();
    const unknown: string[] = [];
    for (const name of names) {
      const user = users.get(usernameKey(name));
      if (user === undefined) unknown.push(name);
      else found.set(user.id, user);
    }
    return { found: [...found.values()], unknown };
  }
}
