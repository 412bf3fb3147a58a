// /admin/emoji-images/: upload custom emoji images and sprite sheets (the
// same checks as POST /api/emoji/images and /api/emoji/sprite-sheets) and see
// what is stored, with the URL or sheet name to use in an emoji.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { multipartLimit, storeUpload } from '../emoji/images/routes.ts';
import { uploadedFile } from '../http/multipart.ts';
import { IMAGE_PATHS, IMAGE_RULES, sizeText, type ImageFile, type ImageKind, type ImageStore } from '../emoji/images/store.ts';
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
import { sendAdminPage } from './layout.ts';
import { timestamp } from './lists.ts';

const BASE = '/admin/emoji-images/';

const KINDS: Record<ImageKind, { title: string; accept: string; hint: string; use: string }> = {
  custom: {
    title: 'Custom emoji images',
    accept: 'image/png,image/gif,image/webp,image/jpeg',
    hint: `PNG, GIF, WebP or JPEG; at most ${sizeText(IMAGE_RULES.custom.maxBytes)} and ${IMAGE_RULES.custom.maxWidth}×${IMAGE_RULES.custom.maxHeight} pixels. SVG is not accepted.`,
    use: 'Use the URL as the image URL of an emoji.',
  },
  sprites: {
    title: 'Sprite sheets',
    accept: 'image/png,image/gif,image/webp',
    hint: `PNG, GIF or WebP; at most ${sizeText(IMAGE_RULES.sprites.maxBytes)} and ${IMAGE_RULES.sprites.maxWidth}×${IMAGE_RULES.sprites.maxHeight} pixels.`,
    use: 'Use the name as the sheet of a sprite emoji.',
  },
};

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
        `${name} is used by ${users.map((row) => row.emoji_shortcode).join(', ')}; change ${users.length === 1 ? 'that emoji' : 'those emojis'} first.`,
        'error',
      );
    }
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'emoji-images',
        title: `Delete ${kind === 'custom' ? 'image' : 'sprite sheet'} ${name}`,
        question: `Delete the ${kind === 'custom' ? 'image' : 'sprite sheet'} ${name}? No emoji uses it.`,
        details: html`<p><img class="thumb" src="${IMAGE_PATHS[kind]}${name}" alt="${name}"></p>`,
        action: `${BASE}${kind}/${name}/delete/`,
        confirmLabel: 'Delete file',
        cancelHref: `${BASE}#${kind}`,
      });
    }
    if (!(await images.delete(kind, name))) throw new ResourceNotFoundError('No such file.');
    return redirectWithNotice(request, reply, `${BASE}#${kind}`, `${name} deleted.`);
  });

  for (const kind of ['custom', 'sprites'] as const) {
    app.post(`${BASE}${kind}/`, { preValidation: admin, config: multipartLimit(kind) }, async (request, reply) => {
      try {
        const stored = await storeUpload(images, kind, uploadedFile(request));
        const what = kind === 'custom' ? `Image uploaded: ${stored.url}` : `Sprite sheet uploaded: ${stored.name}`;
        return redirectWithNotice(request, reply, `${BASE}#${kind}`, `${what} (${stored.width}×${stored.height}, ${sizeText(stored.size)}).`);
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
    title: 'Emoji images',
    section: 'emoji-images',
    status,
    body: html`<h1>Emoji images</h1>
<p class="muted">Files are checked by their content and stored under a name made from it, so a URL always shows the same picture. Uploading the same file again changes nothing.</p>
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
<h2 id="${kind}-title">${info.title}</h2>
${errorSummary(form)}
<form method="post" action="${BASE}${kind}/" enctype="multipart/form-data" class="stacked">
  ${csrfInput(request, reply)}
  <div class="field">
    <label for="${id}">Upload ${kind === 'custom' ? 'an image' : 'a sprite sheet'}</label>
    <p class="hint" id="${id}-hint">${info.hint}</p>
    <input id="${id}" name="file" type="file" accept="${info.accept}" required data-preview="${id}-preview" aria-describedby="${id}-hint${messages.length > 0 ? html` ${id}-error` : ''}"${messages.length > 0 ? html` aria-invalid="true"` : ''}>
    ${messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : ''}
  </div>
  <div class="preview" id="${id}-preview" aria-live="polite"><span class="muted">The chosen file is previewed here.</span></div>
  <div><button type="submit">Upload</button></div>
</form>
<p class="muted">${files.length === 0 ? 'Nothing uploaded yet.' : `${files.length} stored. ${info.use}`}</p>
${
  files.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${info.title}</caption>
  <thead><tr><th scope="col">Preview</th><th scope="col">${kind === 'custom' ? 'URL' : 'Sheet name'}</th><th scope="col" class="num">Size</th><th scope="col">Uploaded</th><th scope="col">Used by</th><th scope="col">Actions</th></tr></thead>
  <tbody>${files.map(
    (file) => html`<tr id="${kind}-${file.name.replace(/\W/g, '-')}">
    <td><img class="thumb" src="${file.url}" alt="${kind === 'custom' ? 'Image' : 'Sprite sheet'} ${file.name}" loading="lazy"></td>
    <td><code>${kind === 'custom' ? file.url : file.name}</code></td>
    <td class="num">${sizeText(file.size)}</td>
    <td>${timestamp(file.modifiedAt)}</td>
    <td>${
      (used.get(file.name) ?? []).length === 0
        ? html`<span class="muted">No emoji</span>`
        : (used.get(file.name) ?? []).map((row, i) => html`${i > 0 ? ', ' : ''}<a href="/admin/emojis/${row.id}/">${row.emoji_shortcode}</a>`)
    }</td>
    <td class="actions">
      <a href="/admin/emojis/new/?${kind === 'custom' ? `kind=image&image_url=${encodeURIComponent(file.url)}` : `kind=sprite&sprite_params.sheet=${encodeURIComponent(file.name)}`}">New emoji<span class="visually-hidden"> with ${file.name}</span></a>
      ${
        (used.get(file.name) ?? []).length > 0
          ? ''
          : html`<form method="post" action="${BASE}${kind}/${file.name}/delete/" class="inline" hx-post="${BASE}${kind}/${file.name}/delete/" hx-target="closest tr" hx-swap="outerHTML" hx-select="#${kind}-${file.name.replace(/\W/g, '-')}" hx-select-oob="#admin-live"${htmxConfirm(`Delete ${file.name}?`)}>
        ${csrfInput(request, reply)}
        <button type="submit" class="small danger">Delete<span class="visually-hidden"> ${file.name}</span></button>
      </form>`
      }
    </td>
  </tr>`,
  )}</tbody>
</table></div>`
}
</section>`;
}
