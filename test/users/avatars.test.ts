// Avatars (docs/members.md): uploaded files read by libvips by their content,
// stored as a square WebP without metadata, served cached forever, removed by
// the member or staff (staff removals in the moderation log); every refused
// file changes nothing.
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { systemClock } from '../../src/clock.ts';
import { AVATAR_RULES, AVATAR_SIZE } from '../../src/users/avatars/avatar-image.ts';
import { Avatars } from '../../src/users/avatars/avatars.ts';
import { UsersRepository } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { processCpuMs } from '../helpers/cpu.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createTopic, loggedIn } from '../helpers/forum.ts';
import { SVG, multipart, png } from '../helpers/images.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

/** A PNG whose header claims `width`×`height` pixels (with a valid checksum) over a tiny picture: a decompression bomb's shape. */
function pngClaiming(width: number, height: number): Buffer {
  const bytes = Buffer.from(png(2, 2));
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

describeEachDatabase('avatars', (db) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let moderator: SignedIn;

  before(async () => {
    t = await db.start();
    alice = await signIn(t, 'user', 'Avatar Alice');
    bob = await signIn(t, 'user', 'Avatar Bob');
    moderator = await signIn(t, 'moderator', 'Avatar Moderator');
    // API tokens note their first use: warm them up before tables are compared.
    for (const who of [alice, bob, moderator]) await t.app.inject({ method: 'GET', url: '/api/hello', headers: who.headers });
  });
  after(() => t.close());

  async function upload(who: SignedIn | null, bytes: Buffer, userId = who?.user.id ?? alice.user.id, name = 'me.png', type = 'image/png') {
    const body = await multipart({ file: { bytes, name, type } });
    return t.app.inject({ method: 'POST', url: `/api/users/${userId}/avatar`, payload: body.payload, headers: { ...body.headers, ...(who?.headers ?? {}) } });
  }
  const remove = (who: SignedIn, userId: number) => t.app.inject({ method: 'DELETE', url: `/api/users/${userId}/avatar`, headers: who.headers });

  it('stores an upload as a square WebP cut from its middle and serves it cached forever', async () => {
    const response = await upload(alice, png(600, 400));
    assert.equal(response.statusCode, 200, response.body);
    const url = response.json().data.avatar_url as string;
    assert.match(url, /^\/avatars\/[0-9a-f]{32}\.webp$/);
    const file = await t.app.inject({ method: 'GET', url });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'image/webp');
    assert.equal(file.headers['x-content-type-options'], 'nosniff');
    assert.match(String(file.headers['cache-control']), /immutable/);
    const stored = await sharp(file.rawPayload).metadata();
    assert.deepEqual([stored.format, stored.width, stored.height], ['webp', AVATAR_SIZE, AVATAR_SIZE]);
    const member = (await t.app.inject({ method: 'GET', url: '/api/members?search=avatar alice' })).json().data[0];
    assert.equal(member.avatar_url, url, 'the member list shows it too');
  });

  it('takes JPEG and GIF, turns a photo upright and keeps none of its metadata', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret place' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    assert.ok((await sharp(photo).metadata()).exif !== undefined, 'the upload has EXIF');
    const response = await upload(alice, photo, alice.user.id, 'photo.jpg', 'image/jpeg');
    assert.equal(response.statusCode, 200, response.body);
    const stored = await sharp((await t.app.inject({ method: 'GET', url: response.json().data.avatar_url })).rawPayload).metadata();
    assert.equal(stored.exif, undefined);
    assert.equal(stored.orientation, undefined);
    // The helpers' GIF and JPEG are headers only: libvips needs whole pictures.
    const picture = sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3366' } });
    for (const [bytes, type] of [
      [await picture.clone().gif().toBuffer(), 'image/gif'],
      [await picture.clone().webp().toBuffer(), 'image/webp'],
    ] as const) {
      assert.equal((await upload(bob, bytes, bob.user.id, 'x', type)).statusCode, 200, type);
    }
  });

  it('refuses what is not a fitting image with 422 on file, and changes nothing', async () => {
    const before = await snapshotTables(t);
    const refused: Array<[string, Buffer, RegExp]> = [
      ['SVG', SVG, /SVG files are not accepted/],
      ['text', Buffer.from('just some words, not a picture'), /not an image this forum can read/],
      ['too wide', png(AVATAR_RULES.maxWidth + 1, 2), /at most 4096×4096 pixels \(this one is 4097×2\)/],
      ['bomb', pngClaiming(60_000, 60_000), /not an image this forum can read|at most 4096×4096/],
      ['truncated', Buffer.from(png(300, 300)).subarray(0, 200), /damaged|not an image/],
      // Refused while it is read (http/multipart.ts): 2 MiB and a few bytes, written out so that it differs from the limit.
      [
        'too large',
        Buffer.concat([png(10, 10), Buffer.alloc(AVATAR_RULES.maxBytes)]),
        /^The file is 2,097,\d{3} bytes, more than the limit of 2,097,152 bytes\.$/,
      ],
    ];
    for (const [what, bytes, message] of refused) {
      // The process's CPU (images are decoded on libuv's threads), which a busy machine does not stretch.
      const started = processCpuMs();
      const response = await upload(bob, bytes, bob.user.id);
      assert.equal(response.statusCode, 422, what);
      assert.match(response.json().errors.file[0], message, what);
      assert.ok(processCpuMs() - started < 1000, `${what}: refused quickly`);
    }
    const noFile = await multipart({ other: 'x' });
    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/users/${bob.user.id}/avatar`,
      payload: noFile.payload,
      headers: { ...noFile.headers, ...bob.headers },
    });
    assert.equal(empty.statusCode, 422);
    const notMultipart = await t.app.inject({ method: 'POST', url: `/api/users/${bob.user.id}/avatar`, payload: { file: 'x' }, headers: bob.headers });
    assert.equal(notMultipart.statusCode, 400);
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
  });

  it('lets only the member upload, the member or staff remove, and guests nothing', async () => {
    assert.equal((await upload(bob, png(20, 20), alice.user.id)).statusCode, 403);
    assert.equal((await upload(null, png(20, 20), alice.user.id)).statusCode, 401);
    assert.equal((await upload(alice, png(20, 20), 0)).statusCode, 404);
    assert.equal((await remove(bob, alice.user.id)).statusCode, 403);
    assert.equal((await remove(moderator, 2_147_483_647)).statusCode, 404);
    const removed = await remove(moderator, alice.user.id);
    assert.equal(removed.statusCode, 200);
    assert.equal(removed.json().data.avatar_url, null);
  });

  it('deletes a replaced file unless another member still shows it', async () => {
    const shared = png(50, 50, () => [0, 128, 0, 255]);
    const first = (await upload(alice, shared)).json().data.avatar_url as string;
    assert.equal((await upload(bob, shared, bob.user.id)).json().data.avatar_url, first, 'same content, same file');
    await upload(
      alice,
      png(50, 50, () => [0, 0, 128, 255]),
    );
    assert.equal((await t.app.inject({ method: 'GET', url: first })).statusCode, 200, 'Bob still shows it');
    assert.equal((await remove(bob, bob.user.id)).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: first })).statusCode, 404, 'gone with its last member');
  });

  describe('staff removals in the moderation log', () => {
    let admin: SignedIn;
    let erin: SignedIn;
    type Entry = { action: string; moderator: { id: number } | null; member: { id: number } | null; subject: string; topic_id: number | null };
    const removals = async (): Promise<Entry[]> =>
      (await t.app.inject({ method: 'GET', url: '/api/moderation-log?action=remove_avatar&per_page=100', headers: admin.headers })).json().data;
    const erinsAvatar = async () => (await t.services.users.get(erin.user.id)).avatar;

    before(async () => {
      admin = await signIn(t, 'admin', 'Avatar Admin');
      erin = await signIn(t, 'user', 'Avatar Erin');
    });

    it('logs a moderator’s or an admin’s removal of another member’s avatar, naming both; not the member’s own, a refused one or one that found none', async () => {
      const before = (await removals()).length;
      assert.equal((await upload(erin, png(30, 30))).statusCode, 200);
      assert.equal((await remove(erin, erin.user.id)).statusCode, 200);
      assert.equal((await remove(bob, erin.user.id)).statusCode, 403);
      assert.equal((await removals()).length, before, 'the member’s own removal and a refused one are not moderation');

      for (const staff of [moderator, admin]) {
        assert.equal((await upload(erin, png(30, 30))).statusCode, 200);
        assert.equal((await remove(staff, erin.user.id)).statusCode, 200);
        assert.equal(await erinsAvatar(), null);
        const [entry, ...rest] = await removals();
        assert.equal(rest.length, before + (staff === moderator ? 0 : 1));
        assert.equal(entry!.action, 'remove_avatar');
        assert.equal(entry!.moderator?.id, staff.user.id);
        assert.equal(entry!.member?.id, erin.user.id);
        assert.equal(entry!.subject, 'Avatar Erin');
        assert.equal(entry!.topic_id, null);
      }
      assert.equal((await remove(moderator, erin.user.id)).statusCode, 200, 'nothing left to remove');
      assert.equal((await removals()).length, before + 2, 'and nothing logged');
    });

    it('keeps the avatar when the log entry cannot be written (one transaction)', async () => {
      const failing = new Avatars(new UsersRepository(t.database.db, t.database.dialect), t.config.uploadDir, systemClock, {
        record: () => Promise.reject(new Error('the log is down')),
      });
      assert.equal((await upload(erin, png(30, 30))).statusCode, 200);
      const avatar = await erinsAvatar();
      assert.notEqual(avatar, null);
      await assert.rejects(failing.remove(erin.user.id, moderator.user), /the log is down/);
      assert.equal(await erinsAvatar(), avatar);
      assert.equal((await t.app.inject({ method: 'GET', url: `/avatars/${avatar}` })).statusCode, 200, 'its file stays too');
    });

    it('shows on the admin log page and is one of its filter’s actions', async () => {
      const reader = await loggedIn(t, { name: 'Avatar Log Reader', role: 'admin' });
      const page = await reader.browser.get('/admin/moderation-log/?action=remove_avatar');
      assert.equal(page.status, 200);
      const actions = dom(page).texts('tbody th[scope="row"]');
      assert.ok(actions.length >= 2 && actions.every((action) => action === 'Removed avatar'), actions.join(', '));
      assert.ok(dom(page).texts('tbody td').includes('Avatar Erin'), 'the member it was about');
      assert.equal(dom(page).one('select[name="action"] option[value="remove_avatar"]').textContent?.trim(), 'Removed avatar');
      assert.equal(dom(page).one('select[name="action"] option[value="remove_avatar"]').hasAttribute('selected'), true);
    });
  });

  describe('on pages', () => {
    it('is chosen and removed in the settings without JavaScript, and shown on the profile, beside posts and in the member list', async () => {
      const carol = await loggedIn(t, { name: 'Avatar Carol' });
      const settings = await carol.browser.get('/settings/');
      assert.match(dom(settings).one('#avatar-heading + p').textContent, /No avatar yet/);
      const form = dom(settings).one('form[action="/settings/avatar/"]');
      assert.equal(form.getAttribute('enctype'), 'multipart/form-data');

      const saved = await carol.browser.postFile('/settings/avatar/', {}, { bytes: png(300, 300), name: 'me.png', type: 'image/png' });
      assert.equal(saved.status, 303, saved.body);
      assert.equal(saved.location, '/settings/?saved=avatar');
      const after = await carol.browser.get(saved.location);
      assert.match(dom(after).one('[role=status]').textContent, /Your avatar is saved/);
      const url = dom(after).one('#avatar-heading ~ p img.avatar').getAttribute('src')!;
      assert.match(url, /^\/avatars\/[0-9a-f]{32}\.webp$/);

      const forum = await createForum(t, 'Avatar forum');
      const topic = await createTopic(t, await t.services.users.get(carol.user.id), forum, 'Carol shows her face');
      const topicPage = await carol.browser.get((await t.services.presenter.heading(topic)).path);
      assert.equal(dom(topicPage).one('article.post .author-panel img.avatar').getAttribute('src'), url);
      const profile = await carol.browser.get(`/profile/avatar-carol.${carol.user.id}/`);
      assert.equal(dom(profile).one('h1 img.avatar').getAttribute('src'), url);
      const members = await carol.browser.get('/members/?search=avatar carol');
      assert.equal(dom(members).one('table.members img.avatar').getAttribute('src'), url);

      const removed = await carol.browser.post('/settings/remove-avatar/', {});
      assert.equal(removed.status, 303);
      assert.equal((await t.services.users.get(carol.user.id)).avatar, null);
    });

    it('shows the form again with the reason when the file is refused, saving nothing', async () => {
      const dave = await loggedIn(t, { name: 'Avatar Dave' });
      await dave.browser.get('/settings/');
      const refused = await dave.browser.postFile('/settings/avatar/', {}, { bytes: SVG, name: 'me.svg', type: 'image/svg+xml' });
      assert.equal(refused.status, 422);
      assert.match(dom(refused).one('#avatar-file-error').textContent, /SVG files are not accepted/);
      assert.equal(dom(refused).one('#avatar-file').getAttribute('aria-invalid'), 'true');
      const none = await dave.browser.postFile('/settings/avatar/', {}, undefined);
      assert.equal(none.status, 422);
      assert.equal((await t.services.users.get(dave.user.id)).avatar, null);
    });
  });
});
