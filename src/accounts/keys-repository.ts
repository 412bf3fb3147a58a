// SQL for one-time keys: activation and password-reset keys (account_keys)
// and confirmations of a new e-mail address (email_changes). Only hashes of
// the keys are stored. Using a key up is one conditional UPDATE, so two
// requests racing with the same key cannot both succeed.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AccountKeyPurpose, AccountKeysTable, Database, EmailChangesTable } from '../db/schema.ts';

export type AccountKeyRow = Selectable<AccountKeysTable>;
export type EmailChangeRow = Selectable<EmailChangesTable>;

type Db = Kysely<Database> | Transaction<Database>;

export class AccountKeysRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insert(
    key: { user_id: number; purpose: AccountKeyPurpose; key_hash: string; created_at: string; expires_at: string },
    db: Db = this.#db,
  ): Promise<void> {
    await db.insertInto('account_keys').values(key).execute();
  }

  find(keyHash: string): Promise<AccountKeyRow | undefined> {
    return this.#db.selectFrom('account_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  /** Marks the key used if it is still unused and unexpired; false when it is not (any more). */
  async consume(id: number, now: string, db: Db): Promise<boolean> {
    const result = await db
      .updateTable('account_keys')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every unused key of that purpose of the user stops working. */
  async retire(userId: number, purpose: AccountKeyPurpose, now: string, db: Db): Promise<void> {
    await db
      .updateTable('account_keys')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }

  async insertEmailChange(change: { user_id: number; new_email: string; key_hash: string; created_at: string; expires_at: string }): Promise<void> {
    await this.#db.insertInto('email_changes').values(change).execute();
  }

  findEmailChange(keyHash: string): Promise<EmailChangeRow | undefined> {
    return this.#db.selectFrom('email_changes').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  /** Like consume(); confirming one address also drops the user's other pending addresses. */
  async consumeEmailChange(change: EmailChangeRow, now: string, db: Db): Promise<boolean> {
    const result = await db
      .updateTable('email_changes')
      .set({ used_at: now })
      .where('id', '=', change.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await db.updateTable('email_changes').set({ used_at: now }).where('user_id', '=', change.user_id).where('used_at', 'is', null).execute();
    return true;
  }
}
