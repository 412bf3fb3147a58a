// The one namespace of shortcodes and aliases (table emoji_codes). Writing a
// code here in the same transaction as its emoji or alias is what keeps two
// concurrent requests from both storing it: the primary key refuses the second.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { t } from '../i18n/messages.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type CodeOwner = { emojiId: number } | { aliasId: number };

export type CodeHolder = { kind: 'emoji'; id: number } | { kind: 'alias'; id: number };

export class CodeRegistry {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Who uses this code (exact match), if anyone. */
  async holder(code: string, db: Db = this.#db): Promise<CodeHolder | undefined> {
    const row = await db.selectFrom('emoji_codes').select(['emoji_id', 'alias_id']).where('code', '=', code).executeTakeFirst();
    if (row === undefined) return undefined;
    return row.emoji_id !== null ? { kind: 'emoji', id: row.emoji_id } : { kind: 'alias', id: row.alias_id as number };
  }

  /** Throws the database's unique violation when the code is taken. */
  async claim(code: string, owner: CodeOwner, db: Db): Promise<void> {
    await db
      .insertInto('emoji_codes')
      .values('emojiId' in owner ? { code, emoji_id: owner.emojiId, alias_id: null } : { code, emoji_id: null, alias_id: owner.aliasId })
      .execute();
  }

  /** The owner's code becomes `code`; throws the unique violation when that is taken. */
  async rename(owner: CodeOwner, code: string, db: Db): Promise<void> {
    let query = db.updateTable('emoji_codes').set({ code });
    query = 'emojiId' in owner ? query.where('emoji_id', '=', owner.emojiId) : query.where('alias_id', '=', owner.aliasId);
    await query.execute();
  }
}

/** "The emoji shortcode has already been taken." and its cross-set variants, in the reader's language (the API's: English). */
export function takenMessage(field: 'emoji_shortcode' | 'alias', holder: CodeHolder['kind']): string {
  if (field === 'emoji_shortcode') {
    return holder === 'emoji' ? t('validation.emoji_shortcode_taken') : t('validation.emoji_shortcode_taken_by_alias');
  }
  return holder === 'alias' ? t('validation.alias_taken') : t('validation.alias_taken_by_shortcode');
}
