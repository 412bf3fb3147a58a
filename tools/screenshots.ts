// `npm run screenshots`: what members see, as pictures under docs/screenshots/
// (issue 29): the index, a forum, a topic with a torrent, the tracker list, a
// profile, a topic's poll and the admin's forums, at 390 and 1280 px, in English and Russian,
// on a small forum with releases of every status and a swarm. SCREENSHOTS=a,b
// takes only those pages; SCREENSHOTS_DIR writes elsewhere.
import { it } from 'node:test';
import { signedInContext, startBrowserApp } from '../test/helpers/browser-app.ts';
import { createUser } from '../test/helpers/auth.ts';
import { asAuthUser, createForum, createTopic, reply } from '../test/helpers/forum.ts';
import { makeTorrent } from '../test/helpers/torrents.ts';
import { announceUrl, peerId, trackerGet } from '../test/helpers/tracker.ts';
import type { TopicWithAuthor } from '../src/forum/repository.ts';
import type { Freeleech, TorrentStatus } from '../src/tracker/torrents/statuses.ts';

const only = process.env['SCREENSHOTS']?.split(',');
const directory = process.env['SCREENSHOTS_DIR'] ?? 'docs/screenshots';

it('takes the screenshots', { timeout: 10 * 60_000 }, async () => {
  const app = await startBrowserApp();
  const t = app.t;
  try {
    const author = await createUser(t, { name: 'Bartholomew' });
    const seeder = await createUser(t, { name: 'seeder' });
    const video = await t.services.forum.categories.create({ title: 'Video', display_order: 0 });
    const films = await createForum(t, 'Films', 'Feature films in HD and SD.');
    const series = await createForum(t, 'Series', 'Television series, complete seasons.');
    for (const forum of [films, series]) await t.services.forum.updateForum(forum.id, { category_id: video.id });
    const talk = await createForum(t, 'General talk', 'Anything else.');
    const releases: Array<[string, string, typeof films, TorrentStatus, Freeleech]> = [
      ['The Long Goodbye (1973) 1080p BDRip', 'The.Long.Goodbye.1973.1080p.BDRip.x264.mkv', films, 'checked', 'gold'],
      ['Chinatown (1974) 720p WEB-DL', 'Chinatown.1974.720p.WEB-DL.mkv', films, 'not_checked', 'none'],
      ['Twin Peaks, season 1 (1990) DVDRip', 'Twin.Peaks.S01.DVDRip', series, 'needs_editing', 'silver'],
      ['Columbo, season 2 (1972) complete', 'Columbo.S02.complete', series, 'closed', 'none'],
    ];
    let shown: TopicWithAuthor | undefined;
    for (const [title, name, forum, status, freeleech] of releases) {
      const body = `[b]${title}[/b]\n\nDirector: someone. Quality: good.\n[quote=Bartholomew]A quote.[/quote]\nSee https://example.org/a/very/long/path/that/does/not/break/anywhere for more.`;
      const topic = await createTopic(t, author, forum, title, body);
      shown ??= topic;
      const torrent = await t.services.tracker.torrents.upload(asAuthUser(author), topic.id, makeTorrent({ name }), app.base);
      await t.database.db.updateTable('torrents').set({ status, freeleech, completed_count: 12 }).where('id', '=', torrent.id).execute();
      if (status === 'checked' || status === 'needs_editing') {
        // One seeder and one leecher in each of the open releases' swarms.
        const passkey = await t.services.tracker.passkeys.forUser(seeder.id);
        const infoHash = Buffer.from(torrent.info_hash_v1!, 'hex');
        await trackerGet(t, announceUrl({ passkey, infoHash, peerId: peerId(), left: 0, event: 'started' }), '10.0.0.1');
        await trackerGet(t, announceUrl({ passkey, infoHash, peerId: peerId(), left: 100, event: 'started', port: 7000 }), '10.0.0.2');
        // The author seeds their own releases: their profile lists what they seed now.
        const own = await t.services.tracker.passkeys.forUser(author.id);
        await trackerGet(t, announceUrl({ passkey: own, infoHash, peerId: peerId(), left: 0, event: 'started', port: 7001 }), '10.0.0.3');
      }
    }
    await t.services.tracker.accounting.flush();
    // An earned rank for everyone, a special one for the uploader.
    await t.services.ranks.create({ title: 'Member', min_posts: 0, image_url: null });
    await t.services.ranks.create({ title: 'Regular', min_posts: 50, image_url: null });
    const team = await t.services.ranks.create({ title: 'Release team', min_posts: null, image_url: null });
    await t.services.ranks.give(author.id, team.id);
    const thanks = await reply(t, seeder, shown!, 'Thanks! Seeding.');
    const staff = await createUser(t, { name: 'Moderator Mia', role: 'moderator' });
    await t.services.forum.moderatorComments.set(
      thanks.id,
      asAuthUser(staff),
      'information',
      'Please keep seeding for at least a week: this release has [b]one[/b] other seeder.',
    );
    await createTopic(t, author, talk, 'Welcome to the forum', 'Hello.');
    // A poll whose results everyone sees, two votes cast, one answer long enough to wrap.
    const polled = await t.services.forum.createTopic(asAuthUser(author), {
      forum_id: talk.id,
      title: 'Which BitTorrent client do you seed with?',
      body: 'Vote, then tell us why.',
      poll: {
        question: 'Which client do you seed with most of the time?',
        options: ['qBittorrent', 'Transmission', 'Deluge', 'Something else, such as rtorrent or a seedbox provider’s own client'],
        results: 'always',
        max_choices: 2,
      },
    });
    const answers = (await t.services.forum.polls.get(polled.id, null)).options.map((option) => option.id);
    await t.services.forum.polls.vote(polled.id, asAuthUser(author), [answers[0]!]);
    await t.services.forum.polls.vote(polled.id, asAuthUser(seeder), [answers[0]!, answers[3]!]);
    const rules = await t.services.sitePages.create({
      slug: 'rules',
      position: 1,
      in_footer: true,
      texts: {
        en: {
          title: 'Rules',
          body: '[b]1. Seed what you take.[/b] Keep a ratio of at least 0.5; new members have a grace of 10 GB.\n\n[b]2. One account per person.[/b]\n\n[list][*]No requests in release forums[*]Name releases by the template[/list]',
        },
        ru: {
          title: 'Правила',
          body: '[b]1. Раздавайте то, что скачали.[/b] Рейтинг не ниже 0,5; новым участникам даётся 10 ГБ форы.\n\n[b]2. Одна учётная запись на человека.[/b]\n\n[list][*]Никаких просьб в разделах релизов[*]Называйте релизы по шаблону[/list]',
        },
      },
    });
    await t.services.sitePages.create({
      slug: 'faq',
      position: 2,
      in_footer: true,
      texts: { en: { title: 'FAQ', body: 'How do I seed? Open the .torrent in your client.' } },
    });
    // The films forum's releases are laid out by a template (docs/release-templates.md).
    await t.services.forum.releases.set(films.id, {
      title_layout: '{title} ({year}) [{quality}]',
      body_layout: '',
      fields: [
        { key: 'year', label: 'Year', kind: 'number', required: true, filterable: false, choices: [] },
        { key: 'quality', label: 'Quality', kind: 'choice', required: true, filterable: true, choices: ['720p', '1080p', '2160p'] },
        { key: 'poster', label: 'Poster', kind: 'image', required: false, filterable: false, choices: [] },
        { key: 'size', label: 'Size', kind: 'size', required: false, filterable: false, choices: [] },
      ],
    });
    // A thanks under the shown release, and a report of its reply waiting for the moderators.
    await t.services.tracker.thanks.thank((await t.services.tracker.torrents.onTopic(shown!.id))!.id, asAuthUser(seeder));
    await t.services.forum.reports.report(thanks.id, asAuthUser(author), 'A link to another tracker in the middle of the thanks.');
    const urlOf = async (path: string) => (await t.app.inject({ method: 'GET', url: path })).json<{ data: { url: string } }>().data.url;
    const pages: Array<[name: string, path: string, asAdmin: boolean]> = [
      ['index', '/', false],
      ['forum', await urlOf(`/api/forums/${films.id}`), false],
      ['topic', await urlOf(`/api/topics/${shown!.id}`), false],
      ['tracker', '/tracker/', false],
      ['profile', `/profile/bartholomew.${author.id}/`, false],
      ['poll', await urlOf(`/api/topics/${polled.id}`), false],
      ['admin-forums', '/admin/forums/', true],
      ['admin-ranks', '/admin/ranks/', true],
      ['static-page', `/pages/${rules.slug}/`, false],
      ['admin-page', `/admin/pages/${rules.id}/`, true],
      ['split', `${await urlOf(`/api/topics/${shown!.id}`)}split/`, true],
      ['notifications', '/notifications/', false],
      ['admin-release-template', `/admin/forums/${films.id}/release-template/`, true],
      ['admin-reports', '/admin/reports/', true],
    ];
    for (const language of ['en', 'ru']) {
      const member = await signedInContext(app, `member${language}`, 'user', language);
      const admin = await signedInContext(app, `admin${language}`, 'admin', language);
      // The member's notification centre: a reply in a watched topic, a mention, a quote, a message, a hidden post.
      const reader = await t.database.db.selectFrom('users').selectAll().where('username', '=', `member${language}`).executeTakeFirstOrThrow();
      const welcome = (await t.services.forum.listTopics(talk.id, null, { page: 1, perPage: 50, offset: 0 })).rows.find(
        (row) => row.title === 'Welcome to the forum',
      )!;
      await t.services.forum.watch(asAuthUser(reader), welcome.id);
      const own = await reply(t, reader, welcome, 'My first reply, which a moderator will hide.');
      await reply(t, author, welcome, 'Welcome! Read the rules first.');
      await reply(t, seeder, welcome, `[quote="member${language}"]My first reply[/quote]\nGlad you are here, @member${language}.`);
      await t.services.messages.send(asAuthUser(author), reader.username, {
        subject: 'About your request for the 1973 release',
        body: 'It is up: seed it if you can.',
      });
      await t.services.forum.hiding.post(own.id, asAuthUser(staff), true);
      for (const [name, path, asAdmin] of pages) {
        if (only !== undefined && !only.includes(name)) continue;
        const page = await (asAdmin ? admin : member).newPage();
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(app.base + path);
          await page.screenshot({ path: `${directory}/${name}-${width}-${language}.png`, fullPage: true });
        }
        await page.close();
      }
    }
  } finally {
    await app.close();
  }
});
