// The private message pages (docs/messages.md), each behind its address in
// the page registry (urls/semantic-routes.ts).
import type { FastifyPluginAsync } from 'fastify';
import { inboxPath, newMessagePath, sentMessagesPath } from '../../urls/paths.ts';
import { composePage } from './compose-page.ts';
import { mailboxPage } from './mailbox-page.ts';
import { MESSAGE_PAGE, messagePage } from './message-page.ts';
import type { MessagePageDeps } from './parts.ts';

export const messagePages: FastifyPluginAsync<MessagePageDeps> = async (app, deps) => {
  const { pages } = deps;
  pages.fixed(app, inboxPath(), mailboxPage(deps, 'inbox'));
  pages.fixed(app, sentMessagesPath(), mailboxPage(deps, 'sent'));
  pages.fixed(app, newMessagePath(), composePage(deps));
  pages.fixed(app, MESSAGE_PAGE, messagePage(deps));
};
