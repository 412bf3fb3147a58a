// Reading a TorrentPier database: the --from URL, the version detection and
// the keyset-paginated batch reader, against a private MariaDB.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import { countRows, detectVersion, readBatches, sourceOptions } from '../../src/import/torrentpier/source.ts';
import { mariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from './mariadb.ts';
import { createTorrentPierFixture } from './torrentpier-fixture.ts';

describe('sourceOptions (--from)', () => {
  it('reads user, password, host, port and database', () => {
    const o = sourceOptions('mysql://tp%40user:p%3Ass@db.example:3307/torrentpier');
    assert.equal(o.user, 'tp@user');
    assert.equal(o.password, 'p:ss');
    assert.equal(o.host, 'db.example');
    assert.equal(o.port, 3307);
    assert.equal(o.database, 'torrentpier');
  });
  it('takes a unix socket from ?socket=', () => {
    const o = sourceOptions('mysql://root@localhost/tp?socket=%2Ftmp%2Fm.sock');
    assert.equal(o.socketPath, '/tmp/m.sock');
    assert.equal(o.host, undefined);
  });
  it('refuses another scheme and a missing database', () => {
    assert.throws(() => sourceOptions('postgres://x@y/z'), /mysql:\/\//);
    assert.throws(() => sourceOptions('mysql://x@y/'), /no database/);
    assert.throws(() => sourceOptions('not a url'), /not a URL/);
  });
});

describe('reading the upstream database', { skip: !mariaDbAvailable() && 'mariadb-server is not installed' }, () => {
  let server: PrivateMariaDb;
  let files: string;
  before(async () => {
    server = await startPrivateMariaDb();
    files = mkdtempSync(join(tmpdir(), 'tp-files-'));
    const admin = await server.connect();
    await admin.query('CREATE DATABASE tp24; CREATE DATABASE tp30; CREATE DATABASE other');
    await admin.end();
    for (const [db, version] of [
      ['tp24', '2.4'],
      ['tp30', '3.0'],
    ] as const) {
      const conn = await server.connect(db);
      await createTorrentPierFixture(conn, version, join(files, db), { users: 23, topicsPerForum: 2 });
      await conn.end();
    }
  });
  after(async () => {
    await server?.stop();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it('detects 2.4.x and 3.0.x, and refuses a database that is not TorrentPier', async () => {
    for (const [db, expected] of [
      ['tp24', '2.4'],
      ['tp30', '3.0'],
    ] as const) {
      const conn = await mysql.createConnection(sourceOptions(server.url(db)));
      assert.equal(await detectVersion(conn), expected);
      await conn.end();
    }
    const other = await mysql.createConnection(sourceOptions(server.url('other')));
    await assert.rejects(detectVersion(other), /not a TorrentPier database/);
    await other.end();
  });

  it('streams every row once, in key order, in batches no larger than asked (single and composite keys)', async () => {
    const conn = await mysql.createConnection(sourceOptions(server.url('tp24')));
    try {
      const ids: number[] = [];
      let batches = 0;
      for await (const rows of readBatches(conn, { table: 'bb_users', key: ['user_id'], columns: ['username'], batchSize: 4 })) {
        assert.ok(rows.length <= 4);
        batches++;
        for (const row of rows) ids.push(Number(row['user_id']));
      }
      assert.equal(ids.length, await countRows(conn, 'bb_users'));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      assert.equal(ids[0], -746, 'signed ids: the bot comes first');
      assert.equal(batches, Math.ceil(ids.length / 4));

      const pairs: string[] = [];
      for await (const rows of readBatches(conn, { table: 'bb_topics_watch', key: ['topic_id', 'user_id'], columns: [], batchSize: 3 })) {
        for (const row of rows) pairs.push(`${row['topic_id']}/${row['user_id']}`);
      }
      assert.equal(pairs.length, await countRows(conn, 'bb_topics_watch'));
      assert.equal(new Set(pairs).size, pairs.length);
    } finally {
      await conn.end();
    }
  });
});
