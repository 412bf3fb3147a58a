// The page for a one-time link that does not work: 404 when it never
// existed, 410 Gone when it expired or was used.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../web/html.ts';
import { sendPage } from '../../web/page.ts';
import { AccountKeyError, type KeyProblem } from '../service.ts';

export interface KeyProblemTexts {
  title: string;
  messages: Record<KeyProblem, string>;
  next: SafeHtml;
}

/** Runs the page's work; a key that does not work shows its problem page instead. */
export async function withKey(request: FastifyRequest, reply: FastifyReply, texts: KeyProblemTexts, work: () => Promise<FastifyReply>): Promise<FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AccountKeyError)) throw error;
    return sendPage(request, reply, {
      title: texts.title,
      status: error.problem === 'unknown' ? 404 : 410,
      head: html`<meta name="robots" content="noindex">`,
      body: html`<h1>${texts.title}</h1><p class="notice error" role="alert">${texts.messages[error.problem]}</p>${texts.next}`,
    });
  }
}
