// `/profile/bonus/`: your bonus points and how they are earned (login required).
import { assertUser } from '../../auth/guard.ts';
import { bonusPath, profilePath } from '../../urls/paths.ts';
import type { FixedPage } from '../../urls/semantic-routes.ts';
import { counted } from '../../web/format.ts';
import { html } from '../../web/html.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';

export function bonusPage({ users }: ForumPageDeps): FixedPage {
  return {
    loginRequired: true,
    async serve(request, reply) {
      const me = await users.get(assertUser(request).id);
      return sendPage(request, reply, {
        title: 'Your bonus points',
        canonical: bonusPath(),
        body: html`<h1>Your bonus points</h1>
<p class="score">You have <strong>${counted(me.bonus_points, 'bonus point', 'bonus points')}</strong>.</p>
<h2>How you earn them</h2>
<ul>
<li>Every post of yours that is published earns one point: the opening post of a topic you start, and every reply.</li>
<li>A post held for moderation earns its point when a moderator approves it.</li>
<li>Points you have earned stay yours, also when a post is deleted later.</li>
</ul>
<p>Everyone sees your points on <a href="${profilePath({ id: me.id, name: me.username })}">your profile</a>.</p>`,
      });
    },
  };
}
