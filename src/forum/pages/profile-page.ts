// `/profile/{slug}.{id}/`: a member's public profile. Every method shows it.
import { formatBytes, formatPoints } from '../../tracker/figures.ts';
import { formatRatio } from '../../tracker/ratio.ts';
import { newMessagePath, profileEmailPath, profilePath, settingsPath } from '../../urls/paths.ts';
import type { EntityPage } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { dateHtml } from '../../web/format.ts';
import { html } from '../../web/html.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';
import { loadMember } from './member.ts';

const ROLE_NAMES = { user: null, moderator: 'Moderator', admin: 'Administrator' } as const;

export function profilePage({ forum, presenter, users, addons, trackerFigures }: ForumPageDeps): EntityPage<UserRow> {
  return {
    load: (id) => loadMember(users, id),
    path: (user) => profilePath({ id: user.id, name: user.username }),
    async serve(request, reply, user, visit) {
      const [posts, signature, tracker, addon] = await Promise.all([
        forum.publishedPostsBy(user.id),
        presenter.signature(user.signature),
        trackerFigures.forUser(user.id),
        addons?.profile === undefined ? '' : addons.profile(request, reply, user),
      ]);
      const member = { id: user.id, name: user.username };
      const self = request.user?.id === user.id;
      const role = ROLE_NAMES[user.role];
      return sendPage(request, reply, {
        title: user.username,
        canonical: visit.canonicalPath,
        body: html`<h1>${user.username}</h1>
${role === null ? '' : html`<p class="badge">${role}</p>`}
${user.status === 'banned' ? html`<p class="notice">This account has been banned.</p>` : ''}
<dl class="facts">
<dt>Joined</dt><dd>${dateHtml(user.created_at)}</dd>
<dt>Posts</dt><dd>${posts}</dd>
<dt>Uploaded</dt><dd>${formatBytes(tracker.uploaded)}</dd>
<dt>Downloaded</dt><dd>${formatBytes(tracker.downloaded)}</dd>
${tracker.ratio === null ? '' : html`<dt>Ratio</dt><dd>${formatRatio(tracker.ratio)}</dd>`}
<dt>Bonus points</dt><dd>${formatPoints(tracker.bonusPoints)}</dd>
<dt>Seeding now</dt><dd>${tracker.seeding}</dd>
<dt>Leeching now</dt><dd>${tracker.leeching}</dd>
</dl>
<h2>Signature</h2>
${signature.value === '' ? html`<p class="muted">No signature.</p>` : html`<div class="signature">${signature}</div>`}
${
  self
    ? html`<p><a href="${settingsPath()}">Change your settings and signature</a></p>`
    : html`<ul class="actions"><li><a href="${newMessagePath({ to: user.username })}">Send ${user.username} a private message</a></li><li><a href="${profileEmailPath(member)}">Send ${user.username} an e-mail</a></li></ul>`
}
${addon}`,
      });
    },
  };
}
