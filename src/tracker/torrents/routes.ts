// JSON API of the torrent registry (tracker.md "Pages and API"): lists and
// reads for anyone, upload for members (their own topics; moderators any),
// status and freeleech for moderators, removal, and the personal .torrent.
import { releaseFiltersIn } from '../../forum/release-templates.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { assertUser, requireRole, requireUser, STAFF } from '../../auth/guard.ts';
import { isMultipart, uploadRoute, uploadedFile } from '../../http/multipart.ts';
import { ApiError, FieldErrorBag } from '../../http/errors.ts';
import { CollectionOf, PageQueryProperties, collection, origin, pageRequest } from '../../http/pagination.ts';
import { DataOf, IdParams, errorResponses } from '../../http/schemas.ts';
import { formatBytes } from '../../i18n/sizes.ts';
import { FreeleechSchema, TorrentResource, TorrentStatusSchema, torrentResource } from './resource.ts';
import type { TorrentSort, TorrentsService } from './service.ts';

const SORTS = ['registered', 'size', 'seeders', 'leechers', 'completed', 'name'] as const satisfies readonly TorrentSort[];

export const TorrentListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: "Words that must all appear in the torrent's name" })),
  forum: Type.Optional(Type.Integer({ minimum: 1, description: 'Forum id' })),
  status: Type.Optional(TorrentStatusSchema),
  uploader: Type.Optional(Type.Integer({ minimum: 1, description: "Uploader's user id" })),
  min_seeders: Type.Optional(Type.Integer({ minimum: 0, description: 'Only torrents with at least this many seeders now' })),
  sort: Type.Optional(
    Type.Unsafe<TorrentSort>({
      type: 'string',
      enum: [...SORTS],
      default: 'registered',
      description: 'registered (default), size, seeders, leechers, completed or name',
    }),
  ),
  order: Type.Optional(Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'], default: 'desc', description: 'desc (default) or asc' })),
  ...PageQueryProperties,
});

const TorrentList = CollectionOf(TorrentResource);

export const TorrentPatchBody = Type.Object({ status: Type.Optional(TorrentStatusSchema), freeleech: Type.Optional(FreeleechSchema) }, { minProperties: 1 });

const security = [{ bearer: [] }];

export const torrentRoutes: FastifyPluginAsyncTypebox<{ torrents: TorrentsService; baseUrl: string | null }> = async (app, { torrents, baseUrl }) => {
  app.get(
    '/torrents',
    {
      schema: {
        tags: ['torrents'],
        summary: 'Search torrents; with forum, release.{key}=value filters by a filterable field of its release template (docs/release-templates.md)',
        querystring: TorrentListQuery,
        response: { 200: TorrentList, ...errorResponses(422) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query);
      const q = request.query;
      const { rows, total } = await torrents.list(
        {
          search: q.search,
          forumId: q.forum,
          status: q.status,
          uploaderId: q.uploader,
          minSeeders: q.min_seeders,
          release: releaseFiltersIn(new URLSearchParams(request.url.split('?')[1] ?? '')),
          sort: q.sort ?? 'registered',
          order: q.order ?? 'desc',
        },
        request.user,
        page,
      );
      return collection(
        page,
        rows.map((row) => torrentResource(row)),
        total,
      );
    },
  );

  app.get(
    '/torrents/:id',
    {
      schema: {
        tags: ['torrents'],
        summary: 'One torrent, with its files and status history',
        params: IdParams,
        response: { 200: DataOf(TorrentResource), ...errorResponses(404) },
      },
    },
    async (request) => {
      const torrent = await torrents.get(request.params.id, request.user);
      const [files, history] = await Promise.all([torrents.files(torrent.id), torrents.history(torrent.id)]);
      return { data: torrentResource(torrent, { files, history }) };
    },
  );

  app.post(
    '/torrents',
    {
      // Before anything reads or judges the body (http/multipart.ts); the topic's rights are the service's, once topic_id is read.
      onRequest: requireUser(),
      config: uploadRoute(torrents.maxTorrentBytes),
      // Multipart fields are checked in the handler (a file and a number as text); the schema documents them.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['torrents'],
        summary: 'Attach a .torrent to a topic',
        description:
          `multipart/form-data with \`topic_id\` and \`file\` (a .torrent of at most ${formatBytes(torrents.maxTorrentBytes)}). ` +
          "The topic's author may attach one to a topic without one; moderators attach to any topic and replace an existing torrent. " +
          'The tracker makes the torrent private and its own (announce URL, no announce-list), so its info hash is that of the rewritten file. ' +
          'A torrent already registered is refused (422 on file, with the link to its topic).',
        security,
        consumes: ['multipart/form-data'],
        body: {
          type: 'object',
          required: ['topic_id', 'file'],
          properties: { topic_id: { type: 'integer', minimum: 1 }, file: { type: 'string', format: 'binary' } },
        },
        response: { 201: DataOf(TorrentResource), ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      if (!isMultipart(request)) throw new ApiError('BAD_REQUEST', 'Send the .torrent as multipart/form-data with the fields "topic_id" and "file".');
      const errors = new FieldErrorBag();
      const topicId = multipartId(request.body, 'topic_id', errors);
      const file = errors.collect(() => uploadedFile(request));
      if (file === undefined && !errors.has('file')) errors.add('file', 'The file field is required.');
      errors.throwIfAny();
      const torrent = await torrents.upload(assertUser(request), topicId!, file, origin(request, baseUrl));
      return reply.code(201).send({ data: torrentResource(torrent) });
    },
  );

  app.patch(
    '/torrents/:id',
    {
      preValidation: requireRole(STAFF),
      schema: {
        tags: ['torrents'],
        summary: "Set a torrent's status or freeleech (moderators)",
        description: 'Each status change is recorded with who and when. A frozen status stops downloads and announces at once.',
        security,
        params: IdParams,
        body: TorrentPatchBody,
        response: { 200: DataOf(TorrentResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: torrentResource(await torrents.update(request.params.id, assertUser(request), request.body)) }),
  );

  app.delete(
    '/torrents/:id',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['torrents'],
        summary: 'Remove a torrent from its topic (moderators; its uploader while not frozen)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await torrents.delete(request.params.id, assertUser(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/torrents/:id/download',
    {
      preValidation: requireUser(),
      schema: {
        tags: ['torrents'],
        summary: 'The .torrent with your personal announce URL',
        description:
          'application/x-bittorrent. The info dictionary is the stored one, so the info hash is the same for everyone. ' +
          'Refused while the torrent is frozen (403), when your ratio is below the minimum for a torrent you never downloaded (403), ' +
          'and past the daily limit of distinct torrents (429 with Retry-After).',
        security,
        params: IdParams,
        produces: ['application/x-bittorrent'],
        response: {
          200: { description: 'The .torrent file', content: { 'application/x-bittorrent': { schema: { type: 'string', format: 'binary' } } } },
          ...errorResponses(401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const file = await torrents.download(request.params.id, assertUser(request), origin(request, baseUrl));
      return sendTorrentFile(reply, file.filename, file.bytes);
    },
  );
};

/** A .torrent as a download: its type, and a file name that survives any browser (RFC 6266 with an ASCII fallback). */
export function sendTorrentFile(reply: FastifyReply, filename: string, bytes: Buffer): FastifyReply {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', 'application/x-bittorrent')
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(bytes);
}

/** A positive integer sent as a multipart text field; undefined (and an error in the bag) otherwise. */
function multipartId(body: unknown, field: string, errors: FieldErrorBag): number | undefined {
  const raw = (body as Record<string, unknown> | null | undefined)?.[field];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') {
    errors.add(field, `The ${field.replace(/_/g, ' ')} field is required.`);
    return undefined;
  }
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value.trim()) || Number(value) > 2147483647) {
    errors.add(field, `The ${field.replace(/_/g, ' ')} field must be a positive integer.`);
    return undefined;
  }
  return Number(value);
}
