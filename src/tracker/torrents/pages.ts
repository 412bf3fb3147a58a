// The tracker's web pages: the torrent block on topic pages (with the
// download button, magnet link and moderator actions), attaching a .torrent
// (new topic, own topic), the personal .torrent download, the /tracker/
// search, the passkey on the owner's profile, and the legacy /dl.php and
// /tracker.php links. Forms post to /tracker/... and come back to the topic.
// In the reader's language (docs/i18n.md).
import { releaseFiltersIn, type ReleaseTemplate } from '../../forum/release-templates.ts';
import type { Thanks } from '../thanks.ts';
import type { ReseedState, Reseeds } from '../reseed.ts';
import { releaseFieldset, releaseValues } from '../../forum/pages/release-fields.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser, requirePageUser } from '../../auth/guard.ts';
import { uploadRoute, uploadedFile } from '../../http/multipart.ts';
import type { ForumPageAddons } from '../../forum/pages/deps.ts';
import { breadcrumb } from '../../forum/pages/parts.ts';
import type { ForumPresenter } from '../../forum/presenter.ts';
import type { ForumRow, TopicWithAuthor } from '../../forum/repository.ts';
import { ForumBodies, POST_BODY_MAX, TOPIC_TITLE_MAX } from '../../forum/routes.ts';
import { isStaff, type ForumService } from '../../forum/service.ts';
import { ApiError, ValidationError, type FieldErrors } from '../../http/errors.ts';
import { origin, pageRequest } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { forumPath, loginPath, profilePath, topicPath, withQuery } from '../../urls/paths.ts';
import { pageNotFound, type PageRoutes } from '../../urls/semantic-routes.ts';
import { attempt, checkFields, formNotice, submittedText } from '../../web/form.ts';
import { pageFormState, textArea, textInput } from '../../web/form-controls.ts';
import { breakableName, formatRatio, timeHtml } from '../../web/format.ts';
import type { TrackerFigures } from '../figures.ts';
import { atMostEvery, type Clock } from '../../clock.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { localPath } from '../../http/local-path.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { magnetLink } from '../metainfo.ts';
import type { PasskeyService } from '../passkeys.ts';
import { TorrentListQuery, sendTorrentFile } from './routes.ts';
import type { TorrentSort, TorrentView, TorrentsService } from './service.ts';
import type { TorrentRow } from './repository.ts';
import { FREELEECH_KINDS, TORRENT_STATUSES, freeleechLabel, isFrozen, statusLabel, type Freeleech, type TorrentStatus } from './statuses.ts';
import { downloadPath, releaseLine, releaseTable, statusHtml } from './release-table.ts';
import { number, t, tn, type TextKey } from '../../i18n/messages.ts';
import { tHtml, tLink } from '../../web/translated.ts';

export const TRACKER_PATH = '/tracker/';
export const uploadPath = (query: { topic?: number; forum?: number }): string => withQuery('/tracker/upload/', query);
const moderatePath = (id: number): string => `/tracker/torrents/${id}/moderate/`;
const removePath = (id: number): string => `/tracker/torrents/${id}/remove/`;
const PASSKEY_PATH = '/tracker/passkey/';

/** How long the index shows the same tracker figures. */
const SITE_FIGURES_FRESH_MS = 60_000;

/** Files listed on a topic page; the rest are counted. */
const FILES_SHOWN = 100;

export interface TrackerPageDeps {
  pages: PageRoutes;
  torrents: TorrentsService;
  /** Members' thanks for releases (tracker/thanks.ts). */
  thanks: Thanks;
  /** Calls to reseed and the last seeder seen (tracker/reseed.ts). */
  reseeds: Reseeds;
  passkeys: PasskeyService;
  forum: ForumService;
  presenter: ForumPresenter;
}

/** What a member seeds and leeches now, on their profile (members see it; TorrentPier's "current torrents"). */
async function activeTorrents(presenter: ForumPresenter, active: { seeding: TorrentRow[]; leeching: TorrentRow[] }): Promise<SafeHtml> {
  const list = async (kind: 'seeding' | 'leeching', rows: TorrentRow[]) => {
    const headings = await presenter.headings(rows.map((row) => ({ id: row.topic_id, title: row.topic_title })));
    return html`<h3>${tn(`tracker.profile.${kind}`, rows.length)}</h3>
<ul class="active-torrents">${rows.map((row, index) => html`<li><a href="${headings[index]!.path}">${headings[index]!.html}</a> <span class="muted">${formatBytes(row.size)}</span></li>`)}</ul>`;
  };
  const empty = active.seeding.length === 0 && active.leeching.length === 0;
  return html`<section aria-labelledby="active-torrents-heading">
<h2 id="active-torrents-heading">${t('tracker.profile.active')}</h2>
${empty ? html`<p>${t('tracker.profile.none_active')}</p>` : html`${active.seeding.length > 0 ? await list('seeding', active.seeding) : ''}${active.leeching.length > 0 ? await list('leeching', active.leeching) : ''}`}
</section>`;
}

/** What the tracker adds to the forum's topic, forum and profile pages. */
export function trackerAddons({
  torrents,
  thanks,
  reseeds,
  passkeys,
  presenter,
  figures,
  clock,
}: Pick<TrackerPageDeps, 'torrents' | 'thanks' | 'reseeds' | 'passkeys' | 'presenter'> & { figures: TrackerFigures; clock: Clock }): ForumPageAddons {
  // The site's tracker figures are sums over whole tables: counted at most once a minute for the index.
  const siteStats = atMostEvery(SITE_FIGURES_FRESH_MS, clock, () => figures.site());
  return {
    async indexLines() {
      const stats = await siteStats();
      return html`<p>${t('home.stats.tracker', { torrents: number(stats.torrents), size: formatBytes(stats.total_size), seeders: number(stats.seeders), leechers: number(stats.leechers) })}</p>`;
    },
    // A release forum's list shows each release's status, size and swarm under its title, as TorrentPier's does.
    async topicLines(topicIds) {
      const releases = await torrents.onTopics(topicIds);
      return new Map([...releases].map(([topicId, release]) => [topicId, releaseLine(release)]));
    },
    // The ratio beside each post's author, as on every tracker's forum; none before the rule's threshold.
    async authorLines(userIds) {
      const ratios = await figures.ratios(userIds);
      return new Map([...ratios].map(([id, ratio]) => [id, html` <span>${t('tracker.ratio_line', { ratio: formatRatio(ratio) })}</span>`]));
    },
    async topic(request, reply, topic) {
      const viewer = request.user;
      const [torrent, permissions] = await Promise.all([torrents.onTopic(topic.id), torrents.permissions(viewer)]);
      // The topic page refuses a forum the viewer may not read; should it ever be shown, the torrent is not.
      if (!permissions.may(topic.forum_id, 'read')) return html``;
      if (torrent === null) {
        const may = viewer !== null && (isStaff(viewer) || viewer.id === topic.author_id) && permissions.may(topic.forum_id, 'upload');
        return may ? html`<p class="actions"><a href="${uploadPath({ topic: topic.id })}">${t('tracker.attach_link')}</a></p>` : html``;
      }
      const files = await torrents.files(torrent.id);
      const site = origin(request, request.server.site.baseUrl);
      // No download link (nor magnet, which carries the passkey) where the forum refuses downloads (docs/access.md).
      const mayDownload = permissions.may(topic.forum_id, 'download');
      const announce = viewer === null || isFrozen(torrent.status) || !mayDownload ? null : await torrents.announceUrlFor(viewer, site);
      // The magnet link carries the viewer's passkey: no shared cache may keep this page.
      if (announce !== null) reply.header('cache-control', 'private, no-store');
      const [thankers, thanked, reseed, mayCall] = await Promise.all([
        thanks.ofTopic(topic.id, { offset: 0, perPage: THANKERS_SHOWN }),
        viewer === null ? false : thanks.hasThanked(topic.id, viewer.id),
        reseeds.state(torrent.id),
        viewer === null || torrent.seeders > 0 ? false : reseeds.mayCall(torrent.id, viewer.id),
      ]);
      return torrentBlock(request, reply, torrent, files, announce, topic, {
        reseed: reseedLines(request, reply, torrent, reseed, mayCall),
        thanks: thanksSection(request, reply, torrent, thankers, thanked),
      });
    },
    // A release is a new topic with a .torrent: only where the reader may also upload (docs/access.md).
    newTopic: (_request, forum, permissions) =>
      permissions.may(forum.id, 'upload') ? html`<p><a href="${uploadPath({ forum: forum.id })}">${t('tracker.new_topic_link')}</a></p>` : html``,
    async profile(request, reply, user) {
      // The member's releases that the reader may see, counted as the tracker list counts them, and linked to it.
      const [{ total }, active] = await Promise.all([
        torrents.list({ uploaderId: user.id, sort: 'registered', order: 'desc' }, request.user, { page: 1, perPage: 1, offset: 0 }),
        torrents.activeOf(user.id, request.user),
      ]);
      const received = total === 0 ? 0 : await thanks.received(user.id);
      const releases = html`<p class="releases">${
        total === 0
          ? t('tracker.profile.no_releases')
          : html`<a href="${withQuery(TRACKER_PATH, { uploader: user.id })}">${tn('tracker.profile.releases', total, { name: user.username })}</a>`
      }</p>${received === 0 ? '' : html`<p class="thanks-received">${tn('thanks.received', received)}</p>`}${active === null ? '' : await activeTorrents(presenter, active)}`;
      if (request.user?.id !== user.id) return releases;
      const passkey = await passkeys.current(user.id);
      reply.header('cache-control', 'private, no-store');
      return html`${releases}<section aria-labelledby="passkey-heading">
<h2 id="passkey-heading">${t('tracker.passkey')}</h2>
<p class="muted">${t('tracker.passkey.about')}</p>
${passkey === null ? html`<p>${t('tracker.passkey.none')}</p>` : html`<p><code>${passkey}</code></p>`}
<form method="post" action="${PASSKEY_PATH}" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${passkey === null ? t('tracker.passkey.create') : t('tracker.passkey.renew')}</button></form>
</section>`;
    },
  };
}

/** Names of those who thanked shown under a release; the rest are counted (the API lists them all). */
const THANKERS_SHOWN = 30;
const thanksPath = (id: number): string => `/tracker/torrents/${id}/thanks/`;
const unthankPath = (id: number): string => `/tracker/torrents/${id}/unthank/`;

/** "Thanks (n)" in a release's block: who thanked, and the viewer's button to thank (not their own release) or take it back. */
function thanksSection(
  request: FastifyRequest,
  reply: FastifyReply,
  torrent: TorrentView,
  thankers: { rows: Array<{ user_id: number; username: string }>; total: number },
  thanked: boolean,
): SafeHtml {
  const viewer = request.user;
  const button =
    viewer === null || viewer.id === torrent.uploader_id
      ? ''
      : html`<form method="post" action="${thanked ? unthankPath(torrent.id) : thanksPath(torrent.id)}" class="inline">${csrfInput(request, reply)}<button type="submit" class="${thanked ? 'secondary' : ''}">${t(thanked ? 'thanks.take_back' : 'thanks.give')}</button></form>`;
  return html`<section class="thanks" aria-labelledby="thanks-heading">
<h3 id="thanks-heading">${tn('thanks.heading', thankers.total)}</h3>
${
  thankers.total === 0
    ? html`<p class="muted">${t('thanks.none')}</p>`
    : html`<p>${thankers.rows.map((row, index) => html`${index > 0 ? ', ' : ''}<a href="${profilePath({ id: row.user_id, name: row.username })}">${row.username}</a>`)}${
        thankers.total > thankers.rows.length ? html` ${t('thanks.and_more', { count: thankers.total - thankers.rows.length })}` : ''
      }</p>`
}
${button}
</section>`;
}

/**
 * When a seeder was last seen, and for a torrent without one the call to
 * reseed: the button for a member who downloaded it, or when the last call
 * went out and when the next may.
 */
function reseedLines(request: FastifyRequest, reply: FastifyReply, torrent: TorrentView, state: ReseedState, mayCall: boolean): SafeHtml {
  const seen = html`<p class="last-seeder">${state.lastSeederAt === null ? t('reseed.never_seen') : tHtml('reseed.last_seen', { time: timeHtml(state.lastSeederAt) })}</p>`;
  if (torrent.seeders > 0) return seen;
  const asked = state.nextCallAt === null ? '' : html`<p class="muted">${tHtml('reseed.asked', { time: timeHtml(state.lastCallAt!) })}</p>`;
  const button =
    mayCall && state.nextCallAt === null
      ? html`<form method="post" action="/tracker/torrents/${torrent.id}/reseed/" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('reseed.call')}</button></form>`
      : '';
  return html`${seen}${asked}${button}`;
}

function torrentBlock(
  request: FastifyRequest,
  reply: FastifyReply,
  torrent: TorrentView,
  files: { path: string; size: number }[],
  announce: string | null,
  topic: TopicWithAuthor,
  community: { reseed: SafeHtml; thanks: SafeHtml },
): SafeHtml {
  const viewer = request.user;
  const frozen = isFrozen(torrent.status);
  const staff = isStaff(viewer);
  const mayRemove = viewer !== null && (staff || (torrent.uploader_id === viewer.id && !frozen));
  return html`<section class="torrent" aria-labelledby="torrent-heading">
<h2 id="torrent-heading">${breakableName(torrent.name)}</h2>
${frozen ? html`<p class="notice">${t('tracker.frozen', { status: statusLabel(torrent.status).toLowerCase() })}</p>` : ''}
<dl class="facts">
<dt>${t('tracker.size')}</dt><dd>${formatBytes(torrent.size)} (${tn('tracker.files', torrent.files_count)})</dd>
<dt>${t('tracker.status')}</dt><dd>${statusHtml(torrent.status)}</dd>
<dt>${t('tracker.freeleech')}</dt><dd>${freeleechLabel(torrent.freeleech)}</dd>
<dt>${t('tracker.seeders')}</dt><dd class="seeders">${torrent.seeders}</dd>
<dt>${t('tracker.leechers')}</dt><dd class="leechers">${torrent.leechers}</dd>
<dt>${t('tracker.completed')}</dt><dd>${tn('tracker.times', torrent.completed_count)}</dd>
<dt>${t('tracker.registered')}</dt><dd>${
    torrent.uploader_id !== null && torrent.uploader_name !== null
      ? tHtml('tracker.registered_by', {
          time: timeHtml(torrent.registered_at),
          name: html`<a href="${profilePath({ id: torrent.uploader_id, name: torrent.uploader_name })}">${torrent.uploader_name}</a>`,
        })
      : timeHtml(torrent.registered_at)
  }</dd>
${torrent.info_hash_v1 === null ? '' : html`<dt>${t('tracker.info_hash_v1')}</dt><dd><code>${torrent.info_hash_v1}</code></dd>`}
${torrent.info_hash_v2 === null ? '' : html`<dt>${t('tracker.info_hash_v2')}</dt><dd><code>${torrent.info_hash_v2}</code></dd>`}
</dl>
${community.reseed}
${
  announce === null
    ? viewer === null && !frozen
      ? html`<p>${tLink('tracker.login_to_download', loginPath({ next: topicPath({ id: topic.id, title: topic.title }) }))}</p>`
      : ''
    : html`<p class="actions"><a class="button" href="${downloadPath(torrent.id)}" download>${t('tracker.download')}</a> <a href="${magnetLink(torrent, announce)}">${t('tracker.magnet')}</a></p>`
}
${community.thanks}
<details><summary>${t('tracker.files_summary', { count: torrent.files_count })}</summary>
<table class="files"><thead><tr><th scope="col">${t('tracker.path')}</th><th scope="col" class="num">${t('tracker.size')}</th></tr></thead><tbody>
${files.slice(0, FILES_SHOWN).map((file) => html`<tr><td>${breakableName(file.path)}</td><td class="num">${formatBytes(file.size)}</td></tr>`)}
</tbody></table>
${files.length > FILES_SHOWN ? html`<p class="muted">${t('tracker.more_files', { count: files.length - FILES_SHOWN })}</p>` : ''}
</details>
${staff ? moderateForm(request, reply, torrent) : ''}
${staff ? html`<p><a href="${uploadPath({ topic: topic.id })}">${t('tracker.replace')}</a></p>` : ''}
${mayRemove ? html`<form method="post" action="${removePath(torrent.id)}" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('tracker.remove')}</button></form>` : ''}
</section>`;
}

export function moderateForm(
  request: FastifyRequest,
  reply: FastifyReply,
  torrent: { id: number; name: string; status: TorrentStatus; freeleech: Freeleech },
  back?: string,
): SafeHtml {
  return html`<form method="post" action="${moderatePath(torrent.id)}" class="inline-edit">
${csrfInput(request, reply)}${back === undefined ? '' : html`<input type="hidden" name="return_to" value="${back}">`}
<label>${t('tracker.status_of', { name: torrent.name })} <select name="status">${TORRENT_STATUSES.map((status) => html`<option value="${status}"${status === torrent.status ? html` selected` : ''}>${statusLabel(status)}</option>`)}</select></label>
<label>${t('tracker.freeleech')} <select name="freeleech">${FREELEECH_KINDS.map((kind) => html`<option value="${kind}"${kind === torrent.freeleech ? html` selected` : ''}>${freeleechLabel(kind)}</option>`)}</select></label>
<button type="submit" class="small">${t('tracker.save')}</button>
</form>`;
}

const ModerateForm = Type.Object({
  status: Type.Optional(Type.Unsafe<TorrentStatus>({ type: 'string', enum: [...TORRENT_STATUSES] })),
  freeleech: Type.Optional(Type.Unsafe<Freeleech>({ type: 'string', enum: [...FREELEECH_KINDS] })),
});

const NewTopicWithTorrent = Type.Object({ title: ForumBodies.topic.properties.title, body: ForumBodies.topic.properties.body });

const SORTS = ['registered', 'size', 'seeders', 'leechers', 'completed', 'name'] as const satisfies readonly TorrentSort[];

const SORT_LABELS: Record<(typeof SORTS)[number], TextKey> = {
  registered: 'tracker.sort.registered',
  size: 'tracker.sort.size',
  seeders: 'tracker.sort.seeders',
  leechers: 'tracker.sort.leechers',
  completed: 'tracker.sort.completed',
  name: 'tracker.sort.name',
};

/** Where a .torrent is attached: an existing topic, or a new topic in a forum. */
/** Where a .torrent goes: onto a topic, or with a new topic into a forum (laid out by its release template, if it has one). */
type UploadTarget = { topic: TopicWithAuthor } | { forum: ForumRow; template: ReleaseTemplate | null };

interface UploadState {
  values: Record<string, string>;
  errors: FieldErrors;
}

export const trackerPages: FastifyPluginAsync<TrackerPageDeps> = async (app, { pages, torrents, thanks, reseeds, forum, presenter, passkeys }) => {
  const topicHref = async (topicId: number, viewer: FastifyRequest['user']): Promise<string> =>
    (await presenter.heading(await forum.getTopic(topicId, viewer))).path;

  // Attaching a .torrent: ?topic=ID (own topic; moderators any) or ?forum=ID (a new topic with its .torrent).
  // Who may attach is settled before anything reads or judges the body (http/multipart.ts): the target is kept for the handler.
  const targets = new WeakMap<FastifyRequest, UploadTarget>();
  const uploadOptions = {
    onRequest: [requirePageUser, async (request: FastifyRequest) => void targets.set(request, await uploadTarget(request))],
    config: uploadRoute(torrents.maxTorrentBytes),
  };

  async function uploadTarget(request: FastifyRequest): Promise<UploadTarget> {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const topicId = Number(query.get('topic'));
    const forumId = Number(query.get('forum'));
    const user = assertUser(request);
    const permissions = await torrents.permissions(user);
    // Registering needs `upload` in the forum (docs/access.md); a forum that does not exist for the member is a 404.
    const mayUploadIn = (id: number): void => {
      if (!permissions.may(id, 'view')) throw pageNotFound();
      if (!permissions.may(id, 'upload')) throw new ApiError('FORBIDDEN', t('tracker.upload_forbidden'));
    };
    if (Number.isSafeInteger(topicId) && topicId > 0) {
      const topic = await forum.getTopic(topicId, user);
      mayUploadIn(topic.forum_id);
      if (!isStaff(user) && topic.author_id !== user.id) throw new ApiError('FORBIDDEN', t('tracker.attach_forbidden'));
      return { topic };
    }
    if (Number.isSafeInteger(forumId) && forumId > 0) {
      mayUploadIn(forumId);
      const [row, template] = await Promise.all([forum.getForum(forumId), forum.releases.of(forumId)]);
      return { forum: row, template };
    }
    throw pageNotFound();
  }

  function uploadForm(request: FastifyRequest, reply: FastifyReply, target: UploadTarget, failed?: UploadState): FastifyReply {
    const isNew = 'forum' in target;
    const action = isNew ? uploadPath({ forum: target.forum.id }) : uploadPath({ topic: target.topic.id });
    const heading = isNew ? t('tracker.upload.new_heading', { forum: target.forum.name }) : t('tracker.upload.attach_heading', { title: target.topic.title });
    return sendPage(request, reply, {
      title: heading,
      status: failed === undefined ? 200 : 422,
      head: html`<meta name="robots" content="noindex">`,
      body: html`${breadcrumb(isNew ? [{ label: target.forum.name, href: forumPath(target.forum) }] : [])}
<h1>${heading}</h1>
${failed === undefined ? '' : formNotice(checkFields(), failed.errors, ['title', 'body', 'file', ...(isNew && target.template !== null ? target.template.fields.map((field) => `release.${field.key}`) : [])])}
<form method="post" action="${action}" enctype="multipart/form-data" class="stacked">
${csrfInput(request, reply)}
${
  isNew
    ? html`${textInput(pageFormState(failed?.values, failed?.errors), { name: 'title', label: t('forum.title'), required: true, maxlength: TOPIC_TITLE_MAX })}
${target.template === null ? '' : releaseFieldset(target.template, failed?.values, failed?.errors)}
${textArea(pageFormState(failed?.values, failed?.errors), { name: 'body', label: t('tracker.upload.description'), required: true, maxlength: POST_BODY_MAX, rows: 10 })}`
    : ''
}
<div class="field"><label for="torrent-file">${t('tracker.upload.file')}</label>
<input type="file" id="torrent-file" name="file" accept=".torrent,application/x-bittorrent" required${failed?.errors['file'] ? html` aria-invalid="true" aria-describedby="torrent-file-error"` : ''}>
${failed?.errors['file'] ? html`<p class="error" id="torrent-file-error">${failed.errors['file'].join(' ')}</p>` : html`<p class="hint">${t('tracker.upload.hint', { size: formatBytes(torrents.maxTorrentBytes) })}</p>`}
</div>
<div><button type="submit">${isNew ? t('forum.start') : t('tracker.upload.attach')}</button></div>
</form>`,
    });
  }

  app.get('/tracker/upload/', { preValidation: requirePageUser }, async (request, reply) => uploadForm(request, reply, await uploadTarget(request)));

  app.post('/tracker/upload/', uploadOptions, async (request, reply) => {
    const target = targets.get(request) ?? (await uploadTarget(request));
    const user = assertUser(request);
    const values = submittedText(request.body);
    const site = origin(request, request.server.site.baseUrl);
    if ('topic' in target) {
      const done = await attempt(() => torrents.upload(user, target.topic.id, uploadedFile(request), site));
      if (!done.ok) return uploadForm(request, reply, target, { values, errors: done.errors });
      return reply.redirect(await topicHref(target.topic.id, user), 303);
    }
    const form = checkForm(NewTopicWithTorrent, request.body);
    const checked = await attempt(() => torrents.check(uploadedFile(request), site, user));
    if (!form.ok || !checked.ok) {
      return uploadForm(request, reply, target, { values, errors: { ...(form.ok ? {} : form.errors), ...(checked.ok ? {} : checked.errors) } });
    }
    const release = target.template === null ? {} : { release: releaseValues(target.template, values) };
    const created = await attempt(() => forum.createTopic(user, { forum_id: target.forum.id, ...form.value, ...release }));
    if (!created.ok) return uploadForm(request, reply, target, { values, errors: created.errors });
    const done = await attempt(() => torrents.upload(user, created.value.id, uploadedFile(request), site));
    // Registered by someone else in the moment between check and upload: the topic stays, the form for it says why.
    if (!done.ok) return uploadForm(request, reply, { topic: created.value }, { values: {}, errors: done.errors });
    return reply.redirect((await presenter.heading(created.value)).path, 303);
  });

  app.get('/tracker/download/:id/', { preValidation: requirePageUser }, async (request, reply) => {
    const id = pageId(request);
    const file = await torrents.download(id, assertUser(request), origin(request, request.server.site.baseUrl));
    return sendTorrentFile(reply, file.filename, file.bytes);
  });

  app.post('/tracker/torrents/:id/moderate/', { preValidation: requirePageUser }, async (request, reply) => {
    const user = assertUser(request);
    const form = checkForm(ModerateForm, request.body);
    if (!form.ok) throw new ApiError('BAD_REQUEST', t('tracker.moderate_invalid'));
    const torrent = await torrents.update(pageId(request), user, form.value);
    const back = localPath(submittedText(request.body)['return_to'], '');
    return reply.redirect(back !== '' ? back : await topicHref(torrent.topic_id, user), 303);
  });

  app.post('/tracker/torrents/:id/reseed/', { preValidation: requirePageUser }, async (request, reply) => {
    const user = assertUser(request);
    const id = pageId(request);
    const back = await topicHref((await torrents.get(id, user)).topic_id, user);
    // Refused (seeded meanwhile, asked already today): the topic page shows why by what it shows.
    await reseeds.call(id, user).catch((error: unknown) => {
      if (!(error instanceof ApiError) && !(error instanceof ValidationError)) throw error;
    });
    return reply.redirect(back, 303);
  });

  for (const [path, give] of [
    ['/tracker/torrents/:id/thanks/', true],
    ['/tracker/torrents/:id/unthank/', false],
  ] as const) {
    app.post(path, { preValidation: requirePageUser }, async (request, reply) => {
      const user = assertUser(request);
      const id = pageId(request);
      if (give) await thanks.thank(id, user);
      else await thanks.unthank(id, user);
      return reply.redirect(await topicHref((await torrents.get(id, user)).topic_id, user), 303);
    });
  }

  app.post('/tracker/torrents/:id/remove/', { preValidation: requirePageUser }, async (request, reply) => {
    const user = assertUser(request);
    const torrent = await torrents.get(pageId(request), user);
    await torrents.delete(torrent.id, user);
    return reply.redirect(await topicHref(torrent.topic_id, user), 303);
  });

  app.post(PASSKEY_PATH, { preValidation: requirePageUser }, async (request, reply) => {
    const user = assertUser(request);
    await passkeys.rotate(user.id);
    return reply.redirect(profilePath({ id: user.id, name: user.name }), 303);
  });

  pages.fixed(app, TRACKER_PATH, {
    async serve(request, reply, visit) {
      const page = requestedPage(visit.query);
      if (page === null) throw pageNotFound();
      const raw = Object.fromEntries([...visit.query].filter(([, value]) => value !== ''));
      const checked = checkForm(TorrentListQuery, raw);
      const query = checked.ok ? checked.value : {};
      const sort: TorrentSort = query.sort ?? 'registered';
      const order = query.order ?? 'desc';
      const { perPage, offset } = pageRequest({ page, per_page: query.per_page });
      const release = releaseFiltersIn(visit.query);
      const [listed, forums, template] = await Promise.all([
        checked.ok
          ? attempt(() =>
              torrents.list(
                {
                  search: query.search,
                  forumId: query.forum,
                  status: query.status,
                  uploaderId: query.uploader,
                  minSeeders: query.min_seeders,
                  release,
                  sort,
                  order,
                },
                request.user,
                { page, perPage, offset },
              ),
            )
          : null,
        forum.listForums({ page: 1, perPage: 100, offset: 0 }, request.user),
        // The chosen forum's release fields that filter its torrents (docs/release-templates.md).
        query.forum === undefined ? null : forum.releases.of(query.forum),
      ]);
      const { rows, total } = listed?.ok === true ? listed.value : { rows: [], total: 0 };
      const refused = listed !== null && !listed.ok ? listed.errors : checked.ok ? undefined : checked.errors;
      const filterable = template?.fields.filter((field) => field.filterable) ?? [];
      const last = lastPage(total, perPage);
      if (page > last) throw pageNotFound();
      const keep = new URLSearchParams(visit.query);
      const href = (n: number): string => {
        keep.set('page', String(n));
        if (n === 1) keep.delete('page');
        return withQuery(TRACKER_PATH, keep);
      };
      const selected = (value: string | number | undefined, option: string | number) =>
        value !== undefined && String(value) === String(option) ? html` selected` : '';
      const [headings, permissions] = await Promise.all([
        presenter.headings(rows.map((row) => ({ id: row.topic_id, title: row.topic_title }))),
        torrents.permissions(request.user),
      ]);
      const mayDownload = (row: TorrentView) => !isFrozen(row.status) && permissions.may(row.forum_id, 'download');
      // Magnet links carry the member's passkey: asked for only when a row offers one, and no shared cache may keep the page.
      const announce =
        request.user === null || !rows.some(mayDownload) ? null : await torrents.announceUrlFor(request.user, origin(request, request.server.site.baseUrl));
      if (announce !== null) reply.header('cache-control', 'private, no-store');
      return sendPage(request, reply, {
        title: page === 1 ? t('tracker.title') : t('page.numbered', { title: t('tracker.title'), page }),
        canonical: href(page),
        status: refused === undefined ? 200 : 422,
        body: html`<h1>${t('tracker.title')}</h1>
<form method="get" action="${TRACKER_PATH}" class="toolbar" role="search" aria-label="${t('tracker.search')}">
<label>${t('tracker.name_contains')} <input type="search" name="search" value="${query.search ?? raw['search'] ?? ''}" maxlength="200"></label>
<label>${t('search.forum')} <select name="forum"><option value="">${t('tracker.any')}</option>${forums.rows.map((row) => html`<option value="${row.id}"${selected(query.forum, row.id)}>${row.name}</option>`)}</select></label>
<label>${t('tracker.status')} <select name="status"><option value="">${t('tracker.any')}</option>${TORRENT_STATUSES.map((status) => html`<option value="${status}"${selected(query.status, status)}>${statusLabel(status)}</option>`)}</select></label>
<label>${t('tracker.min_seeders')} <input type="number" name="min_seeders" min="0" value="${query.min_seeders ?? ''}"></label>
${filterable.map((field) =>
  field.kind === 'choice'
    ? html`<label>${field.label} <select name="release.${field.key}"><option value="">${t('release.filter_any')}</option>${field.choices.map((choice) => html`<option value="${choice}"${selected(release[field.key], choice)}>${choice}</option>`)}</select></label>`
    : html`<label>${field.label} <input type="number" name="release.${field.key}" min="0" value="${release[field.key] ?? ''}"></label>`,
)}
<label>${t('members.sort')} <select name="sort">${SORTS.map((key) => html`<option value="${key}"${selected(sort, key)}>${t(SORT_LABELS[key])}</option>`)}</select></label>
<label>${t('members.order')} <select name="order"><option value="desc"${selected(order, 'desc')}>${t('members.order.desc')}</option><option value="asc"${selected(order, 'asc')}>${t('members.order.asc')}</option></select></label>
<div class="actions"><button type="submit">${t('search.submit')}</button> <a href="${TRACKER_PATH}">${t('tracker.clear')}</a></div>
</form>
${refused === undefined ? '' : formNotice(t('search.invalid'), refused)}
<p class="muted">${tn('tracker.count', total)}</p>
${rows.length === 0 ? html`<p>${t('tracker.none')}</p>` : releaseTable(rows, headings, { announce, mayDownload })}
${pageNav(page, last, href, t('search.pages'))}`,
      });
    },
  });

  // Legacy links: /dl.php?t=ID → the download; TorrentPier 2.x's /dl.php?id=ATTACH_ID (an attachment id,
  // kept by the importer) → that torrent's download; /tracker.php?… → /tracker/ (nm → search, f → forum).
  const legacyId = (value: string | undefined): number | null =>
    value === undefined || !/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2147483647 ? null : Number(value);
  for (const path of ['/dl.php', '/dl']) {
    app.get(path, async (request, reply) => {
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      if (query.has('t')) {
        const id = legacyId(query.getAll('t').at(-1));
        if (id === null) throw pageNotFound();
        query.delete('t');
        return reply.redirect(withQuery(downloadPath(id), query), 301);
      }
      const attachId = legacyId(query.getAll('id').at(-1));
      const torrentId = attachId === null ? null : await torrents.byLegacyAttachment(attachId);
      if (torrentId === null) throw pageNotFound();
      query.delete('id');
      return reply.redirect(withQuery(downloadPath(torrentId), query), 301);
    });
  }
  {
    const path = '/tracker.php';
    app.get(path, async (request, reply) => {
      const query = new URLSearchParams();
      for (const [key, value] of new URLSearchParams(request.url.split('?')[1] ?? '')) {
        query.append(key === 'nm' ? 'search' : key === 'f' ? 'forum' : key, value);
      }
      return reply.redirect(withQuery(TRACKER_PATH, query), 301);
    });
  }
};

function pageId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2147483647) throw pageNotFound();
  return Number(raw);
}
