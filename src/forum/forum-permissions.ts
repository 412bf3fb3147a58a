// A forum's permissions as admins set them (docs/access.md, "API"): one
// level per action and the grants to groups and members, read and replaced
// whole, in one transaction, written to the moderation log. The API's PUT and
// the admin page's grid both come here.
import { type Clock, isoNow } from '../clock.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.ts';
import type { AccessLevel } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { usernameKey } from '../users/repository.ts';
import type { AccessRepository } from './access-repository.ts';
import type { ModerationLog } from './moderation-log.ts';
import { ACCESS_ACTIONS, actionMask, actionsOf, isAccessAction, isAccessLevel, type AccessAction, type ForumLevels, type Grant } from './permissions.ts';

/** How many grants one forum may hold: a grid an admin can still read. */
export const GRANTS_MAX = 500;

/** A grant as the API shows it: to a group or to one member. */
export type GrantView = ({ group_id: number } | { user_id: number }) & { actions: AccessAction[]; moderate: boolean };

export interface PermissionsView {
  levels: ForumLevels;
  grants: GrantView[];
}

/** What a client sends: shaped by the route's schema, every name still unchecked. */
export interface PermissionsInput {
  levels: Record<string, string>;
  grants: ReadonlyArray<{
    group_id?: number | null | undefined;
    user_id?: number | null | undefined;
    actions: readonly string[];
    moderate?: boolean | undefined;
  }>;
}

export class ForumPermissionSettings {
  readonly #repository: AccessRepository;
  readonly #log: ModerationLog;
  readonly #clock: Clock;

  constructor(repository: AccessRepository, log: ModerationLog, clock: Clock) {
    this.#repository = repository;
    this.#log = log;
    this.#clock = clock;
  }

  /** The forum's levels and grants; 404 for an unknown forum. */
  async get(forumId: number): Promise<PermissionsView> {
    const levels = await this.#repository.levels(forumId);
    if (levels === undefined) throw new ModelNotFoundError('Forum', forumId);
    return { levels, grants: (await this.#repository.grants(forumId)).map(grantView) };
  }

  /**
   * The forum's permissions become exactly `input`. 404 for an unknown forum;
   * 422 naming each unknown action, level, group or member, a grant naming
   * both or neither, and a holder granted twice; nothing is written then.
   */
  async replace(forumId: number, input: PermissionsInput, actor: { id: number }, forumName: string): Promise<PermissionsView> {
    const errors = new FieldErrorBag();
    const levels = checkLevels(input.levels, errors);
    const grants = checkGrants(input.grants, errors);
    errors.throwIfAny();
    try {
      await this.#repository.transaction(async (trx) => {
        const [groups, users] = await Promise.all([
          this.#repository.existingGroups(
            grants.flatMap((grant) => (grant.groupId === null ? [] : [grant.groupId])),
            trx,
          ),
          this.#repository.existingUsers(
            grants.flatMap((grant) => (grant.userId === null ? [] : [grant.userId])),
            trx,
          ),
        ]);
        grants.forEach((grant, index) => {
          if (grant.groupId !== null && !groups.has(grant.groupId)) errors.add(`grants.${index}.group_id`, t('access.unknown_group'));
          if (grant.userId !== null && !users.has(grant.userId)) errors.add(`grants.${index}.user_id`, t('access.unknown_user'));
        });
        errors.throwIfAny();
        if (!(await this.#repository.replace(forumId, levels!, grants, trx))) throw new ModelNotFoundError('Forum', forumId);
        await this.#log.record({ actorId: actor.id, action: 'set_permissions', forumId, topicId: null, subject: forumName }, isoNow(this.#clock), trx);
      });
    } catch (error) {
      // A group or member deleted between the check and the write.
      if (!isForeignKeyViolation(error) && !isUniqueViolation(error)) throw error;
      errors.add('grants', t('access.grants_changed'));
      errors.throwIfAny();
    }
    return this.get(forumId);
  }

  /** The grants with their holders' names (a holder gone meanwhile is named by its id). */
  async named(grants: readonly GrantView[]): Promise<NamedGrant[]> {
    const { groups, users } = await this.#repository.holderNames(
      grants.flatMap((grant) => ('group_id' in grant ? [grant.group_id] : [])),
      grants.flatMap((grant) => ('user_id' in grant ? [grant.user_id] : [])),
    );
    return grants.map((grant) => ({
      ...grant,
      name: 'group_id' in grant ? (groups.get(grant.group_id) ?? `#${grant.group_id}`) : (users.get(grant.user_id) ?? `#${grant.user_id}`),
    }));
  }

  /** The id of the group with this name (any letter case), if there is one. */
  groupNamed(name: string): Promise<number | undefined> {
    return this.#repository.groupByNameKey(usernameKey(name));
  }
}

/** A grant with its holder's name, as the admin grid lists it. */
export type NamedGrant = GrantView & { name: string };

function grantView(grant: Grant): GrantView {
  const holder = grant.groupId !== null ? { group_id: grant.groupId } : { user_id: grant.userId! };
  return { ...holder, actions: actionsOf(grant.actions), moderate: grant.moderate };
}

/** Every action has a known level, and no other key is given. */
function checkLevels(input: Record<string, string>, errors: FieldErrorBag): ForumLevels | undefined {
  for (const key of Object.keys(input)) if (!isAccessAction(key)) errors.add(`levels.${key}`, t('access.unknown_action', { action: key }));
  const levels: Partial<Record<AccessAction, AccessLevel>> = {};
  for (const action of ACCESS_ACTIONS) {
    const level = input[action];
    if (level === undefined) errors.add(`levels.${action}`, t('access.level_missing'));
    else if (!isAccessLevel(level)) errors.add(`levels.${action}`, t('access.unknown_level', { level }));
    else levels[action] = level;
  }
  return errors.isEmpty ? (levels as ForumLevels) : undefined;
}

/** Each grant names one group or one member, once, with known actions. */
function checkGrants(input: PermissionsInput['grants'], errors: FieldErrorBag): Grant[] {
  if (input.length > GRANTS_MAX) errors.add('grants', t('access.too_many_grants', { limit: String(GRANTS_MAX) }));
  const seen = new Set<string>();
  return input.map((grant, index) => {
    const groupId = grant.group_id ?? null;
    const userId = grant.user_id ?? null;
    if ((groupId === null) === (userId === null)) errors.add(`grants.${index}`, t('access.grant_holder'));
    const holder = groupId !== null ? `g${groupId}` : `u${userId}`;
    if (seen.has(holder)) errors.add(`grants.${index}`, t('access.grant_twice'));
    seen.add(holder);
    grant.actions.forEach((action, at) => {
      if (!isAccessAction(action)) errors.add(`grants.${index}.actions.${at}`, t('access.unknown_action', { action }));
    });
    return { forumId: 0, groupId, userId, actions: actionMask(grant.actions.filter(isAccessAction)), moderate: grant.moderate ?? false };
  });
}
