// Pieces the group pages (public and admin) share: a group's type as words,
// its description as paragraphs, and what the reader's membership lets them
// do, as one-button forms posted to the group page's own form addresses.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { t, type TextKey } from '../i18n/messages.ts';
import { groupPath, loginPath } from '../urls/paths.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import type { GroupType } from './fields.ts';
import type { GroupRow, MemberRow } from './repository.ts';

const TYPE_NAMES: Record<GroupType, TextKey> = { open: 'group.type.open', closed: 'group.type.closed', hidden: 'group.type.hidden' };
const TYPE_HELP: Record<GroupType, TextKey> = { open: 'group.type_help.open', closed: 'group.type_help.closed', hidden: 'group.type_help.hidden' };

export function typeName(type: GroupType): string {
  return t(TYPE_NAMES[type]);
}

export function typeHelp(type: GroupType): string {
  return t(TYPE_HELP[type]);
}

/** Plain text as written: paragraphs at blank lines, line breaks kept. */
export function descriptionHtml(text: string): SafeHtml {
  const paragraphs = text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return html`${paragraphs.map((paragraph) => html`<p>${paragraph.split(/\r?\n/).map((line, index) => html`${index === 0 ? '' : html`<br>`}${line}`)}</p>`)}`;
}

/** A one-button form to one of the group page's forms (`join`, `leave`, `accept`…), with the page to come back to. */
export function groupButton(
  request: FastifyRequest,
  reply: FastifyReply,
  group: GroupRow,
  form: string,
  label: string | SafeHtml,
  fields: Record<string, string | number> = {},
  kind: 'secondary' | 'danger' | '' = 'secondary',
): SafeHtml {
  return html`<form method="post" action="${groupPath(group)}${form}/" class="inline">${csrfInput(request, reply)}${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit"${kind === '' ? '' : html` class="${kind}"`}>${label}</button></form>`;
}

/**
 * Where the reader stands with the group and what they may do about it:
 * join or ask to, withdraw a request, leave; guests are asked to log in.
 * `back` is the page the buttons return to (the list), absent on the group page.
 */
export function membershipState(request: FastifyRequest, reply: FastifyReply, group: GroupRow, own: MemberRow | undefined, back?: string): SafeHtml {
  const fields: Record<string, string> = back === undefined ? {} : { back };
  const named = html`<span class="visually-hidden"> ${t('groups.named', { name: group.name })}</span>`;
  if (request.user === null) {
    if (group.type === 'hidden') return html``;
    return html`<a href="${loginPath({ next: back ?? groupPath(group) })}">${t('groups.login_to_join')}</a>`;
  }
  if (own?.status === 'accepted') {
    return html`<span class="badge">${own.role === 'leader' ? t('groups.you_lead') : t('groups.you_member')}</span> ${groupButton(
      request,
      reply,
      group,
      'leave',
      html`${t('groups.leave')}${named}`,
      fields,
    )}`;
  }
  if (own?.status === 'pending') {
    return html`<span class="badge">${t('groups.you_pending')}</span> ${groupButton(request, reply, group, 'leave', html`${t('groups.withdraw')}${named}`, fields)}`;
  }
  if (group.type === 'hidden') return html`<span class="muted">${t('groups.invitation_only')}</span>`;
  return groupButton(request, reply, group, 'join', html`${group.type === 'open' ? t('groups.join') : t('groups.ask')}${named}`, fields, '');
}
