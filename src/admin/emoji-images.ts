// /admin/emoji-images/: upload custom emoji images and sprite sheets (the
// same checks as POST /api/emoji/images and /api/emoji/sprite-sheets) and see
// what is stored, with the URL or sheet name to use in an emoji.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { multipartLimit, storeUpload, uploadedFile } from '../emoji/images/routes.ts';
import { IMAGE_RULES, sizeText, type ImageFile, type ImageKind, type ImageStore } from '../emoji/images/store.ts';
import type { FieldErrors } from '../http/errors.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, fieldId, formState, validationErrors, type FormState } from './forms.ts';
import { ADMINS, requirePage } from './guard.ts';
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

export const emojiImagePages: FastifyPluginAsyncTypebox<{ images: ImageStore }> = async (app, { images }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => imagesPage(request, reply, images, {}));

  for (const kind of ['custom', 'sprites'] as const) {
    app.post(`${BASE}${kind}/`, { preValidation: admin, config: multipartLimit(kind) }, async (request, reply) => {
      try {
        const stored = await storeUpload(images, kind, uploadedFile(request));
        const what = kind === 'custom' ? `Image uploaded: ${stored.url}` : `Sprite sheet uploaded: ${stored.name}`;
        return redirectWithNotice(request, reply, `${BASE}#${kind}`, `${what} (${stored.width}×${stored.height}, ${sizeText(stored.size)}).`);
      } catch (error) {
        return imagesPage(request, reply, images, { [kind]: validationErrors(error) }, 422);
      }
    });
  }
};

async function imagesPage(request: FastifyRequest, reply: FastifyReply, images: ImageStore, errors: Partial<Record<ImageKind, FieldErrors>>, status = 200): Promise<FastifyReply> {
  const [custom, sprites] = await Promise.all([images.list('custom'), images.list('sprites')]);
  return sendAdminPage(request, reply, {
    title: 'Emoji images',
    section: 'emoji-images',
    status,
    body: html`<h1>Emoji images</h1>
<p class="muted">Files are checked by their content and stored under a name made from it, so a URL always shows the same picture. Uploading the same file again changes nothing.</p>
${kindSection(request, reply, 'custom', custom, formState('upload-custom', {}, errors.custom ?? {}))}
${kindSection(request, reply, 'sprites', sprites, formState('upload-sprites', {}, errors.sprites ?? {}))}`,
  });
}

function kindSection(request: FastifyRequest, reply: FastifyReply, kind: ImageKind, files: ImageFile[], form: FormState): SafeHtml {
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
${files.length === 0 ? '' : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${info.title}</caption>
  <thead><tr><th scope="col">Preview</th><th scope="col">${kind === 'custom' ? 'URL' : 'Sheet name'}</th><th scope="col" class="num">Size</th><th scope="col">Uploaded</th></tr></thead>
  <tbody>${files.map((file) => html`<tr id="${kind}-${file.name.replace(/\W/g, '-')}">
    <td><img class="thumb" src="${file.url}" alt="${kind === 'custom' ? 'Image' : 'Sprite sheet'} ${file.name}" loading="lazy"></td>
    <td><code>${kind === 'custom' ? file.url : file.name}</code></td>
    <td class="num">${sizeText(file.size)}</td>
    <td>${timestamp(file.modifiedAt)}</td>
  </tr>`)}</tbody>
</table></div>`}
</section>`;
}
