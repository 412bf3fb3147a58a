// /api/forums/{id}/release-template and /api/topics/{id}/release
// (docs/release-templates.md): whoever may view a forum reads its template
// (to build a form), admins set and remove it; whoever may read a topic reads
// its release's values. A new release is POST /api/topics with `release`.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ADMINS, requireRole } from '../auth/guard.ts';
import { ModelNotFoundError } from '../http/errors.ts';
import { DataOf, IdParams, OneOf, errorResponses } from '../http/schemas.ts';
import {
  BODY_LAYOUT_MAX,
  CHOICE_MAX,
  CHOICES_MAX,
  FIELDS_MAX,
  LABEL_MAX,
  RELEASE_FIELD_KINDS,
  TITLE_LAYOUT_MAX,
  type ReleaseTemplate,
} from './release-templates.ts';
import type { ForumService } from './service.ts';

const FieldResource = Type.Object({
  key: Type.String({ description: 'What `{key}` in a layout and `release.{key}` in a new topic name' }),
  label: Type.String(),
  kind: Type.String({ description: 'text, number, choice, image (an http(s) address) or size (bytes; "1.4 GB" is taken)' }),
  required: Type.Boolean(),
  filterable: Type.Boolean({ description: 'Offered as a filter of the forum’s topics' }),
  choices: Type.Array(Type.String(), { description: 'A choice field’s options' }),
});

const TemplateResource = Type.Object({
  forum_id: Type.Integer(),
  title_layout: Type.String({ description: 'The title: {title} is what the author typed, {key} a field; empty: the typed title' }),
  body_layout: Type.String({ description: 'The opening post in BBCode with {key} and {description}; empty: a line a field, then the description' }),
  fields: Type.Array(FieldResource),
});

const FieldBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 32, description: 'a-z first, then a-z, 0-9 and _; not title or description' }),
  label: Type.String({ minLength: 1, maxLength: LABEL_MAX }),
  kind: OneOf(RELEASE_FIELD_KINDS, 'text, number, choice, image or size'),
  required: Type.Optional(Type.Boolean({ default: false })),
  filterable: Type.Optional(Type.Boolean({ default: false, description: 'Choice and number fields only' })),
  choices: Type.Optional(Type.Array(Type.String({ maxLength: CHOICE_MAX }), { maxItems: CHOICES_MAX, description: 'A choice field’s options (2 or more)' })),
});

export const ReleaseTemplateBody = Type.Object({
  title_layout: Type.Optional(Type.String({ maxLength: TITLE_LAYOUT_MAX })),
  body_layout: Type.Optional(Type.String({ maxLength: BODY_LAYOUT_MAX })),
  fields: Type.Array(FieldBody, { minItems: 1, maxItems: FIELDS_MAX }),
});

const ValueResource = Type.Object({
  key: Type.String(),
  label: Type.String(),
  kind: Type.String(),
  value: Type.String({ description: 'As kept: a size in bytes, a number in digits' }),
});

export function templateResource(template: ReleaseTemplate): Static<typeof TemplateResource> {
  return {
    forum_id: template.forumId,
    title_layout: template.titleLayout,
    body_layout: template.bodyLayout,
    fields: template.fields.map((field) => ({
      key: field.key,
      label: field.label,
      kind: field.kind,
      required: field.required,
      filterable: field.filterable,
      choices: field.choices,
    })),
  };
}

const TAGS = ['release templates'];
const security = [{ bearer: [] }];

export const releaseRoutes: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  /** The template of a forum this reader may view (another is unknown to them, as the forum is). */
  const templateOf = async (forumId: number, viewer: Parameters<ForumService['access']['of']>[0]) => {
    await forum.forums.visibleTo(forumId, await forum.access.of(viewer));
    const template = await forum.releases.of(forumId);
    if (template === null) throw new ModelNotFoundError('Release template', forumId);
    return template;
  };

  app.get(
    '/forums/:id/release-template',
    {
      schema: { tags: TAGS, summary: 'The forum’s release template', params: IdParams, response: { 200: DataOf(TemplateResource), ...errorResponses(404) } },
    },
    async (request) => ({ data: templateResource(await templateOf(request.params.id, request.user)) }),
  );

  app.put(
    '/forums/:id/release-template',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Set the forum’s release template whole (fields kept by key keep their releases’ values)',
        security,
        params: IdParams,
        body: ReleaseTemplateBody,
        response: { 200: DataOf(TemplateResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      await forum.getForum(request.params.id);
      const body = request.body;
      const template = await forum.releases.set(request.params.id, {
        title_layout: body.title_layout ?? '',
        body_layout: body.body_layout ?? '',
        fields: body.fields.map((field) => ({
          ...field,
          required: field.required ?? false,
          filterable: field.filterable ?? false,
          choices: field.choices ?? [],
        })),
      });
      return { data: templateResource(template) };
    },
  );

  app.delete(
    '/forums/:id/release-template',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Remove the forum’s release template (its releases keep their posts)',
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await forum.releases.remove(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/topics/:id/release',
    {
      schema: {
        tags: TAGS,
        summary: 'A release’s values, in its template’s order',
        params: IdParams,
        response: { 200: DataOf(Type.Array(ValueResource)), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      await forum.getTopic(request.params.id, request.user);
      return { data: await forum.releases.valuesOf(request.params.id) };
    },
  );
};
