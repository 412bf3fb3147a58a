// The account pages, behind their addresses in the page registry.
import type { FastifyPluginAsync } from 'fastify';
import { activationPage } from './activation-page.ts';
import type { AccountPageDeps } from './deps.ts';
import { passwordRecoveryPage, passwordResetPage } from './password-recovery-pages.ts';
import { registerPage } from './register-page.ts';
import { emailConfirmationPage, settingsPage } from './settings-pages.ts';

export type { AccountPageDeps };

export const accountPages: FastifyPluginAsync<AccountPageDeps> = async (app, deps) => {
  const { pages } = deps;
  pages.fixed(app, '/register/', registerPage(deps));
  pages.fixed(app, '/activate/:userId/:key/', activationPage(deps));
  pages.fixed(app, '/password-recovery/', passwordRecoveryPage(deps));
  pages.fixed(app, '/password-recovery/:key/', passwordResetPage(deps));
  pages.fixed(app, '/settings/', settingsPage(deps));
  pages.fixed(app, '/settings/email/:key/', emailConfirmationPage(deps));
};
