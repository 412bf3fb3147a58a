// `/profile/bonus/` (login required): your seed-bonus balance, how points
// are earned, the exchange for upload credit and your history. Each exchange
// form carries an idempotency key made when the page was shown, so one click
// applies once however often it is submitted. In the reader's language.
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
import { formatBytes } from '../i18n/sizes.ts';
import { formatPoints } from '../web/format.ts';
import { t, tn } from '../i18n/messages.ts';
import { tHtml } from '../web/translated.ts';

const KEY_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

export function bonusPage(bonus: SeedBonus, settings: TrackerConfig): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, state: { status: number; message?: string }): Promise<FastifyReply> {
    const me = assertUser(request);
    const [balance, history] = await Promise.all([bonus.balance(me.id), bonus.history(me.id)]);
    const exchanged = Number(visit.query.get('exchanged'));
    const tiers = settings.bonus.tiers;
    return sendPage(request, reply, {
      title: t('bonus.title'),
      canonical: bonusPath(),
      status: state.status,
      body: html`<h1>${t('bonus.title')}</h1>
${state.message === undefined && Number.isInteger(exchanged) && exchanged > 0 ? okNotice(t('bonus.exchanged', { gib: exchanged })) : ''}
${formNotice(state.message)}
<p class="score">${tHtml('bonus.balance', { points: html`<strong>${formatPoints(balance)}</strong>` })}</p>
<h2>${t('bonus.earn')}</h2>
<p>${tn('bonus.earn_intro', Math.round(settings.bonus.intervalSeconds / 60))}</p>
<table class="list">
<thead><tr><th scope="col">${t('bonus.seeded')}</th><th scope="col">${t('bonus.per_hour')}</th></tr></thead>
<tbody>${tiers.map((tier, i) => html`<tr><td>${tiers[i + 1] === undefined ? t('bonus.or_more', { count: tier.fromTorrents }) : `${tier.fromTorrents}–${tiers[i + 1]!.fromTorrents - 1}`}</td><td>${formatPoints(tier.hundredthsPerHour)}</td></tr>`)}</tbody>
</table>
<h2>${t('bonus.exchange')}</h2>
<p>${t('bonus.exchange_intro')}</p>
<ul class="offers">
${bonus.offers().map(
  (offer) => html`<li><form method="post" action="${bonusPath()}" class="inline">
${csrfInput(request, reply)}
<input type="hidden" name="offer" value="${offer.gib}">
<input type="hidden" name="key" value="${randomUUID()}">
${
  offer.price > balance
    ? html`<button type="submit" disabled aria-describedby="offer-${offer.gib}-short">${t('bonus.offer', { gib: offer.gib, points: formatPoints(offer.price) })}</button>
<span class="muted" id="offer-${offer.gib}-short">${t('bonus.short', { points: formatPoints(offer.price - balance) })}</span>`
    : html`<button type="submit">${t('bonus.offer', { gib: offer.gib, points: formatPoints(offer.price) })}</button>`
}
</form></li>`,
)}
</ul>
<h2>${t('bonus.history')}</h2>
${
  history.length === 0
    ? html`<p class="muted">${t('bonus.nothing')}</p>`
    : html`<table class="list">
<thead><tr><th scope="col">${t('bonus.when')}</th><th scope="col">${t('bonus.what')}</th><th scope="col">${t('bonus.points')}</th></tr></thead>
<tbody>${history.map(
        (entry) =>
          html`<tr><td>${dateHtml(entry.at)}</td><td>${
            entry.kind === 'seeding'
              ? tn('bonus.seeding', entry.torrents ?? 0, { minutes: Math.round((entry.seconds ?? 0) / 60) })
              : t('bonus.exchange_entry', { size: formatBytes(entry.uploadBytes ?? 0) })
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
      if (!Number.isInteger(gib) || key === null) return show(request, reply, visit, { status: 422, message: t('bonus.incomplete') });
      const result = await bonus.exchange(assertUser(request).id, gib, key);
      if (!result.ok) {
        const message = result.reason === 'unknown-offer' ? t('bonus.unknown_offer') : t('bonus.too_few');
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
