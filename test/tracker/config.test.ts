import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { GIB, TRACKER_DEFAULTS } from '../../src/tracker/config.ts';

function refused(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => error instanceof ConfigError && error.variable === variable,
  );
}

describe('tracker configuration (TRACKER_* variables)', () => {
  it('has the defaults of tracker.md', () => {
    const { tracker } = loadConfig({});
    assert.deepEqual(tracker, TRACKER_DEFAULTS);
    assert.equal(tracker.announceInterval, 1800);
    assert.equal(tracker.maxTorrentBytes, 1024 * 1024);
    assert.equal(tracker.dailyDownloads, 50);
    assert.deepEqual(tracker.ratio, { minimum: 0.3, afterBytes: 10 * GIB });
    assert.deepEqual(tracker.numwant, { default: 50, max: 200 });
    assert.deepEqual(
      tracker.bonus.tiers.map((tier) => [tier.fromTorrents, tier.hundredthsPerHour]),
      [
        [1, 100],
        [11, 200],
        [21, 300],
        [51, 400],
      ],
    );
    assert.deepEqual(tracker.bonus.offersGib, [1, 5, 10, 20, 50]);
    assert.equal(tracker.bonus.hundredthsPerGib, 1000);
  });

  it('reads every variable', () => {
    const { tracker } = loadConfig({
      TRACKER_ANNOUNCE_INTERVAL: '900',
      TRACKER_MIN_INTERVAL: '60',
      TRACKER_MAX_TORRENT_BYTES: '2097152',
      TRACKER_DAILY_DOWNLOADS: '5',
      TRACKER_RATIO_MINIMUM: '0.5',
      TRACKER_RATIO_AFTER_GIB: '2.5',
      TRACKER_NUMWANT_DEFAULT: '30',
      TRACKER_NUMWANT_MAX: '100',
      TRACKER_MAX_SPEED: '1000000',
      TRACKER_BONUS_INTERVAL: '60',
      TRACKER_BONUS_TIERS: '1:0.5, 5:1.25',
      TRACKER_BONUS_OFFERS_GIB: '2,4',
      TRACKER_BONUS_POINTS_PER_GIB: '7.5',
    });
    assert.equal(tracker.announceInterval, 900);
    assert.equal(tracker.minInterval, 60);
    assert.equal(tracker.maxTorrentBytes, 2097152);
    assert.equal(tracker.dailyDownloads, 5);
    assert.deepEqual(tracker.ratio, { minimum: 0.5, afterBytes: 2.5 * GIB });
    assert.deepEqual(tracker.numwant, { default: 30, max: 100 });
    assert.equal(tracker.maxSpeedBytesPerSecond, 1000000);
    assert.deepEqual(tracker.bonus, {
      intervalSeconds: 60,
      tiers: [
        { fromTorrents: 1, hundredthsPerHour: 50 },
        { fromTorrents: 5, hundredthsPerHour: 125 },
      ],
      offersGib: [2, 4],
      hundredthsPerGib: 750,
    });
  });

  it('stops start-up on a bad value, naming the variable', () => {
    refused({ TRACKER_ANNOUNCE_INTERVAL: 'soon' }, 'TRACKER_ANNOUNCE_INTERVAL');
    // Shorter than libtorrent's own minimum between announces: its peers would expire in between.
    refused({ TRACKER_ANNOUNCE_INTERVAL: '200' }, 'TRACKER_ANNOUNCE_INTERVAL');
    refused({ TRACKER_ANNOUNCE_INTERVAL: '299' }, 'TRACKER_ANNOUNCE_INTERVAL');
    assert.equal(loadConfig({ TRACKER_ANNOUNCE_INTERVAL: '300' }).tracker.announceInterval, 300);
    refused({ TRACKER_ANNOUNCE_INTERVAL: '600', TRACKER_MIN_INTERVAL: '900' }, 'TRACKER_MIN_INTERVAL');
    refused({ TRACKER_NUMWANT_MAX: '100', TRACKER_NUMWANT_DEFAULT: '150' }, 'TRACKER_NUMWANT_DEFAULT');
    refused({ TRACKER_RATIO_MINIMUM: '-1' }, 'TRACKER_RATIO_MINIMUM');
    refused({ TRACKER_MAX_TORRENT_BYTES: '10' }, 'TRACKER_MAX_TORRENT_BYTES');
    refused({ TRACKER_BONUS_TIERS: '5:1,10:2' }, 'TRACKER_BONUS_TIERS');
    refused({ TRACKER_BONUS_TIERS: '1:1,1:2' }, 'TRACKER_BONUS_TIERS');
    refused({ TRACKER_BONUS_TIERS: '1:0.125' }, 'TRACKER_BONUS_TIERS');
    refused({ TRACKER_BONUS_OFFERS_GIB: '1,0' }, 'TRACKER_BONUS_OFFERS_GIB');
    refused({ TRACKER_BONUS_POINTS_PER_GIB: '0' }, 'TRACKER_BONUS_POINTS_PER_GIB');
  });
});
