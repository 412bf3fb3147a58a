import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asReader } from '../../src/i18n/context.ts';
import { formatBytes } from '../../src/i18n/sizes.ts';
import type { TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { loggedIn, mainText, type Member } from '../helpers/forum.ts';
import { announceUrl, closeTrackerApp, describeEachTrackerSetup, peerId, registerTorrent, trackerGet } from '../helpers/tracker.ts';
import { dom, textOf } from '../helpers/dom.ts';

const GIB = 1024 ** 3;

async function setStats(t: TestApp, userId: number, values: { uploaded?: number; downloaded?: number; bonus_points?: number }): Promise<void> {
  await t.database.db
    .insertInto('tracker_user_stats')
    .values({
      user_id: userId,
      uploaded: values.uploaded ?? 0,
      downloaded: values.downloaded ?? 0,
      bonus_points: values.bonus_points ?? 0,
      updated_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

describeEachTrackerSetup('tracker figures', (setup) => {
  let t: TestApp;
  before(async () => {
    t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0' } });
  });
  after(() => closeTrackerApp(t));

  describe('/profile/bonus/', () => {
    it('sends guests to log in', async () => {
      const response = await new Browser(t).get('/profile/bonus/');
      assert.equal(response.status, 303);
      assert.equal(response.location, '/login/?next=%2Fprofile%2Fbonus%2F');
    });

    it('shows the balance, the tiers and the offers', async () => {
      const member = await loggedIn(t);
      await setStats(t, member.user.id, { bonus_points: 1234 });
      const page = await member.browser.get('/profile/bonus/');
      assert.equal(page.status, 200);
      const text = mainText(page.body);
      assert.match(text, /You have 12\.34 bonus points\./);
      assert.match(text, /1–10 1 11–20 2 21–50 3 51 or more 4/);
      const offers = dom(page)
        .all('button[type="submit"]')
        .map((button) => ({ text: textOf(button), disabled: button.hasAttribute('disabled') }));
      assert.ok(
        offers.some((offer) => offer.text === '1 GiB for 10 points' && !offer.disabled),
        'an affordable offer',
      );
      assert.ok(
        offers.some((offer) => offer.text === '5 GiB for 50 points' && offer.disabled),
        'an offer out of reach, disabled',
      );
      // A disabled offer says why, and the button points at the reason for assistive technology.
      const outOfReach = dom(page).one('button[disabled]');
      const reason = dom(page).one(`#${outOfReach.getAttribute('aria-describedby')}`);
      assert.match(textOf(reason), /^\d+(\.\d+)? points more needed$/);

      assert.match(text, /Nothing yet\./);
    });

    let member: Member;
    it('exchanges points for upload credit once per click, and lists it in the history', async () => {
      member = await loggedIn(t);
      await setStats(t, member.user.id, { bonus_points: 2500 });
      const page = await member.browser.get('/profile/bonus/');
      const offer = dom(page).one('form:has(input[name="offer"][value="1"])');
      const key = dom(offer).attr('input[type="hidden"][name="key"]', 'value');
      assert.equal(offer.querySelector('input[name="key"]')?.previousElementSibling?.getAttribute('name'), 'offer');
      assert.ok(key);
      const first = await member.browser.post('/profile/bonus/', { offer: '1', key });
      assert.equal(first.status, 303);
      assert.equal(first.location, '/profile/bonus/?exchanged=1');
      const again = await member.browser.post('/profile/bonus/', { offer: '1', key });
      assert.equal(again.status, 303, 'a repeated submit is answered as done');
      const after = await member.browser.get('/profile/bonus/?exchanged=1');
      const text = mainText(after.body);
      assert.match(text, /1 GiB of upload credit were added to your account\./);
      assert.match(text, /You have 15 bonus points\./);
      assert.match(text, /Exchanged for 1 GiB of upload credit -10\b/);
      const stats = await t.database.db
        .selectFrom('tracker_user_stats')
        .select(['uploaded', 'bonus_points'])
        .where('user_id', '=', member.user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...stats }, { uploaded: GIB, bonus_points: 1500 });
    });

    it('refuses an offer the balance does not cover (422, nothing changed)', async () => {
      const response = await member.browser.post('/profile/bonus/', { offer: '5', key: 'a-new-key-123' });
      assert.equal(response.status, 422);
      assert.match(mainText(response.body), /You do not have enough points for that offer\./);
      assert.match(mainText(response.body), /You have 15 bonus points\./);
    });

    it('refuses a form without its key (422)', async () => {
      const response = await member.browser.post('/profile/bonus/', { offer: '1' });
      assert.equal(response.status, 422);
      assert.match(mainText(response.body), /This exchange form is incomplete/);
    });
  });

  describe('profile', () => {
    it('shows uploaded, downloaded, the ratio only past the threshold, bonus points, and torrents seeded and leeched now', async () => {
      const member = await loggedIn(t);
      await setStats(t, member.user.id, { uploaded: 3 * GIB, downloaded: 2 * GIB, bonus_points: 250 });
      const profile = `/profile/${member.user.username_key.replace(/[^a-z0-9]+/g, '-')}.${member.user.id}/`;
      const before = mainText((await new Browser(t).get(profile)).body);
      assert.match(before, /Uploaded 3 GiB Downloaded 2 GiB Bonus points 2\.50 Seeding now 0 Leeching now 0/);
      assert.doesNotMatch(before, /Ratio/);

      // Every page's header gives the member their figures and the way to the tracker, their profile and their bonus; a guest gets none.
      const home = await member.browser.get('/');
      const bar = dom(home).one('nav.member-bar');
      assert.equal(textOf(bar).replace(/\s+/g, ' ').trim(), 'Tracker ↑ 3 GiB ↓ 2 GiB Ratio 1.50 Bonus 2.50');
      assert.deepEqual(
        dom(bar)
          .all('a')
          .map((link) => link.getAttribute('href')),
        ['/tracker/', profile, '/profile/bonus/'],
      );
      assert.equal(dom(await new Browser(t).get('/')).count('nav.member-bar'), 0);

      const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
      const one = await registerTorrent(t);
      const two = await registerTorrent(t);
      const three = await registerTorrent(t);
      await trackerGet(t, announceUrl({ passkey, infoHash: one.v1!, peerId: peerId(), left: 0, event: 'started' }));
      await trackerGet(t, announceUrl({ passkey, infoHash: two.v1!, peerId: peerId(), left: 0, event: 'started' }));
      const leech = peerId();
      await trackerGet(t, announceUrl({ passkey, infoHash: three.v1!, peerId: leech, left: 5, event: 'started' }));
      await setStats(t, member.user.id, { uploaded: 6 * GIB, downloaded: 12 * GIB });
      await t.services.tracker.accounting.flush();
      const during = mainText((await new Browser(t).get(profile)).body);
      assert.match(during, /Uploaded 6 GiB Downloaded 12 GiB Ratio 0\.50 Bonus points 2\.50 Seeding now 2 Leeching now 1/);

      await trackerGet(t, announceUrl({ passkey, infoHash: three.v1!, peerId: leech, left: 5, event: 'stopped' }));
      await t.services.tracker.accounting.flush();
      assert.match(mainText((await new Browser(t).get(profile)).body), /Seeding now 2 Leeching now 0/);
    });
  });

  describe('GET /api/tracker/stats', () => {
    it('counts torrents, peers, seeders, leechers, total size and transfer', async () => {
      const before = (await t.app.inject({ method: 'GET', url: '/api/tracker/stats' })).json().data;
      const torrent = await registerTorrent(t, { size: 5000 });
      const member = await loggedIn(t);
      const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
      await trackerGet(t, announceUrl({ passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0, event: 'started' }));
      const leech = peerId();
      await trackerGet(t, announceUrl({ passkey, infoHash: torrent.v1!, peerId: leech, left: 10, event: 'started' }));
      await trackerGet(t, announceUrl({ passkey, infoHash: torrent.v1!, peerId: leech, left: 10, uploaded: 300, downloaded: 700 }));
      await t.services.tracker.accounting.flush();
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/tracker/stats' });
      assert.equal(response.statusCode, 200);
      const { success, data } = response.json();
      assert.equal(success, true);
      assert.deepEqual(
        {
          torrents: data.torrents - before.torrents,
          peers: data.peers - before.peers,
          seeders: data.seeders - before.seeders,
          leechers: data.leechers - before.leechers,
          total_size: data.total_size - before.total_size,
          uploaded: data.transfer.uploaded - before.transfer.uploaded,
          downloaded: data.transfer.downloaded - before.transfer.downloaded,
        },
        { torrents: 1, peers: 2, seeders: 1, leechers: 1, total_size: 5000, uploaded: 300, downloaded: 700 },
      );
    });

    it('is described in the OpenAPI document', async () => {
      const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const operation = spec.paths['/api/tracker/stats']?.get;
      assert.ok(operation);
      assert.deepEqual(operation.tags, ['tracker']);
      assert.ok(operation.responses['200'].content['application/json'].schema.properties.data.properties.transfer);
    });
  });
});

describe('formatBytes: sizes in the reader’s language', () => {
  const sizes = [0, 1, 2, 5, 21, 1023, 1536, 3000, 1024 * 1024 - 1, 1024 * 1024, 5.5 * GIB, 3 * 1024 * GIB];

  it('writes English whole bytes as a word, larger sizes in binary units with up to two decimals', () => {
    const english = ['0 bytes', '1 byte', '2 bytes', '5 bytes', '21 bytes', '1,023 bytes', '1.5 KiB', '2.93 KiB', '1 MiB', '1 MiB', '5.5 GiB', '3 TiB'];
    assert.deepEqual(
      asReader({ locale: 'en', timeZone: 'UTC' }, () => sizes.map(formatBytes)),
      english,
    );
    assert.deepEqual(sizes.map(formatBytes), english, 'outside a request (the API): English');
  });

  it('writes Russian numbers and units (байт in its plural forms, КиБ, МиБ, ГиБ, ТиБ)', () => {
    assert.deepEqual(
      asReader({ locale: 'ru', timeZone: 'UTC' }, () => sizes.map(formatBytes)),
      ['0 байт', '1 байт', '2 байта', '5 байт', '21 байт', '1\u00a0023 байта', '1,5 КиБ', '2,93 КиБ', '1 МиБ', '1 МиБ', '5,5 ГиБ', '3 ТиБ'],
    );
  });
});
