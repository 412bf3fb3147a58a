import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { decode, type BencodeDict } from '../../src/tracker/bencode.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import type { Browser } from '../helpers/browser.ts';
import { asAuthUser, createForum, createTopic, canonicalOf, loggedIn, mainText, type Member } from '../helpers/forum.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { announceUrl, peerId } from '../helpers/tracker.ts';
import { Dom, dom, textOf } from '../helpers/dom.ts';

const BASE = 'http://forum.test';

describeEachDatabase('tracker pages', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let author: Member;
  let member: Member;
  let moderator: Member;

  before(async () => {
    t = await db.start({ env: { BASE_URL: BASE } });
    forum = await createForum(t, 'Releases');
    author = await loggedIn(t);
    member = await loggedIn(t);
    moderator = await loggedIn(t, { role: 'moderator' });
  });
  after(() => t.close());

  /** A multipart form post from a logged-in browser, with its CSRF token. */
  async function postFile(browser: Browser, url: string, fields: Record<string, string>, file: Buffer | undefined) {
    await browser.get(url); // the form page gives the token
    return browser.postFile(url, fields, file === undefined ? undefined : { bytes: file, name: 'release.torrent', type: 'application/x-bittorrent' });
  }

  async function topicWithTorrent(file = makeTorrent({ version: 'hybrid' })) {
    const topic = await createTopic(t, author.user, forum, `Release ${randomBytes(3).toString('hex')}`);
    const torrent = await t.services.tracker.torrents.upload(asAuthUser(author.user), topic.id, file, BASE);
    return { topic, torrent, path: (await t.services.presenter.heading(topic)).path };
  }

  describe('the torrent block on a topic page', () => {
    it('shows name, size, status, freeleech, swarm, hashes; guests are asked to log in', async () => {
      const { torrent, path } = await topicWithTorrent(makeTorrent({ name: 'Big <Release>', version: 'hybrid', files: randomBytes(3000) }));
      const page = await t.app.inject({ method: 'GET', url: path });
      assert.equal(page.statusCode, 200);
      const text = mainText(page.body);
      for (const fact of ['Big <Release>', '2.93 KiB (1 file)', 'Not checked', 'Seeders 0', 'Leechers 0', torrent.info_hash_v1!, torrent.info_hash_v2!]) {
        assert.ok(text.includes(fact), `missing ${fact} in ${text}`);
      }
      assert.ok(dom(page).textContent.includes('Big <Release>'), 'shown as text');
      assert.equal(dom(page).count('release'), 0, 'not as markup');

      assert.match(text, /Log in to download this torrent/);
      assert.doesNotMatch(page.body, /magnet:/, 'no magnet link anywhere in the page');
      assert.ok(
        !dom(page)
          .hrefs()
          .some((href) => href.startsWith('magnet:')),
      );
    });

    it('gives a signed-in member the download button and a magnet link with their own passkey', async () => {
      const { torrent, path } = await topicWithTorrent();
      const page = await member.browser.get(path);
      assert.ok(dom(page).hrefs().includes(`/tracker/download/${torrent.id}/`));
      assert.equal(page.headers['cache-control'], 'private, no-store');
      const passkey = await t.services.tracker.passkeys.current(member.user.id);
      assert.ok(passkey !== null);
      const magnet = dom(page)
        .hrefs()
        .find((href) => href.startsWith('magnet:'))!;
      assert.ok(magnet.includes(`xt=urn:btih:${torrent.info_hash_v1}`));
      assert.ok(magnet.includes(`xt=urn:btmh:1220${torrent.info_hash_v2}`));
      assert.ok(magnet.includes(`tr=${encodeURIComponent(`${BASE}/bt/announce.php?uk=${passkey}`)}`));
      // Nobody else's passkey, and no moderator form for members.
      assert.doesNotMatch(page.body, /moderate\//);
    });

    it("shows beside each post its author's rank, join date, posts and ratio, the ratio as it is now", async () => {
      const { path } = await topicWithTorrent();
      const GIB = 1024 ** 3;
      const setTransfer = (uploaded: number, downloaded: number) =>
        t.database.db
          .insertInto('tracker_user_stats')
          .values({ user_id: author.user.id, uploaded, downloaded, updated_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ uploaded, downloaded }))
          .execute();
      const panel = async () => dom(await t.app.inject({ method: 'GET', url: path })).text('article.post .author-panel');

      assert.doesNotMatch(await panel(), /Ratio/, 'no ratio before the rule’s threshold is downloaded');
      await setTransfer(30 * GIB, 20 * GIB);
      const first = await panel();
      assert.match(first, new RegExp(`^${author.user.username}\\s+Joined: \\d+ \\w{3} \\d{4}\\s+Posts: \\d+\\s+Ratio: 1\\.50$`));
      // The posts' HTML is kept in the page cache; the ratio is filled in on every view.
      await setTransfer(60 * GIB, 20 * GIB);
      assert.match(await panel(), /Ratio: 3\.00$/);
    });

    it("counts a member's releases on their profile and links them to the tracker list", async () => {
      const uploader = await loggedIn(t);
      const profile = async (who: Member['user']) =>
        dom(await t.app.inject({ method: 'GET', url: `/profile/${who.username.toLowerCase()}.${who.id}/` })).text('p.releases');
      assert.equal(await profile(uploader.user), 'No releases yet.');
      for (const title of ['First', 'Second']) {
        const topic = await createTopic(t, uploader.user, forum, `${title} release ${randomBytes(3).toString('hex')}`);
        await t.services.tracker.torrents.upload(asAuthUser(uploader.user), topic.id, makeTorrent(), BASE);
      }
      assert.equal(await profile(uploader.user), `2 releases by ${uploader.user.username}`);
      const page = dom(await t.app.inject({ method: 'GET', url: `/profile/${uploader.user.username.toLowerCase()}.${uploader.user.id}/` }));
      const list = await t.app.inject({ method: 'GET', url: page.links('p.releases')[0]!.href });
      assert.equal(dom(list).count('table.releases tbody tr'), 2, 'the link lists them');
    });

    it('lists what a member seeds and downloads now on their profile, to members only, until they stop', async () => {
      const sharer = await loggedIn(t);
      const reader = await loggedIn(t);
      const passkey = await t.services.tracker.passkeys.forUser(sharer.user.id);
      const released = [];
      for (const title of ['Seeded', 'Fetched']) {
        const topic = await createTopic(t, sharer.user, forum, `${title} release ${randomBytes(3).toString('hex')}`);
        const torrent = await t.services.tracker.torrents.upload(asAuthUser(sharer.user), topic.id, makeTorrent(), BASE);
        released.push({ title: topic.title, hash: Buffer.from(torrent.info_hash_v1!, 'hex'), peer: peerId() });
      }
      const [seeded, fetched] = released as [(typeof released)[0], (typeof released)[0]];
      const announce = async (release: typeof seeded, left: number, event?: 'started' | 'stopped') => {
        const response = await t.app.inject({ method: 'GET', url: announceUrl({ passkey, infoHash: release.hash, peerId: release.peer, left, event }) });
        assert.equal(response.statusCode, 200);
        await t.services.tracker.accounting.flush();
      };
      await announce(seeded, 0, 'started');
      await announce(fetched, 1000, 'started');
      const path = `/profile/${sharer.user.username.toLowerCase()}.${sharer.user.id}/`;
      const section = async (browser: Browser | null) => {
        const page = browser === null ? dom(await t.app.inject({ method: 'GET', url: path })) : dom((await browser.get(path)).body);
        return page.count('#active-torrents-heading') === 0 ? null : textOf(page.one('section[aria-labelledby="active-torrents-heading"]'));
      };
      const shown = await section(reader.browser);
      assert.ok(shown !== null);
      assert.match(shown, new RegExp(`^Torrents now Seeding 1 torrent ${seeded.title} [\\d.,]+ \\S+?\\s?Leeching 1 torrent ${fetched.title} [\\d.,]+ \\S+$`));
      assert.equal(await section(null), null, 'guests see nobody’s activity');
      await announce(fetched, 1000, 'stopped');
      assert.doesNotMatch((await section(reader.browser))!, new RegExp(fetched.title), 'a stopped download is gone');
      await announce(seeded, 0, 'stopped');
      assert.equal(await section(reader.browser), 'Torrents now Not seeding or leeching anything now.');
    });

    it('names the staff beside their posts', async () => {
      const topic = await createTopic(t, moderator.user, forum, `Rules ${randomBytes(3).toString('hex')}`);
      const page = await t.app.inject({ method: 'GET', url: (await t.services.presenter.heading(topic)).path });
      assert.equal(dom(page).text('article.post .author-panel .rank'), 'Moderator');
    });

    it('offers the author of a topic without a torrent to attach one; nobody else', async () => {
      const topic = await createTopic(t, author.user, forum, 'Without torrent');
      const path = (await t.services.presenter.heading(topic)).path;
      assert.ok(
        dom(await author.browser.get(path))
          .hrefs()
          .includes(`/tracker/upload/?topic=${topic.id}`),
      );
      assert.ok(!(await member.browser.get(path)).body.includes('/tracker/upload/'));
    });
  });

  describe('attaching a .torrent from the web', () => {
    it("attaches to the author's own topic and goes back to it (303)", async () => {
      const topic = await createTopic(t, author.user, forum, 'Attach here');
      const response = await postFile(author.browser, `/tracker/upload/?topic=${topic.id}`, {}, makeTorrent({ name: 'Attached' }));
      assert.equal(response.status, 303, response.body);
      assert.equal(response.location, (await t.services.presenter.heading(topic)).path);
      assert.equal((await t.services.tracker.torrents.onTopic(topic.id))?.name, 'Attached');
    });

    it('shows the form again with the reason when the file is not a valid .torrent (422)', async () => {
      const topic = await createTopic(t, author.user, forum, 'Bad file');
      const response = await postFile(author.browser, `/tracker/upload/?topic=${topic.id}`, {}, Buffer.from('not a torrent'));
      assert.equal(response.status, 422);
      assert.match(mainText(response.body), /not a valid \.torrent \(bencode\)/);
      assert.equal(await t.services.tracker.torrents.onTopic(topic.id), null);
    });

    it("refuses someone else's topic (403)", async () => {
      const topic = await createTopic(t, author.user, forum, 'Not yours');
      assert.equal((await member.browser.get(`/tracker/upload/?topic=${topic.id}`)).status, 403);
    });

    it('starts a new topic with its .torrent; an invalid file starts nothing', async () => {
      const url = `/tracker/upload/?forum=${forum.id}`;
      const refused = await postFile(member.browser, url, { title: 'Never made', body: 'Text' }, makeTorrent({ info: { 'piece length': 0 } }));
      assert.equal(refused.status, 422);
      assert.match(mainText(refused.body), /positive "piece length"/);
      assert.ok(!(await t.app.inject({ method: 'GET', url: `/api/torrents?search=never` })).body.includes('Never made'));
      const topics = await t.database.db.selectFrom('topics').select('id').where('title', '=', 'Never made').execute();
      assert.equal(topics.length, 0);

      const created = await postFile(member.browser, url, { title: 'New with torrent', body: 'All about it' }, makeTorrent({ name: 'Fresh' }));
      assert.equal(created.status, 303, created.body);
      const page = await member.browser.get(created.location!);
      assert.match(mainText(page.body), /New with torrent/);
      assert.match(mainText(page.body), /Fresh/);
    });

    it('links to it from the forum page', async () => {
      const page = await member.browser.get((await t.services.forum.getForum(forum.id)) && `/forum/releases.${forum.id}/`);
      assert.ok(dom(page).hrefs().includes(`/tracker/upload/?forum=${forum.id}`));
    });

    it("shows each release's status, size and swarm in the forum's topic list, the swarm as it is now", async () => {
      const releases = await createForum(t, `Films ${randomBytes(3).toString('hex')}`);
      const topic = await createTopic(t, author.user, releases, 'A film');
      await createTopic(t, author.user, releases, 'A question without a torrent');
      const torrent = await t.services.tracker.torrents.upload(asAuthUser(author.user), topic.id, makeTorrent({ files: randomBytes(3000) }), BASE);
      const path = (await t.app.inject({ method: 'GET', url: `/api/forums/${releases.id}` })).json<{ data: { url: string } }>().data.url;
      const line = async (title: string) => {
        const row = dom(await t.app.inject({ method: 'GET', url: path })).containing('table.topics tbody tr', title);
        const line = new Dom(row).find('.release-line');
        return line === null ? null : textOf(line);
      };
      assert.equal(await line('A film'), '* Not checked 2.93 KiB Seeders: 0 Leechers: 0 Completed: 0');
      assert.equal(await line('A question without a torrent'), null);
      // The list's HTML is kept in the page cache; a seeder who arrives shows on the next view.
      const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
      const hash = Buffer.from(torrent.info_hash_v1!, 'hex');
      const announced = await t.app.inject({ method: 'GET', url: announceUrl({ passkey, infoHash: hash, peerId: peerId(), left: 0, event: 'started' }) });
      assert.equal(announced.statusCode, 200);
      assert.equal(await line('A film'), '* Not checked 2.93 KiB Seeders: 1 Leechers: 0 Completed: 0');
    });
  });

  describe('moderating from the topic page', () => {
    it('lets a moderator set status and freeleech; the change is recorded', async () => {
      const { torrent, path } = await topicWithTorrent();
      const page = await moderator.browser.get(path);
      assert.ok(dom(page).has(`form[method="post"][action="/tracker/torrents/${torrent.id}/moderate/"]`));
      const response = await moderator.browser.post(`/tracker/torrents/${torrent.id}/moderate/`, { status: 'closed', freeleech: 'silver' });
      assert.equal(response.status, 303);
      assert.equal(response.location, path);
      const history = await t.services.tracker.torrents.history(torrent.id);
      assert.deepEqual(
        history.map((change) => [change.from_status, change.to_status, change.changed_by]),
        [
          [null, 'not_checked', author.user.id],
          ['not_checked', 'closed', moderator.user.id],
        ],
      );
      const after = mainText((await member.browser.get(path)).body);
      assert.match(after, /This torrent is closed: it cannot be downloaded or announced/);
      assert.match(after, /Silver/);
    });

    it('refuses the same form from a member (403)', async () => {
      const { torrent, path } = await topicWithTorrent();
      await member.browser.get(path);
      assert.equal((await member.browser.post(`/tracker/torrents/${torrent.id}/moderate/`, { status: 'checked' })).status, 403);
    });

    it('lets the uploader remove the torrent; the topic stays', async () => {
      const { torrent, topic, path } = await topicWithTorrent();
      await author.browser.get(path);
      const response = await author.browser.post(`/tracker/torrents/${torrent.id}/remove/`, {});
      assert.equal(response.status, 303);
      assert.equal(await t.services.tracker.torrents.onTopic(topic.id), null);
      assert.equal((await author.browser.get(path)).status, 200);
    });
  });

  describe('downloading from the web', () => {
    it('sends guests to log in, members their personal .torrent', async () => {
      const { torrent } = await topicWithTorrent();
      const guest = await t.app.inject({ method: 'GET', url: `/tracker/download/${torrent.id}/` });
      assert.equal(guest.statusCode, 303);
      assert.match(guest.headers['location'] as string, /^\/login\/\?next=/);
      const response = await t.app.inject({ method: 'GET', url: `/tracker/download/${torrent.id}/`, cookies: Object.fromEntries(member.browser.cookies) });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/x-bittorrent');
      const passkey = await t.services.tracker.passkeys.current(member.user.id);
      assert.equal((decode(response.rawPayload) as BencodeDict).get('announce')!.toString(), `${BASE}/bt/announce.php?uk=${passkey}`);
    });
  });

  describe('/tracker/', () => {
    it('finds torrents by words in the name and links their topics', async () => {
      await topicWithTorrent(makeTorrent({ name: 'Unique Zebra Documentary' }));
      const page = await t.app.inject({ method: 'GET', url: '/tracker/?search=zebra+documentary' });
      assert.equal(page.statusCode, 200);
      const text = mainText(page.body);
      assert.match(text, /1 torrent\b/);
      assert.match(text, /Unique Zebra Documentary/);
      assert.ok(
        dom(page.body)
          .hrefs()
          .some((href) => /^\/topic\/release-[a-z0-9-]+\.\d+\/$/.test(href)),
        'links to the topic',
      );
      assert.match(canonicalOf(page.body) ?? '', /^http:\/\/forum\.test\/tracker\/\?search=zebra(\+|%20)documentary$/);
    });

    it('lists releases by their topic title, forum and status, with .torrent and magnet links for members only', async () => {
      const word = randomBytes(4).toString('hex');
      const open = await topicWithTorrent(makeTorrent({ name: `Open.Release.${word}.mkv` }));
      const closed = await topicWithTorrent(makeTorrent({ name: `Closed.Release.${word}.mkv` }));
      await t.services.tracker.torrents.update(closed.torrent.id, asAuthUser(moderator.user), { status: 'closed', freeleech: 'gold' });
      const row = (page: Parameters<typeof dom>[0], topicTitle: string) => dom(page).containing('table.releases tbody tr', topicTitle);

      const guest = await t.app.inject({ method: 'GET', url: `/tracker/?search=${word}&sort=name&order=asc` });
      assert.deepEqual(dom(guest).texts('table.releases tbody td:first-child a'), [closed.topic.title, open.topic.title], 'the release is named by its topic');
      assert.equal(new Dom(row(guest, open.topic.title)).text('.file'), `Open.Release.${word}.mkv`, 'the file name under it');
      assert.equal(new Dom(row(guest, open.topic.title)).text('td[data-label="Forum"]'), 'Releases');
      assert.equal(new Dom(row(guest, closed.topic.title)).text('td[data-label="Status"]'), 'x Closed');
      assert.equal(new Dom(row(guest, closed.topic.title)).text('.badge'), 'gold');
      assert.ok(
        !dom(guest)
          .hrefs()
          .some((href) => href.startsWith('magnet:') || href.startsWith('/tracker/download/')),
        'a guest gets no links',
      );
      assert.notEqual(guest.headers['cache-control'], 'private, no-store');

      const page = await member.browser.get(`/tracker/?search=${word}`);
      const passkey = await t.services.tracker.passkeys.current(member.user.id);
      assert.ok(passkey !== null);
      assert.equal(page.headers['cache-control'], 'private, no-store', 'magnet links carry the passkey');
      const links = new Dom(row(page, open.topic.title)).hrefs();
      assert.ok(links.includes(`/tracker/download/${open.torrent.id}/`));
      const magnet = links.find((href) => href.startsWith('magnet:'));
      assert.ok(magnet?.includes(`xt=urn:btih:${open.torrent.info_hash_v1}`) && magnet.includes(encodeURIComponent(`uk=${passkey}`)));
      assert.ok(
        !new Dom(row(page, closed.topic.title)).hrefs().some((href) => href.startsWith('magnet:') || href.startsWith('/tracker/download/')),
        'a closed release offers no download',
      );
    });

    it('says what is wrong with a bad search (422)', async () => {
      const page = await t.app.inject({ method: 'GET', url: '/tracker/?sort=colour' });
      assert.equal(page.statusCode, 422);
      assert.match(mainText(page.body), /The search is not valid/);
    });

    it('has the legacy addresses /tracker.php and /dl.php (301)', async () => {
      const tracker = await t.app.inject({ method: 'GET', url: '/tracker.php?nm=zebra&f=3&o=1' });
      assert.equal(tracker.statusCode, 301);
      assert.equal(tracker.headers['location'], '/tracker/?search=zebra&forum=3&o=1');
      const dl = await t.app.inject({ method: 'GET', url: '/dl.php?t=42' });
      assert.equal(dl.statusCode, 301);
      assert.equal(dl.headers['location'], '/tracker/download/42/');
      assert.equal((await t.app.inject({ method: 'GET', url: '/dl.php?t=abc' })).statusCode, 404);
    });
  });

  describe('the passkey on the profile', () => {
    it('is shown to its owner only, and a new one replaces it at once', async () => {
      const owner = await loggedIn(t);
      const old = await t.services.tracker.passkeys.forUser(owner.user.id);
      const profile = `/profile/${owner.user.username.toLowerCase()}.${owner.user.id}/`;
      const own = await owner.browser.get(profile);
      assert.equal(own.status, 200, own.location);
      assert.ok(own.body.includes(old));
      assert.ok(!(await member.browser.get(profile)).body.includes(old));
      assert.ok(!(await t.app.inject({ method: 'GET', url: profile })).body.includes(old));

      const response = await owner.browser.post('/tracker/passkey/', {});
      assert.equal(response.status, 303);
      const fresh = await t.services.tracker.passkeys.current(owner.user.id);
      assert.notEqual(fresh, old);
      assert.equal(await t.services.tracker.passkeys.lookup(old), null);
      assert.ok((await owner.browser.get(profile)).body.includes(fresh!));
    });
  });
});
