// The groups' pages (docs/access.md, "Groups"): `/groups/`, the groups the
// reader may see with what they may do (join, ask, withdraw, leave), and
// `/group/{slug}.{id}/`, one group: its description, leader, members and,
// for its leaders and admins, the requests to accept or refuse and members
// to remove. Every action is a plain form posted to the group page's own
// address (`…/join/`, `…/leave/`, `…/accept/`, `…/refuse/`, `…/remove/`),
// CSRF-checked, and answered with a redirect (no JavaScript needed). A
// hidden group is a 404 page to anyone but its members and admins.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../auth/guard.ts';
import type { FieldErrors } from '../http/errors.ts';
import { localPath } from '../http/local-path.ts';
import { PER_PAGE_DEFAULT } from '../http/pagination.ts';
import { Id } from '../http/schemas.ts';
import { number, t, tn } from '../i18n/messages.ts';
import { avatarUrl } from '../users/avatars/avatars.ts';
import { groupPath, groupsPath, profilePath, withQuery } from '../urls/paths.ts';
import { entityForm, pageNotFound, type EntityForm, type EntityPage, type FixedPage, type PageRoutes, type PageVisit } from '../urls/semantic-routes.ts';
import { avatarImg } from '../web/avatar.ts';
import { formNotice, okNotice } from '../web/form.ts';
import { dateHtml } from '../web/format.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../web/page-nav.ts';
import { sendPage } from '../web/page.ts';
import { descriptionHtml, groupButton, membershipState, typeHelp, typeName } from './parts.ts';
import type { GroupListed, GroupRow, Groups, MemberRow } from './service.ts';

/** Groups on a page of the list, members on a page of a group. */
export const GROUPS_PER_PAGE = PER_PAGE_DEFAULT;
/** Requests a group page shows at once, oldest first; accepting or refusing them brings the next. */
const REQUESTS_SHOWN = PER_PAGE_DEFAULT;

/** The page a button returns to: the list of groups or a group page, else the group's own page. */
const Back = Type.Optional(Type.String({ maxLength: 2000 }));
const ButtonBody = Type.Object({ back: Back });
const MemberBody = Type.Object({ user_id: Id('User id') });

export const groupPages: FastifyPluginAsync<{ pages: PageRoutes; groups: Groups }> = async (app, { pages, groups }) => {
  pages.fixed(app, groupsPath(), groupListPage(groups));
  pages.entity(app, 'group', groupPage(groups));
};

function groupListPage(groups: Groups): FixedPage {
  return {
    async serve(request, reply, visit) {
      const page = requestedPage(visit.query, GROUPS_PER_PAGE);
      if (page === null) throw pageNotFound();
      const { rows, total } = await groups.list(request.user, { page, perPage: GROUPS_PER_PAGE, offset: (page - 1) * GROUPS_PER_PAGE });
      const last = lastPage(total, GROUPS_PER_PAGE);
      if (page > last) throw pageNotFound();
      const own = await groups.membershipsOf(
        request.user,
        rows.map((row) => row.id),
      );
      const href = (n: number): string => groupsPath(n === 1 ? undefined : { page: n });
      return sendPage(request, reply, {
        title: page === 1 ? t('groups.title') : t('groups.title_page', { page }),
        canonical: href(page),
        body: html`<h1>${t('groups.title')}</h1>
${listNotice(visit, rows, own)}
<p class="muted">${tn('groups.count', total)}</p>
${rows.length === 0 ? html`<p>${t('groups.none')}</p>` : groupTable(request, reply, rows, own, href(page))}
${pageNav(page, last, href, t('groups.pages'))}`,
      });
    },
  };
}

function groupTable(request: FastifyRequest, reply: FastifyReply, rows: readonly GroupListed[], own: ReadonlyMap<number, MemberRow>, back: string): SafeHtml {
  return html`<div class="table-wrap"><table class="groups">
<caption class="visually-hidden">${t('groups.title')}</caption>
<thead><tr><th scope="col">${t('groups.group')}</th><th scope="col">${t('groups.type')}</th><th scope="col">${t('groups.members')}</th><th scope="col">${t('groups.leader')}</th><th scope="col">${t('groups.you')}</th></tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr id="group-${row.id}">
<th scope="row"><a href="${groupPath(row)}">${row.name}</a>${row.description === '' ? '' : html`<br><span class="muted">${firstLine(row.description)}</span>`}</th>
<td>${typeName(row.type)}</td>
<td>${number(row.members_count)}</td>
<td>${row.leader === null ? html`<span class="muted">${t('groups.no_leader')}</span>` : html`<a href="${profilePath(row.leader)}">${row.leader.name}</a>`}</td>
<td>${membershipState(request, reply, row, own.get(row.id), back)}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}

/** The description's first line, shortened, for the list. */
function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return [...line].length > 160 ? `${[...line].slice(0, 159).join('')}…` : line;
}

/** After a button on the list: what happened, when the list still shows it so (a forged link says nothing). */
function listNotice(visit: PageVisit, rows: readonly GroupListed[], own: ReadonlyMap<number, MemberRow>): SafeHtml {
  const done = visit.query.get('done');
  const id = Number(visit.query.get('group'));
  const group = rows.find((row) => row.id === id);
  if (done === 'left' && group === undefined) return okNotice(t('groups.done.left_hidden'));
  return group === undefined ? html`` : ownNotice(done, group, own.get(group.id));
}

/** The reader's own action's outcome, shown only when their membership is now what it says. */
function ownNotice(done: string | null, group: GroupRow, own: MemberRow | undefined): SafeHtml {
  const name = { name: group.name };
  if (done === 'joined' && own?.status === 'accepted') return okNotice(t('groups.done.joined', name));
  if (done === 'requested' && own?.status === 'pending') return okNotice(t('groups.done.requested', name));
  if (done === 'left' && own === undefined) return okNotice(t('groups.done.left', name));
  if (done === 'withdrawn' && own === undefined) return okNotice(t('groups.done.withdrawn', name));
  return html``;
}

interface Shown {
  /** A form's field errors (422), shown above the page. */
  errors?: FieldErrors;
}

function groupPage(groups: Groups): EntityPage<GroupRow> {
  const show = async (request: FastifyRequest, reply: FastifyReply, group: GroupRow, visit: PageVisit, shown: Shown = {}): Promise<FastifyReply> => {
    const page = requestedPage(visit.query, GROUPS_PER_PAGE);
    if (page === null) throw pageNotFound();
    const [listed, members, own, manages] = await Promise.all([
      groups.get(group.id, request.user),
      groups.members(group.id, request.user, 'accepted', { page, perPage: GROUPS_PER_PAGE, offset: (page - 1) * GROUPS_PER_PAGE }),
      groups.membership(group.id, request.user),
      groups.mayManage(group, request.user),
    ]);
    const last = lastPage(members.total, GROUPS_PER_PAGE);
    if (page > last) throw pageNotFound();
    const requests = manages ? await groups.members(group.id, request.user, 'pending', { page: 1, perPage: REQUESTS_SHOWN, offset: 0 }) : null;
    const href = (n: number): string => withQuery(visit.canonicalPath, n === 1 ? undefined : { page: n });
    return sendPage(request, reply, {
      title: page === 1 ? listed.name : t('groups.group_page', { name: listed.name, page }),
      canonical: href(page),
      status: shown.errors === undefined ? 200 : 422,
      body: html`<p><a href="${groupsPath()}">← ${t('groups.title')}</a></p>
<h1>${listed.name}</h1>
<p><span class="badge">${typeName(listed.type)}</span> <span class="muted">${typeHelp(listed.type)}</span></p>
${shown.errors === undefined ? '' : formNotice(t('form.check_fields'), shown.errors)}
${await pageNotice(groups, visit, listed, own, manages)}
${listed.description.trim() === '' ? '' : html`<div class="description">${descriptionHtml(listed.description)}</div>`}
<dl class="facts">
<dt>${t('groups.leader')}</dt><dd>${listed.leader === null ? t('groups.no_leader') : html`<a href="${profilePath(listed.leader)}">${listed.leader.name}</a>`}</dd>
<dt>${t('groups.members')}</dt><dd>${number(listed.members_count)}</dd>
</dl>
<p class="actions">${membershipState(request, reply, listed, own)}</p>
${requests === null ? '' : requestsSection(request, reply, listed, requests)}
<section aria-labelledby="members-heading">
<h2 id="members-heading">${t('groups.members')}</h2>
${members.rows.length === 0 ? html`<p class="muted">${t('groups.no_members')}</p>` : memberTable(request, reply, listed, members.rows, manages)}
${pageNav(page, last, href, t('groups.member_pages'))}
</section>`,
    });
  };

  const invalid = (request: FastifyRequest, reply: FastifyReply, group: GroupRow, visit: PageVisit, errors: FieldErrors) =>
    show(request, reply, group, visit, { errors });

  const forms: Array<EntityForm<GroupRow>> = [
    entityForm<GroupRow, typeof ButtonBody>({
      name: 'join',
      body: ButtonBody,
      async submit(request, reply, group, visit, body) {
        const joined = await groups.join(group.id, assertUser(request));
        return reply.redirect(backTo(body.back, visit, group, joined.status === 'accepted' ? 'joined' : 'requested'), 303);
      },
      invalid,
    }),
    entityForm<GroupRow, typeof ButtonBody>({
      name: 'leave',
      body: ButtonBody,
      async submit(request, reply, group, visit, body) {
        const user = assertUser(request);
        const left = await groups.removeMember(group.id, user, user.id);
        const done = left.status === 'accepted' ? 'left' : 'withdrawn';
        // Out of a hidden group, its page is a 404 to them: back to the list.
        const stillSees = group.type !== 'hidden' || user.role === 'admin';
        return reply.redirect(backTo(stillSees ? body.back : groupsPath(), visit, group, done), 303);
      },
      invalid,
    }),
    memberForm(groups, 'accept', invalid, async (request, group, userId) => {
      await groups.setMember(group.id, assertUser(request), userId, 'member');
    }),
    memberForm(groups, 'refuse', invalid, async (request, group, userId) => {
      await groups.removeMember(group.id, assertUser(request), userId);
    }),
    memberForm(groups, 'remove', invalid, async (request, group, userId) => {
      await groups.removeMember(group.id, assertUser(request), userId);
    }),
  ];

  return {
    load: (id, request) => groups.find(id, request.user),
    path: (group) => groupPath(group),
    serve: (request, reply, group, visit) => show(request, reply, group, visit),
    forms,
  };
}

/** A leader's button about one member or request; back to the group page, saying what was done to whom. */
function memberForm(
  groups: Groups,
  name: 'accept' | 'refuse' | 'remove',
  invalid: EntityForm<GroupRow>['invalid'],
  act: (request: FastifyRequest, group: GroupRow, userId: number) => Promise<void>,
): EntityForm<GroupRow> {
  return entityForm<GroupRow, typeof MemberBody>({
    name,
    body: MemberBody,
    async submit(request, reply, group, visit, body) {
      await act(request, group, body.user_id);
      const done = { accept: 'accepted', refuse: 'refused', remove: 'removed' }[name];
      return reply.redirect(
        withQuery(visit.canonicalPath, { done, user: body.user_id, _fragment: name === 'remove' ? 'members-heading' : 'requests-heading' }),
        303,
      );
    },
    invalid,
  });
}

/** Where a button sends the reader back to (the list or a group page only), saying what they did. */
function backTo(back: string | undefined, visit: PageVisit, group: GroupRow, done: string): string {
  const target = localPath(back, visit.canonicalPath);
  const allowed = target.startsWith(groupsPath()) || target.startsWith('/group/');
  const url = new URL(allowed ? target : visit.canonicalPath, 'http://local.invalid');
  url.searchParams.set('done', done);
  if (url.pathname === groupsPath()) url.searchParams.set('group', String(group.id));
  return url.pathname + url.search;
}

/** What the last action on this page did, when the group still shows it so. */
async function pageNotice(groups: Groups, visit: PageVisit, group: GroupRow, own: MemberRow | undefined, manages: boolean): Promise<SafeHtml> {
  const done = visit.query.get('done');
  const mine = ownNotice(done, group, own);
  if (mine.value !== '' || !manages || (done !== 'accepted' && done !== 'refused' && done !== 'removed')) return mine;
  const userId = Number(visit.query.get('user'));
  if (!Number.isSafeInteger(userId) || userId <= 0) return html``;
  const [person, membership] = await Promise.all([groups.person(userId), groups.membershipOfUser(group.id, userId)]);
  if (person === undefined) return html``;
  const name = { name: person.username };
  if (done === 'accepted' && membership?.status === 'accepted') return okNotice(t('groups.done.accepted', name));
  if (done === 'refused' && membership === undefined) return okNotice(t('groups.done.refused', name));
  if (done === 'removed' && membership === undefined) return okNotice(t('groups.done.removed', name));
  return html``;
}

function requestsSection(request: FastifyRequest, reply: FastifyReply, group: GroupRow, requests: { rows: MemberRow[]; total: number }): SafeHtml {
  return html`<section aria-labelledby="requests-heading" class="moderation">
<h2 id="requests-heading">${t('groups.requests')}</h2>
<p class="muted">${tn('groups.requests_count', requests.total)}</p>
${
  requests.rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="requests">
<caption class="visually-hidden">${t('groups.requests')}</caption>
<thead><tr><th scope="col">${t('groups.member')}</th><th scope="col">${t('groups.asked')}</th><th scope="col"><span class="visually-hidden">${t('groups.actions')}</span></th></tr></thead>
<tbody>
${requests.rows.map(
  (row) => html`<tr id="request-${row.user_id}">
<td>${personLink(row)}</td>
<td>${dateHtml(row.created_at)}</td>
<td>${groupButton(request, reply, group, 'accept', html`${t('groups.accept')}<span class="visually-hidden"> ${row.username}</span>`, { user_id: row.user_id }, '')} ${groupButton(
    request,
    reply,
    group,
    'refuse',
    html`${t('groups.refuse')}<span class="visually-hidden"> ${row.username}</span>`,
    { user_id: row.user_id },
    'danger',
  )}</td>
</tr>`,
)}
</tbody>
</table></div>`
}
${requests.total > requests.rows.length ? html`<p class="muted">${tn('groups.requests_more', requests.total - requests.rows.length)}</p>` : ''}
</section>`;
}

function memberTable(request: FastifyRequest, reply: FastifyReply, group: GroupRow, rows: readonly MemberRow[], manages: boolean): SafeHtml {
  const admin = request.user?.role === 'admin';
  return html`<div class="table-wrap"><table class="members">
<caption class="visually-hidden">${t('groups.members')}</caption>
<thead><tr><th scope="col">${t('groups.member')}</th><th scope="col">${t('groups.role')}</th><th scope="col">${t('groups.joined')}</th>${
    manages ? html`<th scope="col"><span class="visually-hidden">${t('groups.actions')}</span></th>` : ''
  }</tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr id="member-${row.user_id}">
<td>${personLink(row)}</td>
<td>${row.role === 'leader' ? html`<span class="badge">${t('groups.role.leader')}</span>` : t('groups.role.member')}</td>
<td>${dateHtml(row.created_at)}</td>
${
  manages
    ? html`<td>${
        // Leaders remove members; a leader's membership is the admins' (docs/access.md).
        row.user_id !== request.user?.id && (admin || row.role !== 'leader')
          ? groupButton(
              request,
              reply,
              group,
              'remove',
              html`${t('groups.remove')}<span class="visually-hidden"> ${row.username}</span>`,
              { user_id: row.user_id },
              'danger',
            )
          : ''
      }</td>`
    : ''
}
</tr>`,
)}
</tbody>
</table></div>`;
}

function personLink(row: MemberRow): SafeHtml {
  return html`${avatarImg(avatarUrl(row), 24)}<a href="${profilePath({ id: row.user_id, name: row.username })}">${row.username}</a>`;
}
