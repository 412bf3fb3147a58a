// /api/site: the site's own settings (site/settings.ts) for scripts and
// other front ends: anyone reads them, admins change any of them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireRole, ADMINS } from '../auth/guard.ts';
import { DataOf, errorResponses } from '../http/schemas.ts';
import { SiteSettingsPatch, SiteSettingsResource, siteSettingsResource, type SiteSettings } from './settings.ts';

const TAGS = ['site'];

export const siteRoutes: FastifyPluginAsyncTypebox<{ site: SiteSettings }> = async (app, { site }) => {
  app.get(
    '/site',
    {
      schema: {
        tags: TAGS,
        summary: "The site's name, description, logo, default language and whether registration is open",
        response: { 200: DataOf(SiteSettingsResource) },
      },
    },
    async () => ({ data: siteSettingsResource(await site.current()) }),
  );

  app.patch(
    '/site',
    {
      preValidation: requireRole(ADMINS),
      schema: {
        tags: TAGS,
        summary: "Change the site's settings (every field optional); they apply on every instance at once",
        security: [{ bearer: [] }],
        body: SiteSettingsPatch,
        response: { 200: DataOf(SiteSettingsResource), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => ({ data: siteSettingsResource(await site.patch(request.body)) }),
  );
};
