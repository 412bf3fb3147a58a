// The notification centre's pages (docs/notifications.md), members only, no
// script needed:
//
//   /notifications/            newest first, unread ones marked, `?unread=1`
//                              for those alone; "Mark all read" posts to
//                              /notifications/read-all/.
//   /notifications/{id}/       opens one: marks it read and answers 303 to
//                              where it leads (the post, the message).
//   /notifications/settings/   which kinds come to the site and by mail;
//                              posted to itself.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import { isoNow, type Clock } from '../../clock.ts';
import type { NotificationKind } from '../../db/schema.ts';
import { t, tn } from '../../i18n/messages.ts';
import { NOTIFICATION_KINDS, type Delivery, type NotificationStore } from '../../notifications/store.ts';
import { notificationSettingsPath, notificationsPath, parseId } from '../../urls/paths.ts';
import { fixedForm, pageNotFound, type FixedPage, type PageRoutes, type PageVisit } from '../../urls/semantic-routes.ts';
import { NoFields, flag, okNotice, submitted } from '../../web/form.ts';
import { timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { tHtml } from '../../web/translated.ts';
import type { ForumAccess } from '../forum-access.ts';
import { shownNotifications, type ShownNotification } from '../notification-view.ts';
import type { ForumPresenter } from '../presenter.ts';
import { PER_PAGE_DEFAULT } from '../../http/pagination.ts';

const PER_PAGE = PER_PAGE_DEFAULT;

interface Deps {
  pages: PageRoutes;
  notifications: NotificationStore;
  access: ForumAccess;
  presenter: ForumPresenter;
  clock: Clock;
}

export const notificationPages: FastifyPluginAsync<Deps> = async (app, deps) => {
  deps.pages.fixed(app, notificationsPath(), centrePage(deps));
  deps.pages.fixed(app, notificationSettingsPath(), settingsPage(deps));
  deps.pages.fixed(app, '/notifications/:id/', openPage(deps));
};

function centrePage({ notifications, access, presenter, clock }: Deps): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit): Promise<FastifyReply> {
    const user = assertUser(request);
    const page = requestedPage(visit.query, PER_PAGE);
    if (page === null) throw pageNotFound();
    const unreadOnly = visit.query.get('unread') === '1';
    const { rows, total } = await notifications.list(user.id, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE, unreadOnly });
    const last = lastPage(total, PER_PAGE);
    if (page > last) throw pageNotFound();
    const shown = await shownNotifications(rows, user, { access, presenter });
    const query = (n: number) => ({ ...(unreadOnly ? { unread: 1 } : {}), ...(n === 1 ? {} : { page: n }) });
    const unread = request.unreadNotifications;
    return sendPage(request, reply, {
      title: t('notifications.title'),
      canonical: notificationsPath(query(page)),
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${t('notifications.title')}</h1>
<div class="actions">
${
  unread > 0
    ? html`<form method="post" action="${notificationsPath()}read-all/" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('notifications.read_all')}</button></form>`
    : ''
}
${unreadOnly ? html`<a href="${notificationsPath()}">${t('notifications.show_all')}</a>` : html`<a href="${notificationsPath({ unread: 1 })}">${t('notifications.show_unread')}</a>`}
<a href="${notificationSettingsPath()}">${t('notifications.settings')}</a>
</div>
<p class="muted">${tn('notifications.unread_count', unread)}</p>
${
  shown.length === 0
    ? html`<p>${unreadOnly ? t('notifications.none_unread') : t('notifications.none')}</p>`
    : html`<ol class="notifications">${shown.map((item) => notificationItem(item))}</ol>`
}
${pageNav(page, last, (n) => notificationsPath(query(n)))}`,
    });
  }

  return {
    loginRequired: true,
    serve: (request, reply, visit) => show(request, reply, visit),
    forms: [
      fixedForm({
        name: 'read-all',
        body: NoFields,
        async submit(request, reply) {
          await notifications.markAllRead(assertUser(request).id, isoNow(clock));
          return reply.redirect(notificationsPath(), 303);
        },
        invalid: (request, reply, visit) => show(request, reply, visit),
      }),
    ],
  };
}

/** One line of the centre: who did what where, when; unread ones marked; a link that opens it. */
function notificationItem(item: ShownNotification): SafeHtml {
  const { row } = item;
  const actor = html`<strong>${row.actor_name ?? t('notifications.someone')}</strong>`;
  const topic = item.topicTitle === null ? html`<em>${t('notifications.unavailable')}</em>` : html`<span class="topic">${item.topicTitle}</span>`;
  const subject = html`<span class="topic">${item.messageSubject ?? t('notifications.unavailable')}</span>`;
  const text =
    row.kind === 'message'
      ? tHtml('notifications.text.message', { actor, subject })
      : row.kind === 'moderation'
        ? tHtml(`notifications.text.moderation.${row.action === null ? 'comment_post' : moderationText(row.action)}`, { actor, topic })
        : tHtml(`notifications.text.${row.kind}`, { actor, topic });
  const unread = row.read_at === null;
  return html`<li${unread ? html` class="unread"` : ''}>${unread ? html`<span class="visually-hidden">${t('notifications.unread')}: </span>` : ''}<a href="/notifications/${row.id}/">${text}</a> <span class="muted">${timeHtml(row.created_at)}</span></li>`;
}

type ModerationText = 'approve' | 'reject' | 'hide_post' | 'restore_post' | 'comment_post';

function moderationText(action: string): ModerationText {
  return action === 'approve' || action === 'reject' || action === 'hide_post' || action === 'restore_post' ? action : 'comment_post';
}

function openPage({ notifications, access, presenter, clock }: Deps): FixedPage {
  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      const user = assertUser(request);
      const id = parseId(visit.params['id'] ?? '');
      if (id === null) throw pageNotFound();
      const found = await notifications.one(user.id, id);
      if (found === undefined) throw pageNotFound();
      await notifications.markRead(user.id, [id], isoNow(clock));
      const [shown] = await shownNotifications([found], user, { access, presenter });
      return reply.redirect(shown?.path ?? notificationsPath(), 303);
    },
  };
}

function settingsPage({ notifications }: Deps): FixedPage {
  async function show(request: FastifyRequest, reply: FastifyReply, saved: boolean): Promise<FastifyReply> {
    const user = assertUser(request);
    const settings = await notifications.settingsOf(user.id);
    return sendPage(request, reply, {
      title: t('notifications.settings_title'),
      canonical: notificationSettingsPath(),
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${t('notifications.settings_title')}</h1>
<p><a href="${notificationsPath()}">${t('notifications.back')}</a></p>
${saved ? okNotice(t('notifications.saved')) : ''}
<form method="post" action="${notificationSettingsPath()}" class="stacked">
${csrfInput(request, reply)}
${NOTIFICATION_KINDS.map((kind) => kindFields(kind, settings[kind]))}
<div><button type="submit">${t('notifications.save')}</button></div>
</form>`,
    });
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      if (request.method !== 'POST') return show(request, reply, visit.query.get('saved') === '1');
      const user = assertUser(request);
      const form = submitted(request.body);
      const chosen = Object.fromEntries(
        NOTIFICATION_KINDS.map((kind) => [kind, { site: flag(form, `${kind}_site`), email: flag(form, `${kind}_email`) }]),
      ) as Record<NotificationKind, Delivery>;
      await notifications.setSettings(user.id, chosen);
      return reply.redirect(`${notificationSettingsPath()}?saved=1`, 303);
    },
  };
}

function kindFields(kind: NotificationKind, delivery: Delivery): SafeHtml {
  const box = (way: 'site' | 'email', on: boolean) =>
    html`<div class="check"><input type="checkbox" id="${kind}-${way}" name="${kind}_${way}" value="1"${on ? html` checked` : ''}> <label for="${kind}-${way}">${t(`notifications.way.${way}`)}</label></div>`;
  return html`<fieldset class="field group"><legend>${t(`notifications.kind.${kind}`)}</legend>
<p class="hint">${t(`notifications.kind_hint.${kind}`)}</p>
${box('site', delivery.site)}
${box('email', delivery.email)}
</fieldset>`;
}
