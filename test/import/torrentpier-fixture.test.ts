// The importer's test bed: a private MariaDB and the TorrentPier fixture for
// 2.4.x and 3.0.x, checked against the schema facts before anything imports from it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { mariaDbAvailable, startPrivateMariaDb, type PrivateMariaDb } from './mariadb.ts';
import { createTorrentPierFixture, type TorrentPierVersion } from './torrentpier-fixture.ts';

/** The first row the query answers; fails the test when there is none. */
async function oneRow(conn: Connection, query: string, values: unknown[] = []): Promise<RowDataPacket> {
  const [rows] = await conn.query<RowDataPacket[]>(query, values);
  assert.ok(rows[0] !== undefined, `no row for ${query}`);
  return rows[0];
}

describe('TorrentPier fixture on a private MariaDB', { skip: !mariaDbAvailable() && 'mariadb-server is not installed' }, () => {
  let server: PrivateMariaDb;
  before(async () => {
    server = await startPrivateMariaDb();
  });
  after(async () => {
    await server?.stop();
  });

  for (const version of ['2.4', '3.0'] as TorrentPierVersion[]) {
    it(`builds the ${version}.x tables with the upstream's storage quirks`, async () => {
      const files = mkdtempSync(join(tmpdir(), 'tp-files-'));
      const admin = await server.connect();
      const db = `tp${version.replace('.', '')}`;
      await admin.query(`CREATE DATABASE ${db} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.end();
      const conn = await server.connect(db);
      try {
        const fixture = await createTorrentPierFixture(conn, version, files);
        const [tables] = await conn.query<RowDataPacket[]>('SHOW TABLES');
        const names = tables.map((row) => Object.values(row)[0]);
        assert.equal(names.includes('bb_posts_text'), version === '2.4');
        assert.equal(names.includes('bb_post_texts'), version === '3.0');
        assert.equal(names.includes('bb_attachments_desc'), version === '2.4');

        const ann = await oneRow(conn, 'SELECT username, user_password FROM bb_users WHERE user_id = 3');
        assert.equal(ann.username, 'Ann &amp; &lt;Bob&gt;');
        const md5User = fixture.users.find((u) => u.scheme === 'md5md5')!;
        const bcryptUser = fixture.users.find((u) => u.scheme === 'bcrypt')!;
        const md5Row = await oneRow(conn, 'SELECT user_password FROM bb_users WHERE user_id = ?', [md5User.id]);
        assert.match(md5Row.user_password, /^[0-9a-f]{32}$/);
        const bcryptRow = await oneRow(conn, 'SELECT user_password FROM bb_users WHERE user_id = ?', [bcryptUser.id]);
        assert.match(bcryptRow.user_password, /^\$2y\$/);
        assert.ok(bcrypt.compareSync(bcryptUser.password, bcryptRow.user_password));

        const post = await oneRow(conn, `SELECT post_text FROM ${version === '2.4' ? 'bb_posts_text' : 'bb_post_texts'} WHERE post_id = 1`);
        assert.match(post.post_text, /\[code\]if \(a &lt; b &amp;&amp; c &gt; d\) \{\}\[\/code\]/);
        assert.match(post.post_text, /&copy; Fish &amp; Chips/);

        const quirk = fixture.torrents[0]!;
        assert.equal(quirk.trimmed, true);
        const row = await oneRow(conn, 'SELECT info_hash FROM bb_bt_torrents WHERE topic_id = ?', [quirk.topicId]);
        assert.equal(row.info_hash.length < 20, version === '2.4', 'only 2.x trims the hash');
        assert.deepEqual(readFileSync(join(files, quirk.file)), quirk.bytes);

        const counts = await oneRow(conn, 'SELECT COUNT(*) AS n FROM bb_privmsgs WHERE privmsgs_type = 2');
        assert.ok(Number(counts.n) > 0, 'read messages have a SENT copy');
      } finally {
        await conn.end();
        rmSync(files, { recursive: true, force: true });
      }
    });
  }
});
