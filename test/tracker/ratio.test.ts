import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GIB } from '../../src/tracker/config.ts';
import { ratioOf, ratioShown, ratioVerdict } from '../../src/tracker/ratio.ts';
import { formatRatio } from '../../src/web/format.ts';

const rule = { minimum: 0.3, afterBytes: 10 * GIB };

describe('the ratio rule', () => {
  it('computes uploaded / downloaded, none before anything is downloaded', () => {
    assert.equal(ratioOf({ uploaded: 5, downloaded: 10 }), 0.5);
    assert.equal(ratioOf({ uploaded: 5, downloaded: 0 }), null);
  });

  it('shows the ratio only after the threshold downloaded', () => {
    assert.equal(ratioShown({ uploaded: 0, downloaded: 10 * GIB - 1 }, rule), false);
    assert.equal(ratioShown({ uploaded: 0, downloaded: 10 * GIB }, rule), true);
  });

  it('lets anyone below the threshold download, whatever the ratio', () => {
    assert.deepEqual(ratioVerdict({ uploaded: 0, downloaded: 10 * GIB - 1 }, rule), { allowed: true });
  });

  it('refuses a ratio below the minimum after the threshold, saying why', () => {
    const verdict = ratioVerdict({ uploaded: 2.99 * GIB, downloaded: 10 * GIB }, rule);
    assert.equal(verdict.allowed, false);
    assert.ok(!verdict.allowed && /ratio is 0\.29, below the minimum of 0\.30/.test(verdict.reason));
  });

  it('allows a ratio exactly at the minimum and above', () => {
    assert.deepEqual(ratioVerdict({ uploaded: 3 * GIB, downloaded: 10 * GIB }, rule), { allowed: true });
    assert.deepEqual(ratioVerdict({ uploaded: 50 * GIB, downloaded: 20 * GIB }, rule), { allowed: true });
  });

  it('is off when the minimum is 0', () => {
    assert.deepEqual(ratioVerdict({ uploaded: 0, downloaded: 100 * GIB }, { minimum: 0, afterBytes: 0 }), { allowed: true });
  });

  it('prints a ratio just under the minimum as under it (rounded down)', () => {
    assert.equal(formatRatio(0.2999), '0.29');
    assert.equal(formatRatio(1), '1.00');
  });
});
