// POST /api/users/{id}/avatar (multipart, one `file` field: the member's own)
// and DELETE /api/users/{id}/avatar (the member, a moderator or an admin),
// both answering the user; and the files at /avatars/<name>, cached forever
// (a name is its content's hash).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { assertUser, requireUser } from '../../auth/guard.ts';
import { ApiError } from '../../http/errors.ts';
import { serveUploadedFiles } from '../../uploads/static-files.ts';
import { isMultipart, uploadRoute, uploadedFile } from '../../http/multipart.ts';
import { DataOf, IdParams, errorResponses } from '../../http/schemas.ts';
import { validatorCompiler } from '../../http/validation.ts';
import { UserResource, userResource } from '../resource.ts';
import { AVATAR_RULES, AVATAR_SIZE } from './avatar-image.ts';
import { AVATAR_PATH, type Avatars } from './avatars.ts';
import { formatBytes } from '../../i18n/sizes.ts';

const security = [{ bearer: [] }];

const FileBody = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary' } },
} as const;

export const avatarRoutes: FastifyPluginAsyncTypebox<{ avatars: Avatars }> = async (app, { avatars }) => {
  app.post(
    '/users/:id/avatar',
    {
      // Before anything reads or judges the body (http/multipart.ts): signed in, and their own account (the id is still the path's text here).
      onRequest: [requireUser(), async (request) => avatars.assertMayChoose(request.params.id, assertUser(request))],
      config: uploadRoute(AVATAR_RULES.maxBytes),
      // The body is a file, checked by its content in the handler; the schema documents it.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      schema: {
        tags: ['users'],
        summary: 'Set your avatar',
        description: `PNG, JPEG, GIF or WebP, at most ${formatBytes(AVATAR_RULES.maxBytes)} and ${AVATAR_RULES.maxWidth}×${AVATAR_RULES.maxHeight} pixels, checked by content (SVG is refused). Stored as a ${AVATAR_SIZE}×${AVATAR_SIZE} WebP cut from the middle, without metadata; served at ${AVATAR_PATH}<name>.`,
        security,
        consumes: ['multipart/form-data'],
        params: IdParams,
        body: FileBody,
        response: { 200: DataOf(UserResource), ...errorResponses(400, 401, 403, 404, 413, 422) },
      },
    },
    async (request) => {
      if (!isMultipart(request)) throw new ApiError('BAD_REQUEST', 'Send the image as multipart/form-data with a "file" field.');
      const user = await avatars.upload(request.params.id, uploadedFile(request), assertUser(request));
      return { data: userResource(user, request.user) };
    },
  );

  app.delete(
    '/users/:id/avatar',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['users'],
        summary: 'Remove an avatar (your own; moderators and admins: anyone’s)',
        security,
        params: IdParams,
        response: { 200: DataOf(UserResource), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: userResource(await avatars.remove(request.params.id, assertUser(request)), request.user) }),
  );
};

export const avatarFileRoutes: FastifyPluginAsync<{ avatars: Avatars }> = async (app, { avatars }) => {
  await serveUploadedFiles(app, avatars.folder, AVATAR_PATH);
};
