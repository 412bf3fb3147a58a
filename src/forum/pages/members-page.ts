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
import { counted, dateHtml, thousands } from '../../web/format.ts';
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
        title: page === 1 ? 'Members' : `Members (page ${page})`,
        canonical: href(page),
        status: checked.ok ? 200 : 422,
        body: html`<h1>Members</h1>
${checked.ok ? '' : formNotice('The list cannot be shown so:', checked.errors, Object.keys(MemberQueryFields))}
${membersForm(form)}
${checked.ok ? html`<p class="muted" role="status">${counted(total, 'member', 'members')}</p>` : ''}
${rows.length === 0 ? (checked.ok ? html`<p>No member’s name contains that.</p>` : '') : memberTable(rows)}
${pageNav(page, last, href, 'Pages of members')}`,
      });
    },
  };
}

function membersForm(form: FormState): SafeHtml {
  return html`<form method="get" action="${membersPath()}" class="search-form" role="search" aria-label="Find members">
${textInput(form, { name: 'search', label: 'Name contains', type: 'search', maxlength: USERNAME_MAX })}
${selectField(form, {
  name: 'sort',
  label: 'Sort by',
  options: [
    { value: 'joined', label: 'Join date' },
    { value: 'name', label: 'Name' },
    { value: 'posts', label: 'Posts' },
  ],
})}
${selectField(form, {
  name: 'order',
  label: 'Order',
  blank: 'Default (A–Z, oldest or most posts first)',
  options: [
    { value: 'asc', label: 'Ascending' },
    { value: 'desc', label: 'Descending' },
  ],
})}
<div class="actions"><button type="submit">Show</button></div>
</form>`;
}

function memberTable(rows: readonly UserRow[]): SafeHtml {
  return html`<div class="table-wrap"><table class="members">
<caption class="visually-hidden">Members</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Joined</th><th scope="col">Posts</th></tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr>
<td>${avatarImg(avatarUrl(row), 24)}<a href="${profilePath({ id: row.id, name: row.username })}">${row.username}</a>${row.status === 'banned' ? html` <span class="badge">banned</span>` : ''}</td>
<td>${dateHtml(row.created_at)}</td>
<td>${thousands(row.post_count)}</td>
</tr>`,
)}
</tbody>
</table></div>`;
}
