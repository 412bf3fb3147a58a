// The worker pool that parses uploads off the event loop (metainfo-pool.ts):
// the same answers as parseTorrent, refusals in the uploader's language, a
// few workers reused, and a bounded queue that refuses a flood at once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { asReader } from '../../src/i18n/context.ts';
import { MetainfoError, parseTorrent } from '../../src/tracker/metainfo.ts';
import { MetainfoBusyError, MetainfoPool } from '../../src/tracker/metainfo-pool.ts';
import { crowdedTorrent, makeTorrent } from '../helpers/torrents.ts';

const options = { maxBytes: 1024 * 1024, announceUrl: 'https://tracker.example/bt/announce.php' };

describe('MetainfoPool', () => {
  const pool = new MetainfoPool({ size: 2, queueLimit: 4, idleMs: 60_000 });
  after(() => pool.close());

  it('answers what parseTorrent answers on the event loop: facts, file list, rewritten file and hashes', async () => {
    const torrents = [
      makeTorrent({ version: 'v1', files: randomBytes(70_000) }),
      makeTorrent({
        version: 'hybrid',
        name: 'Both',
        files: [
          { path: ['a', 'x.bin'], data: randomBytes(20_000) },
          { path: ['y.bin'], data: randomBytes(9_000) },
        ],
      }),
      makeTorrent({ version: 'v2', files: randomBytes(100_000) }),
      crowdedTorrent(options.maxBytes),
    ];
    const parsed = await Promise.all(torrents.map((torrent) => pool.parse(torrent, options)));
    parsed.forEach((facts, index) => assert.deepEqual(facts, parseTorrent(torrents[index]!, options)));
    assert.ok(Buffer.isBuffer(parsed[0]!.torrent));
  });

  it("leaves the caller's buffer as it was", async () => {
    const torrent = makeTorrent();
    const copy = Buffer.from(torrent);
    await pool.parse(torrent, options);
    assert.deepEqual(torrent, copy);
  });

  it("refuses with the sentence parseTorrent says, in the uploader's language", async () => {
    const bad = crowdedTorrent(options.maxBytes, { extraPieces: 1 });
    assert.throws(() => parseTorrent(bad, options), /^MetainfoError: The torrent has 4 piece hashes, but its files need 3 pieces of 16,384 bytes\.$/);
    await assert.rejects(pool.parse(bad, options), (error: unknown) => {
      assert.ok(error instanceof MetainfoError);
      assert.equal(error.message, 'The torrent has 4 piece hashes, but its files need 3 pieces of 16,384 bytes.');
      return true;
    });
    await assert.rejects(
      asReader({ locale: 'ru', timeZone: 'UTC' }, () => pool.parse(bad, options)),
      /В торренте хеши для 4 частей, а его файлы делятся на 3 части по 16\u00a0384 байта\./,
    );
  });

  it('reuses its few workers', async () => {
    await Promise.all(Array.from({ length: 6 }, () => pool.parse(makeTorrent(), options)));
    assert.equal(pool.stats().workers, 2);
    assert.ok(pool.stats().started <= 2, `started ${pool.stats().started} workers for 6 + 7 parses`);
  });

  it('refuses at once what finds the queue full, and still answers what was queued', async () => {
    const torrent = crowdedTorrent(options.maxBytes);
    const files = parseTorrent(torrent, options).files.length;
    // Two at work, four waiting: the seventh is refused before anything is done with it.
    const accepted = Array.from({ length: 6 }, () => pool.parse(torrent, options));
    assert.deepEqual(pool.stats(), { workers: 2, started: pool.stats().started, working: 2, queued: 4 });
    await assert.rejects(pool.parse(torrent, options), (error: unknown) => {
      assert.ok(error instanceof MetainfoBusyError);
      assert.equal(error.message, 'The server is checking many .torrent files just now; send yours again in a few seconds.');
      return true;
    });
    await assert.rejects(
      asReader({ locale: 'ru', timeZone: 'UTC' }, () => pool.parse(torrent, options)),
      /Сервер сейчас проверяет много \.torrent-файлов/,
    );
    for (const facts of await Promise.all(accepted)) assert.equal(facts.files.length, files);
    assert.equal(pool.stats().queued, 0);
  });

  it('stops idle workers after a while and starts new ones when work comes', async () => {
    const brief = new MetainfoPool({ size: 1, queueLimit: 1, idleMs: 10 });
    try {
      await brief.parse(makeTorrent(), options);
      assert.equal(brief.stats().workers, 1);
      while (brief.stats().workers > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal((await brief.parse(makeTorrent({ name: 'again' }), options)).name, 'again');
      assert.equal(brief.stats().started, 2);
    } finally {
      await brief.close();
    }
  });

  it('refuses what waits when it is closed', async () => {
    const closing = new MetainfoPool({ size: 1, queueLimit: 2, idleMs: 60_000 });
    const torrent = crowdedTorrent(options.maxBytes);
    const jobs = [closing.parse(torrent, options), closing.parse(torrent, options)].map((job) =>
      job.then(
        () => 'parsed',
        (error: Error) => error.message,
      ),
    );
    await closing.close();
    assert.deepEqual(await Promise.all(jobs), ['the .torrent checker was closed', 'the .torrent checker was closed']);
    assert.equal(closing.stats().workers, 0);
  });
});
