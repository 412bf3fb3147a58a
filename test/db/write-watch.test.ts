import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writtenTable } from '../../src/db/write-watch.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';

describe('writtenTable', () => {
  it('names the table of an insert, update or delete as Kysely writes them, and nothing for reads', () => {
    assert.equal(writtenTable('insert into "posts" ("body") values ($1) returning *'), 'posts');
    assert.equal(writtenTable('update "users" set "signature" = ? where "id" = ?'), 'users');
    assert.equal(writtenTable('delete from "topics" where "id" = $1'), 'topics');
    assert.equal(writtenTable('select * from "posts" where "id" = ?'), null);
    assert.equal(writtenTable('select pg_notify($1, $2)'), null);
  });
});

describeEachDatabase('database write watch', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  it('reports a write once other connections can see it: after the statement on SQLite, after the commit on PostgreSQL', async () => {
    const user = await createUser(t, { name: 'Watched Writer' });
    const heard: string[][] = [];
    const stop = t.database.writes.subscribe((tables) => heard.push([...tables]));
    try {
      await t.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ signature: 'watched' }).where('id', '=', user.id).execute();
        if (t.database.dialect === 'postgres') assert.deepEqual(heard, [], 'not before the commit');
        else assert.deepEqual(heard, [['users']]);
      });
      assert.deepEqual(heard.at(-1), ['users']);
      const count = heard.length;
      await t.database.db.selectFrom('users').select('id').execute();
      assert.equal(heard.length, count, 'reads are not writes');
    } finally {
      stop();
    }
  });
});
