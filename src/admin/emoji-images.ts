// /admin/emoji-images/: upload custom emoji images and sprite sheets (the
// same checks as POST /api/emoji/images and /api/emoji/sprite-sheets) and see
// what is stored, with the URL or sheet name to use in an emoji.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { imageUpload, storeUpload } from '../emoji/images/routes.ts';
import { uploadedFile } from '../http/multipart.ts';
import { IMAGE_PATHS, IMAGE_RULES, type ImageFile, type ImageKind, type ImageStore } from '../emoji/images/store.ts';
import type { EmojiRow } from '../emoji/resource.ts';
import type { EmojiServices } from '../emoji/services.ts';
import { ResourceNotFoundError, type FieldErrors } from '../http/errors.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { htmxConfirm, isConfirmed, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, fieldId, formState, type FormState } from '../web/form-controls.ts';
import { submitted, validationErrors } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t, tn, type CountKey, type TextKey } from '../i18n/messages.ts';
import { formatBytes } from '../i18n/sizes.ts';
import { sendAdminPage } from './layout.ts';
import { timestamp } from './lists.ts';

const BASE = '/admin/emoji-images/';

/** Each kind of file: what the page calls it and says of it (catalog keys), and what the file input accepts. */
const KINDS: Record<ImageKind, { title: TextKey; accept: string; hint: TextKey; use: CountKey; upload: TextKey; column: TextKey; alt: TextKey }> = {
  custom: {
    title: 'admin.images.custom',
    accept: 'image/png,image/gif,image/webp,image/jpeg',
    hint: 'admin.images.custom_hint',
    use: 'admin.images.custom_use',
    upload: 'admin.images.upload_custom',
    column: 'admin.images.url',
    alt: 'admin.images.image',
  },
  sprites: {
    title: 'admin.images.sprites',
    accept: 'image/png,image/gif,image/webp',
    hint: 'admin.images.sprites_hint',
    use: 'admin.images.sprites_use',
    upload: 'admin.images.upload_sprites',
    column: 'admin.images.sheet_name',
    alt: 'admin.images.sheet',
  },
};

/** The size limits a kind's hint names. */
function limits(kind: ImageKind): Record<string, string> {
  const rules = IMAGE_RULES[kind];
  return { size: formatBytes(rules.maxBytes), width: String(rules.maxWidth), height: String(rules.maxHeight) };
}

const FileParams = Type.Object({
  kind: Type.Union([Type.Literal('custom'), Type.Literal('sprites')]),
  name: Type.String({ pattern: '^[\\w-][\\w.-]{0,254}$' }),
});

export const emojiImagePages: FastifyPluginAsyncTypebox<{ images: ImageStore; emoji: EmojiServices }> = async (app, { images, emoji }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => imagesPage(request, reply, images, await usage(emoji), {}));

  // A file an emoji uses stays: deleting it would break that emoji everywhere it is shown.
  app.post(`${BASE}:kind/:name/delete/`, { preValidation: admin, schema: { params: FileParams } }, async (request, reply) => {
    const { kind, name } = request.params;
    const users = (await usage(emoji))[kind].get(name) ?? [];
    if (users.length > 0) {
      return redirectWithNotice(
        request,
        reply,
        `${BASE}#${kind}`,
        tn('admin.images.in_use', users.length, { name, emojis: users.map((row) => row.emoji_shortcode).join(', ') }),
        'error',
      );
    }
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'emoji-images',
        title: t(kind === 'custom' ? 'admin.images.delete_image_title' : 'admin.images.delete_sheet_title', { name }),
        question: t(kind === 'custom' ? 'admin.images.delete_image_question' : 'admin.images.delete_sheet_question', { name }),
        details: html`<p><img class="thumb" src="${IMAGE_PATHS[kind]}${name}" alt="${name}"></p>`,
        action: `${BASE}${kind}/${name}/delete/`,
        confirmLabel: t('admin.images.delete_file'),
        cancelHref: `${BASE}#${kind}`,
      });
    }
    if (!(await images.delete(kind, name))) throw new ResourceNotFoundError(t('admin.images.no_file'));
    return redirectWithNotice(request, reply, `${BASE}#${kind}`, t('admin.images.deleted', { name }));
  });

  for (const kind of ['custom', 'sprites'] as const) {
    app.post(`${BASE}${kind}/`, { onRequest: admin, config: imageUpload(kind) }, async (request, reply) => {
      try {
        const stored = await storeUpload(images, kind, uploadedFile(request));
        const facts = { width: String(stored.width), height: String(stored.height), size: formatBytes(stored.size) };
        const message =
          kind === 'custom'
            ? t('admin.images.uploaded_image', { url: stored.url, ...facts })
            : t('admin.images.uploaded_sheet', { name: stored.name, ...facts });
        return redirectWithNotice(request, reply, `${BASE}#${kind}`, message);
      } catch (error) {
        return imagesPage(request, reply, images, await usage(emoji), { [kind]: validationErrors(error) }, 422);
      }
    });
  }
};

type Usage = Record<ImageKind, Map<string, EmojiRow[]>>;

/** Which emojis use which file: custom images by URL, sprite sheets by name. */
async function usage(emoji: EmojiServices): Promise<Usage> {
  const { rows } = await emoji.emojis.list({}, { offset: 0, limit: Number.MAX_SAFE_INTEGER }, { category: false, aliases: false });
  const result: Usage = { custom: new Map(), sprites: new Map() };
  const add = (map: Map<string, EmojiRow[]>, key: string, row: EmojiRow) => map.set(key, [...(map.get(key) ?? []), row]);
  for (const { row } of rows) {
    if (row.image_url?.startsWith(IMAGE_PATHS.custom)) add(result.custom, decodeURIComponent(row.image_url.slice(IMAGE_PATHS.custom.length)), row);
    if (row.sprite_sheet !== null) add(result.sprites, row.sprite_sheet, row);
  }
  return result;
}

async function imagesPage(
  request: FastifyRequest,
  reply: FastifyReply,
  images: ImageStore,
  used: Usage,
  errors: Partial<Record<ImageKind, FieldErrors>>,
  status = 200,
): Promise<FastifyReply> {
  const [custom, sprites] = await Promise.all([images.list('custom'), images.list('sprites')]);
  return sendAdminPage(request, reply, {
    title: t('admin.emoji_images.title'),
    section: 'emoji-images',
    status,
    body: html`<h1>${t('admin.emoji_images.title')}</h1>
<p class="muted">${t('admin.images.intro')}</p>
${kindSection(request, reply, 'custom', custom, used.custom, formState('upload-custom', {}, errors.custom ?? {}))}
${kindSection(request, reply, 'sprites', sprites, used.sprites, formState('upload-sprites', {}, errors.sprites ?? {}))}`,
  });
}

function kindSection(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ImageKind,
  files: ImageFile[],
  used: Map<string, EmojiRow[]>,
  form: FormState,
): SafeHtml {
  const info = KINDS[kind];
  const id = fieldId(form, 'file');
  const messages = form.errors['file'] ?? [];
  return html`<section id="${kind}" aria-labelledby="${kind}-title">
<h2 id="${kind}-title">${t(info.title)}</h2>
${errorSummary(form)}
<form method="post" action="${BASE}${kind}/" enctype="multipart/form-data" class="stacked">
  ${csrfInput(request, reply)}
  <div class="field">
    <label for="${id}">${t(info.upload)}</label>
    <p class="hint" id="${id}-hint">${t(info.hint, limits(kind))}</p>
    <input id="${id}" name="file" type="file" accept="${info.accept}" required data-preview="${id}-preview" aria-describedby="${id}-hint${messages.length > 0 ? html` ${id}-error` : ''}"${messages.length > 0 ? html` aria-invalid="true"` : ''}>
    ${messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : ''}
  </div>
  <div class="preview" id="${id}-preview" aria-live="polite"><span class="muted">${t('admin.images.preview_here')}</span></div>
  <div><button type="submit">${t('admin.images.upload')}</button></div>
</form>
<p class="muted">${files.length === 0 ? t('admin.images.nothing') : tn(info.use, files.length)}</p>
${
  files.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t(info.title)}</caption>
  <thead><tr><th scope="col">${t('admin.emojis.preview')}</th><th scope="col">${t(info.column)}</th><th scope="col" class="num">${t('admin.images.size')}</th><th scope="col">${t('admin.images.uploaded')}</th><th scope="col">${t('admin.images.used_by')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${files.map(
    (file) => html`<tr id="${kind}-${file.name.replace(/\W/g, '-')}">
    <td><img class="thumb" src="${file.url}" alt="${t(info.alt, { name: file.name })}" loading="lazy"></td>
    <td><code>${kind === 'custom' ? file.url : file.name}</code></td>
    <td class="num">${formatBytes(file.size)}</td>
    <td>${timestamp(file.modifiedAt)}</td>
    <td>${
      (used.get(file.name) ?? []).length === 0
        ? html`<span class="muted">${t('admin.images.unused')}</span>`
        : (used.get(file.name) ?? []).map((row, i) => html`${i > 0 ? ', ' : ''}<a href="/admin/emojis/${row.id}/">${row.emoji_shortcode}</a>`)
    }</td>
    <td class="actions">
      <a href="/admin/emojis/new/?${kind === 'custom' ? `kind=image&image_url=${encodeURIComponent(file.url)}` : `kind=sprite&sprite_params.sheet=${encodeURIComponent(file.name)}`}">${t('admin.emojis.new')}<span class="visually-hidden">${t('admin.images.with', { name: file.name })}</span></a>
      ${
        (used.get(file.name) ?? []).length > 0
          ? ''
          : html`<form method="post" action="${BASE}${kind}/${file.name}/delete/" class="inline" hx-post="${BASE}${kind}/${file.name}/delete/" hx-target="closest tr" hx-swap="outerHTML" hx-select="#${kind}-${file.name.replace(/\W/g, '-')}" hx-select-oob="#admin-live"${htmxConfirm(t('admin.delete_question', { name: file.name }))}>
        ${csrfInput(request, reply)}
        <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${file.name}</span></button>
      </form>`
      }
    </td>
  </tr>`,
  )}</tbody>
</table></div>`
}
</section>`;
}
