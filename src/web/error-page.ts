// The HTML answer for errors on pages (the API answers JSON).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorPage } from '../http/error-handler.ts';
import { html } from './html.ts';

export function renderErrorPage(_request: FastifyRequest, reply: FastifyReply, page: ErrorPage): FastifyReply {
  const body = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${page.title}</title></head>
<body><main><h1>${page.title}</h1><p>${page.message}</p><p><a href="/">Back to the forum</a></p></main></body>
</html>`;
  return reply.code(page.status).type('text/html; charset=utf-8').send(body.value);
}
