// `/members/`: the member list (docs/members.md): a GET form (a search is a
// link one can share), a table of members with join date and post count, and
// pages. The same query fields and checks as GET /api/members.
import { Type } from 'typebox';
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { checkForm } from '../../http/validation.ts';
import { membersPath, profilePath } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { MemberQueryFields, memberListing } from '../../users/member-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { USERNAME_MAX } from '../../users/fields.ts';
import { formNotice } from '../../web/form.ts';
import { avatarImg } from '../../web/avatar.ts';
import { avatarUrl } from '../../users/avatars/avatars.ts';
import { pageFormState, selectField, textInput, type FormState } from '../../web/form-controls.ts';
import { dateHtml } from '../../web/format.ts';
import { number, t, tn } from '../../i18n/messages.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { sendPage } from '../../web/page.ts';
import type { ForumPageDeps } from './deps.ts';

export const MEMBERS_PER_PAGE = PER_PAGE_DEFAULT;

const MembersForm = Type.Object(MemberQueryFields);

export function membersPage({ users }: ForumPageDeps): FixedPage {
  return {
    async serve(request, reply, visit) {
      const page = requestedPage(visit.query);
      if (page === null) throw pageNotFound();
      const values = Object.fromEntries([...visit.query].filter(([name, value]) => value !== '' && name !== 'page'));
      const checked = checkForm(MembersForm, values);
      const form = pageFormState(values, checked.ok ? {} : checked.errors);
      const { rows, total } = checked.ok
        ? await users.members(memberListing(checked.value), pageRequest({ page, per_page: MEMBERS_PER_PAGE }).offset, MEMBERS_PER_PAGE)
        : { rows: [], total: 0 };
      const last = lastPage(total, MEMBERS_PER_PAGE);
      if (page > last) throw pageNotFound();
      const href = (n: number): string => membersPath({ ...values, ...(n === 1 ? {} : { page: n }) });
      return sendPage(request, reply, {
        title: page === 1 ? t('members.title') : t('members.title_page', { page }),
        canonical: href(page),
        status: checked.ok ? 200 : 422,
        body: html`<h1>${t('members.title')}</h1>
${checked.ok ? '' : formNotice(t('members.invalid'), checked.errors, Object.keys(MemberQueryFields))}
${membersForm(form)}
${checked.ok ? html`<p class="muted" role="status">${tn('members.count', total)}</p>` : ''}
${rows.length === 0 ? (checked.ok ? html`<p>${t('members.none')}</p>` : '') : memberTable(rows)}
${pageNav(page, last, href, t('members.pages'))}`,
      });
    },
  };
}

function membersForm(form: FormState): SafeHtml {
  return html`<form method="get" action="${membersPath()}" class="search-form" role="search" aria-label="${t('members.find')}">
${textInput(form, { name: 'search', label: t('members.name_contains'), type: 'search', maxlength: USERNAME_MAX })}
${selectField(form, {
  name: 'sort',
  label: t('members.sort'),
  options: [
    { value: 'joined', label: t('members.sort.joined') },
    { value: 'name', label: t('members.sort.name') },
    { value: 'posts', label: t('members.sort.posts') },
  ],
})}
${selectField(form, {
  name: 'order',
  label: t('members.order'),
  blank: t('members.order.default'),
  options: [
    { value: 'asc', label: t('members.order.asc') },
    { value: 'desc', label: t('members.order.desc') },
  ],
})}
<div class="actions"><button type="submit">${t('members.show')}</button></div>
</form>`;
}

function memberTable(rows: readonly UserRow[]): SafeHtml {
  return html`<div class="table-wrap"><table class="members cards">
<caption class="visually-hidden">${t('members.title')}</caption>
<thead><tr><th scope="col">${t('members.member')}</th><th scope="col">${t('members.joined')}</th><th scope="col" class="num">${t('members.posts')}</th></tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr>
<td>${avatarImg(avatarUrl(row), 24)}<a href="${profilePath({ id: row.id, name: row.username })}">${row.username}</a>${row.status === 'banned' ? html` <span class="badge">${t('members.banned')}</span>` : ''}</td>
<td class="compact" data-label="${t('members.joined')}">${dateHtml(row.created_at)}</td>
<td class="num" data-label="${t('members.posts')}">${number(row.post_count)}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}
