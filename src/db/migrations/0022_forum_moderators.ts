// Forum moderators (docs/moderation.md, "Forum moderators"): a member who
// moderates one forum, as TorrentPier's per-forum AUTH_MOD (bb_auth_access)
// made them. A row goes with its forum or its member (cascade); the index on
// user_id answers "which forums does this member moderate", read with every
// signed-in request (auth/credentials-repository.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('forum_moderators')
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('forums.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('forum_moderators_pk', ['forum_id', 'user_id'])
    .execute();
  await db.schema.createIndex('forum_moderators_user').on('forum_moderators').column('user_id').execute();
}
