// Uploads for the emoji catalog: POST /api/emoji/images (custom emoji images)
// and POST /api/emoji/sprite-sheets, multipart with one `file` field, for
// admins; and the files themselves at /emojis/custom/<name> and
// /emojis/sprites/<name>, with their real content type and cached forever
// (a name is its content's hash).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { isMultipart, uploadRoute, uploadedFile } from '../../http/multipart.ts';
import { serveUploadedFiles } from '../../uploads/static-files.ts';
import { Type, type Static } from 'typebox';
import { requireRole, ADMINS } from '../../auth/guard.ts';
import { ApiError, ValidationError } from '../../http/errors.ts';
import { DataOf, errorResponses } from '../../http/schemas.ts';
import { fieldName } from '../../i18n/field-names.ts';
import { t } from '../../i18n/messages.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { IMAGE_PATHS, IMAGE_RULES, checkImage, type ImageKind, type ImageStore, type StoredImage } from './store.ts';

export const UploadedImage = Type.Object({
  url: Type.String({ description: 'Where the file is served; use it as image_url' }),
  name: Type.String({ description: 'The stored file name; for a sprite sheet, the value of sprite_params.sheet' }),
  width: Type.Integer({ description: 'Pixels, read from the file' }),
  height: Type.Integer({ description: 'Pixels, read from the file' }),
  type: Type.String({ description: 'MIME type found from the file’s content: image/png, image/gif, image/webp or image/jpeg' }),
  size: Type.Integer({ description: 'Bytes' }),
});

export function uploadedImageResource(image: StoredImage): Static<typeof UploadedImage> {
  return { url: image.url, name: image.name, width: image.width, height: image.height, type: image.mime, size: image.size };
}

/** The upload config of a route taking an image of this kind. */
export function imageUpload(kind: ImageKind) {
  return uploadRoute(IMAGE_RULES[kind].maxBytes);
}

/** Checks and stores an uploaded file; a bad file is a 422 on `field`. */
export async function storeUpload(images: ImageStore, kind: ImageKind, bytes: Buffer | undefined, field = 'file'): Promise<StoredImage> {
  if (bytes === undefined) throw ValidationError.field(field, t('validation.required', { field: fieldName(field) }));
  const checked = checkImage(bytes, kind);
  if (!checked.ok) throw ValidationError.field(field, checked.message);
  return images.save(kind, bytes, checked.image);
}

const FileBody = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary' } },
} as const;

const DESCRIPTIONS: Record<ImageKind, string> = {
  custom: `PNG, GIF, WebP or JPEG, at most ${formatBytes(IMAGE_RULES.custom.maxBytes)} and ${IMAGE_RULES.custom.maxWidth}×${IMAGE_RULES.custom.maxHeight} pixels, checked by content (SVG is refused). Served at ${IMAGE_PATHS.custom}<name>.`,
  sprites: `PNG, GIF or WebP, at most ${formatBytes(IMAGE_RULES.sprites.maxBytes)} and ${IMAGE_RULES.sprites.maxWidth}×${IMAGE_RULES.sprites.maxHeight} pixels, checked by content. Served at ${IMAGE_PATHS.sprites}<name>; use the name as sprite_params.sheet.`,
};

export const imageUploadRoutes: FastifyPluginAsyncTypebox<{ images: ImageStore }> = async (app, { images }) => {
  const upload = (path: string, kind: ImageKind, summary: string) =>
    app.post(
      path,
      {
        // Before anything reads or judges the body (http/multipart.ts).
        onRequest: requireRole(ADMINS),
        config: imageUpload(kind),
        // The body is a file, checked by its content in the handler; the schema documents it.
        validatorCompiler: () => () => true,
        schema: {
          tags: ['emoji'],
          summary,
          description: DESCRIPTIONS[kind],
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          body: FileBody,
          response: { 201: DataOf(UploadedImage), ...errorResponses(400, 401, 403, 413, 422) },
        },
      },
      async (request, reply) => {
        if (!isMultipart(request)) throw new ApiError('BAD_REQUEST', 'Send the image as multipart/form-data with a "file" field.');
        const stored = await storeUpload(images, kind, uploadedFile(request));
        return reply.code(201).send({ data: uploadedImageResource(stored) });
      },
    );

  upload('/emoji/images', 'custom', 'Upload a custom emoji image');
  upload('/emoji/sprite-sheets', 'sprites', 'Upload a sprite sheet');
};

export const imageFileRoutes: FastifyPluginAsync<{ images: ImageStore }> = async (app, { images }) => {
  for (const kind of ['custom', 'sprites'] as const) await serveUploadedFiles(app, images.folder(kind), IMAGE_PATHS[kind]);
};
