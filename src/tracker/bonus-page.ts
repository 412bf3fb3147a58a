// `/profile/bonus/` (login required): your seed-bonus balance, how points
// are earned, the exchange for upload credit and your history. Each exchange
// form carries an idempotency key made when the page was shown, so one click
// applies once however often it is submitted.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../auth/guard.ts';
import { bonusPath, withQuery } from '../urls/paths.ts';
import type { FixedPage, PageRoutes, PageVisit } from '../urls/semantic-routes.ts';
import { dateHtml } from '../web/format.ts';
import { formNotice, okNotice } from '../web/form.ts';
import { html } from '../web/html.ts';
import { csrfInput, sendPage } from '../web/page.ts';
import type { SeedBonus } from './bonus.ts';
import type { TrackerConfig } from './config.ts';
import { formatBytes, formatPoints } from './figures.ts';

const KEY_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

export function bonusPage(bonus: SeedBonus, settings: TrackerConfig): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, state: { status: number; message?: string }): Promise<FastifyReply> {
    const me = assertUser(request);
    const [balance, history] = await Promise.all([bonus.balance(me.id), bonus.history(me.id)]);
    const exchanged = Number(visit.query.get('exchanged'));
    const tiers = settings.bonus.tiers;
    return sendPage(request, reply, {
      title: 'Your bonus points',
      canonical: bonusPath(),
      status: state.status,
      body: html`<h1>Your bonus points</h1>
${state.message === undefined && Number.isInteger(exchanged) && exchanged > 0 ? okNotice(`${exchanged} GiB of upload credit were added to your account.`) : ''}
${formNotice(state.message)}
<p class="score">You have <strong>${formatPoints(balance)}</strong> bonus points.</p>
<h2>How you earn them</h2>
<p>Seeding earns points for the time you seed, credited every ${Math.round(settings.bonus.intervalSeconds / 60)} minutes. The more torrents you seed at once, the more you earn an hour:</p>
<table class="list">
<thead><tr><th scope="col">Torrents seeded</th><th scope="col">Points an hour</th></tr></thead>
<tbody>${tiers.map((tier, i) => html`<tr><td>${tiers[i + 1] === undefined ? `${tier.fromTorrents} or more` : `${tier.fromTorrents}–${tiers[i + 1]!.fromTorrents - 1}`}</td><td>${formatPoints(tier.hundredthsPerHour)}</td></tr>`)}</tbody>
</table>
<h2>Exchange points for upload credit</h2>
<p>Upload credit counts as uploaded data and raises your ratio.</p>
<ul class="offers">
${bonus.offers().map(
  (offer) => html`<li><form method="post" action="${bonusPath()}" class="inline">
${csrfInput(request, reply)}
<input type="hidden" name="offer" value="${offer.gib}">
<input type="hidden" name="key" value="${randomUUID()}">
<button type="submit"${offer.price > balance ? ' disabled' : ''}>${offer.gib} GiB for ${formatPoints(offer.price)} points</button>
</form></li>`,
)}
</ul>
<h2>History</h2>
${
  history.length === 0
    ? html`<p class="muted">Nothing yet.</p>`
    : html`<table class="list">
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Points</th></tr></thead>
<tbody>${history.map(
        (entry) =>
          html`<tr><td>${dateHtml(entry.at)}</td><td>${
            entry.kind === 'seeding'
              ? `Seeded ${entry.torrents} ${entry.torrents === 1 ? 'torrent' : 'torrents'} for ${Math.round((entry.seconds ?? 0) / 60)} min`
              : `Exchanged for ${formatBytes(entry.uploadBytes ?? 0)} of upload credit`
          }</td><td class="num">${entry.points > 0 ? '+' : ''}${formatPoints(entry.points)}</td></tr>`,
      )}</tbody>
</table>`
}`,
    });
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      if (request.method !== 'POST') return show(request, reply, visit, { status: 200 });
      const body = (request.body ?? {}) as Record<string, unknown>;
      const gib = typeof body['offer'] === 'string' && /^\d{1,6}$/.test(body['offer']) ? Number(body['offer']) : NaN;
      const key = typeof body['key'] === 'string' && KEY_PATTERN.test(body['key']) ? body['key'] : null;
      if (!Number.isInteger(gib) || key === null)
        return show(request, reply, visit, { status: 422, message: 'This exchange form is incomplete. Reload the page and choose an offer again.' });
      const result = await bonus.exchange(assertUser(request).id, gib, key);
      if (!result.ok) {
        const message =
          result.reason === 'unknown-offer'
            ? 'That offer does not exist (any more). Choose one of the offers below.'
            : 'You do not have enough points for that offer.';
        return show(request, reply, visit, { status: 422, message });
      }
      return reply.redirect(withQuery(bonusPath(), { exchanged: gib }), 303);
    },
  };
}

export interface BonusPageOptions {
  pages: PageRoutes;
  bonus: SeedBonus;
  settings: TrackerConfig;
}

export const bonusPages: FastifyPluginAsync<BonusPageOptions> = async (app, { pages, bonus, settings }) => {
  pages.fixed(app, bonusPath(), bonusPage(bonus, settings));
};
