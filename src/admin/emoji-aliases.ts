// An emoji's aliases on its edit page (the routes are in emojis.ts): added
// and removed inline (htmx swaps the section), or with plain form posts. The
// alias rules (format, unique across aliases and shortcodes) are
// AliasService's, checked with the API's body schema first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { CreateAliasBody } from '../emoji/alias-routes.ts';
import type { AliasRow, EmojiRow } from '../emoji/resource.ts';
import type { EmojiServices } from '../emoji/services.ts';
import { ModelNotFoundError } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { formState, textInput, type FormState } from '../web/form-controls.ts';
import { validationErrors } from '../web/form.ts';
import { t } from '../i18n/messages.ts';

const BASE = '/admin/emojis/';

export const AliasParams = Type.Object({ id: IdParams.properties.id, aliasId: IdParams.properties.id });

export type AliasOutcome = { ok: true; alias: AliasRow } | { ok: false; form: FormState };

/** Adds an alias to an emoji: the API's schema, then AliasService's rules. */
export async function addAlias(emoji: EmojiServices, row: EmojiRow, alias: string): Promise<AliasOutcome> {
  const checked = checkForm(CreateAliasBody, { emoji_id: row.id, alias });
  if (!checked.ok) return { ok: false, form: formState('alias', { alias }, checked.errors) };
  try {
    return { ok: true, alias: await emoji.aliases.create(checked.value) };
  } catch (error) {
    return { ok: false, form: formState('alias', { alias }, validationErrors(error)) };
  }
}

/** Removes one of this emoji's aliases (404 for an alias of another emoji). */
export async function removeAlias(emoji: EmojiServices, row: EmojiRow, aliasId: number): Promise<AliasRow> {
  const alias = await emoji.aliases.find(aliasId);
  if (alias.emoji_id !== row.id) throw new ModelNotFoundError('EmojiAlias', aliasId);
  await emoji.aliases.delete(alias.id);
  return alias;
}

export function aliasesSection(request: FastifyRequest, reply: FastifyReply, row: EmojiRow, aliases: readonly AliasRow[], form: FormState): SafeHtml {
  const action = `${BASE}${row.id}/aliases/`;
  const swap = html` hx-target="#aliases" hx-swap="outerHTML"`;
  return html`<section id="aliases" aria-labelledby="aliases-title">
  <h2 id="aliases-title">${t('admin.aliases.title')}</h2>
  <p class="muted">${t('admin.aliases.intro', { code: row.emoji_shortcode })}</p>
  ${
    aliases.length === 0
      ? html`<p id="alias-list">${t('admin.aliases.none')}</p>`
      : html`<ul id="alias-list" class="aliases">${aliases.map(
          (alias) => html`<li id="alias-${alias.id}"><code>${alias.alias}</code>
      <form method="post" action="${action}${alias.id}/delete/" class="inline" hx-post="${action}${alias.id}/delete/"${swap}>
        ${csrfInput(request, reply)}
        <button type="submit" class="small secondary">${t('admin.aliases.remove')}<span class="visually-hidden">${t('admin.aliases.named', { alias: alias.alias })}</span></button>
      </form></li>`,
        )}</ul>`
  }
  <form method="post" action="${action}" class="inline-edit" hx-post="${action}"${swap}>
    ${csrfInput(request, reply)}
    ${textInput(form, { name: 'alias', label: t('admin.aliases.new'), maxlength: 255, hint: t('admin.aliases.hint') })}
    <button type="submit" class="small">${t('admin.aliases.add')}</button>
  </form>
</section>`;
}
