// Look-alike names (docs/members.md): every user gets the skeleton of their
// name (db/username-skeleton.ts), and no two names chosen from now on may
// share one. Names already here that look like an older member's (TorrentPier
// compared names with MySQL's collation, which lets `admin` and `Аdmin` both
// in) stay as they are, marked `username_lookalike`: their members log in and
// post as before. The unique index covers every other row, so each skeleton
// has at most one unmarked holder, and a new name (never marked) can take no
// skeleton that an unmarked row holds; the service's check looks at every row.
//   PostgreSQL  username_skeleton text not null (collate "C")
//   SQLite      username_skeleton text not null default '' (SQLite cannot add
//               a NOT NULL column without a default); every insert sets it
import { sql, type Kysely } from 'kysely';
import { dialectOf, exactText } from '../dialect.ts';
import { usernameSkeleton } from '../username-skeleton.ts';

/** Users read and updated per round: memory stays flat however many members the board has. */
const BATCH = 1000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .alterTable('users')
    .addColumn('username_skeleton', 'text', (c) => exactText(c, dialect).notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('username_lookalike', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; username: string }>`select id, username from users where id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    // One statement per round (the casts give PostgreSQL the types of the bound values).
    const values = sql.join(rows.map((row) => sql`(cast(${row.id} as integer), cast(${usernameSkeleton(row.username)} as text))`));
    await sql`with skeletons(id, skeleton) as (values ${values})
      update users set username_skeleton = (select skeletons.skeleton from skeletons where skeletons.id = users.id)
      where users.id in (select skeletons.id from skeletons)`.execute(db);
    after = rows.at(-1)!.id;
  }
  await db.schema.createIndex('users_username_skeleton').on('users').column('username_skeleton').execute();
  // The oldest holder of each skeleton keeps it; the later ones are the look-alikes.
  await sql`update users set username_lookalike = ${sql.lit(true)}
    where exists (select 1 from users older where older.username_skeleton = users.username_skeleton and older.id < users.id)`.execute(db);
  await sql`create unique index users_username_skeleton_unique on users (username_skeleton) where not username_lookalike`.execute(db);
  if (dialect === 'postgres') await sql`alter table users alter column username_skeleton drop default`.execute(db);
}
