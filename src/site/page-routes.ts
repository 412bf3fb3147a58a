// /api/pages (docs/static-pages.md): anyone reads the static pages, with each
// language's BBCode and its HTML; admins make, replace and delete them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ADMINS, requireRole } from '../auth/guard.ts';
import { DataOf, IdParams, Nullable, VisibleText, errorResponses } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { LOCALES, type Locale } from '../i18n/locale.ts';
import { PAGE_SLUG_MAX, sitePagePath } from '../urls/paths.ts';
import type { SafeHtml } from '../web/html.ts';
import { PAGE_BODY_MAX, PAGE_POSITION_MAX, PAGE_TITLE_MAX, type SitePage, type SitePageInput, type SitePages } from './pages.ts';

/** How a page's BBCode becomes HTML (the forum's renderer: BBCode, links, emoji). */
export type PageRenderer = (body: string) => Promise<SafeHtml>;

const PageText = Type.Object({
  title: Type.String(),
  body: Type.String({ description: 'BBCode, as written' }),
  body_html: Type.String({ description: 'The body as the page shows it' }),
});

export const SitePageResource = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  url: Type.String({ description: "The page's path on the site" }),
  position: Type.Integer({ description: 'The footer lists pages by position, then slug' }),
  in_footer: Type.Boolean(),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
  texts: Type.Object({ en: Nullable(PageText), ru: Nullable(PageText) }, { description: 'The page in each language; null: not written in it' }),
});

const PageTextBody = Type.Object({
  title: VisibleText(PAGE_TITLE_MAX, "The page's title in this language"),
  body: Type.String({ minLength: 1, maxLength: PAGE_BODY_MAX, description: `BBCode (up to ${PAGE_BODY_MAX} characters)` }),
});

export const SitePageBody = Type.Object({
  slug: Type.String({
    minLength: 1,
    maxLength: PAGE_SLUG_MAX,
    description: 'The address, /pages/{slug}/: lowercase letters and digits, words joined by hyphens',
  }),
  position: Type.Optional(Type.Integer({ minimum: -PAGE_POSITION_MAX, maximum: PAGE_POSITION_MAX, description: 'Order in the footer (default 0)' })),
  in_footer: Type.Optional(Type.Boolean({ description: 'Whether the footer links to it (default true)' })),
  texts: Type.Object(
    { en: Type.Optional(Nullable(PageTextBody)), ru: Type.Optional(Nullable(PageTextBody)) },
    { description: 'At least one language; a language left out or null has no text' },
  ),
});

export function sitePageInput(body: Static<typeof SitePageBody>): SitePageInput {
  return { slug: body.slug, position: body.position ?? 0, in_footer: body.in_footer ?? true, texts: body.texts };
}

export async function sitePageResource(page: SitePage, render: PageRenderer): Promise<Static<typeof SitePageResource>> {
  const texts = {} as Record<Locale, Static<typeof PageText> | null>;
  for (const locale of LOCALES) {
    const text = page.texts[locale];
    texts[locale] = text === undefined ? null : { title: text.title, body: text.body, body_html: (await render(text.body)).value };
  }
  return {
    id: page.id,
    slug: page.slug,
    url: sitePagePath(page.slug),
    position: page.position,
    in_footer: page.inFooter,
    created_at: isoSeconds(page.createdAt),
    updated_at: isoSeconds(page.updatedAt),
    texts,
  };
}

const TAGS = ['pages'];
const security = [{ bearer: [] }];

export const sitePageRoutes: FastifyPluginAsyncTypebox<{ pages: SitePages; render: PageRenderer }> = async (app, { pages, render }) => {
  app.get(
    '/pages',
    { schema: { tags: TAGS, summary: 'Every static page, in the footer’s order', response: { 200: DataOf(Type.Array(SitePageResource)) } } },
    async () => ({ data: await Promise.all((await pages.all()).map((page) => sitePageResource(page, render))) }),
  );

  app.get(
    '/pages/:id',
    { schema: { tags: TAGS, summary: 'One static page', params: IdParams, response: { 200: DataOf(SitePageResource), ...errorResponses(404) } } },
    async (request) => ({ data: await sitePageResource(await pages.get(request.params.id), render) }),
  );

  app.post(
    '/pages',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Make a static page',
        security,
        body: SitePageBody,
        response: { 201: DataOf(SitePageResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await sitePageResource(await pages.create(sitePageInput(request.body)), render) }),
  );

  app.put(
    '/pages/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: 'Replace a static page: its address, place and texts',
        security,
        params: IdParams,
        body: SitePageBody,
        response: { 200: DataOf(SitePageResource), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await sitePageResource(await pages.update(request.params.id, sitePageInput(request.body)), render) }),
  );

  app.delete(
    '/pages/:id',
    {
      preValidation: requireRole(ADMINS),
      schema: { tags: TAGS, summary: 'Delete a static page', security, params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } },
    },
    async (request, reply) => {
      await pages.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
