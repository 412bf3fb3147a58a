// The HTML answer for errors on pages (the API answers JSON).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorPage } from '../http/error-handler.ts';
import { html } from './html.ts';
import { sendPage } from './page.ts';
import { t } from '../i18n/messages.ts';

export function renderErrorPage(request: FastifyRequest, reply: FastifyReply, page: ErrorPage): FastifyReply {
  return sendPage(request, reply, {
    status: page.status,
    title: page.title,
    head: html`<meta name="robots" content="noindex">`,
    body: html`<h1>${page.title}</h1><p>${page.message}</p><p><a href="/">${t('error.back')}</a></p>`,
  });
}
