// `/profile/{slug}.{id}/`: a member's public profile; moderators also find the
// ban panel there (profile-ban.ts).
import { number, t } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { formatPoints, formatRatio } from '../../web/format.ts';
import { groupPath, newMessagePath, profileEmailPath, profilePath, settingsPath } from '../../urls/paths.ts';
import type { EntityPage } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { dateHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { GroupRole, GroupRow } from '../../groups/service.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { loadMember } from './member.ts';
import { banEndDay } from '../../users/ban.ts';
import { banForms, banPanel, type ShowProfile } from './profile-ban.ts';
import { okNotice } from '../../web/form.ts';
import { avatarImg } from '../../web/avatar.ts';
import { avatarUrl } from '../../users/avatars/avatars.ts';

const ROLE_NAMES = { user: null, moderator: 'profile.role.moderator', admin: 'profile.role.admin' } as const;

export function profilePage({ presenter, users, addons, trackerFigures, bans, groups }: ForumPageDeps): EntityPage<UserRow> {
  const show: ShowProfile = async (request, reply, user, visit, failed) => {
    const [signature, tracker, addon, memberOf] = await Promise.all([
      presenter.signature(user.signature),
      trackerFigures.forUser(user.id),
      addons?.profile === undefined ? '' : addons.profile(request, reply, user),
      groups === undefined ? [] : groups.groupsOf(user.id, request.user),
    ]);
    const member = { id: user.id, name: user.username };
    const self = request.user?.id === user.id;
    const role = ROLE_NAMES[user.role];
    const notice = visit.query.get('ban');
    return sendPage(request, reply, {
      title: user.username,
      canonical: visit.canonicalPath,
      status: failed === undefined ? 200 : 422,
      body: html`<h1>${avatarImg(avatarUrl(user), 80)}${user.username}</h1>
${role === null ? '' : html`<p class="badge">${t(role)}</p>`}
${notice === 'saved' && user.status === 'banned' ? okNotice(t('profile.banned_saved', { name: user.username })) : notice === 'lifted' && user.status !== 'banned' ? okNotice(t('profile.ban_lifted', { name: user.username })) : ''}
${user.status === 'banned' ? html`<p class="notice">${banEndDay(user) === null ? t('profile.banned') : t('profile.banned_until', { day: banEndDay(user)! })}</p>` : ''}
<dl class="facts">
<dt>${t('profile.joined')}</dt><dd>${dateHtml(user.created_at)}</dd>
<dt>${t('profile.posts')}</dt><dd>${number(user.post_count)}</dd>
<dt>${t('profile.uploaded')}</dt><dd>${formatBytes(tracker.uploaded)}</dd>
<dt>${t('profile.downloaded')}</dt><dd>${formatBytes(tracker.downloaded)}</dd>
${tracker.ratio === null ? '' : html`<dt>${t('profile.ratio')}</dt><dd>${formatRatio(tracker.ratio)}</dd>`}
<dt>${t('profile.bonus')}</dt><dd>${formatPoints(tracker.bonusPoints)}</dd>
<dt>${t('profile.seeding')}</dt><dd>${tracker.seeding}</dd>
<dt>${t('profile.leeching')}</dt><dd>${tracker.leeching}</dd>
</dl>
${memberGroups(memberOf)}
<h2>${t('profile.signature')}</h2>
${signature.value === '' ? html`<p class="muted">${t('profile.no_signature')}</p>` : html`<div class="signature">${signature}</div>`}
${
  self
    ? html`<p><a href="${settingsPath()}">${t('profile.settings')}</a></p>`
    : html`<ul class="actions"><li><a href="${newMessagePath({ to: user.username })}">${t('profile.message', { name: user.username })}</a></li><li><a href="${profileEmailPath(member)}">${t('profile.email', { name: user.username })}</a></li></ul>`
}
${addon}
${bans.mayBan(request.user, user) ? banPanel(request, reply, user, visit, failed) : ''}`,
    });
  };
  return {
    load: (id) => loadMember(users, id),
    path: (user) => profilePath({ id: user.id, name: user.username }),
    serve: (request, reply, user, visit) => show(request, reply, user, visit),
    forms: banForms(bans, show),
  };
}

/** The groups the member is in that the viewer may see (a hidden one only to its members and admins), leaders marked; nothing when none. */
function memberGroups(memberOf: ReadonlyArray<{ group: GroupRow; role: GroupRole }>): SafeHtml {
  if (memberOf.length === 0) return html``;
  return html`<section aria-labelledby="groups-heading"><h2 id="groups-heading">${t('profile.groups')}</h2>
<ul class="groups">${memberOf.map(
    ({ group, role }) =>
      html`<li><a href="${groupPath(group)}">${group.name}</a>${role === 'leader' ? html` <span class="badge">${t('groups.role.leader')}</span>` : ''}</li>`,
  )}</ul></section>`;
}
