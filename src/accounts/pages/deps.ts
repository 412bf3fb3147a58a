import type { AuthService, AuthUser } from '../../auth/service.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { AccountsService } from '../service.ts';
import type { Avatars } from '../../users/avatars/avatars.ts';
import type { SiteSettings } from '../../site/settings.ts';

export interface AccountPageDeps {
  pages: PageRoutes;
  accounts: AccountsService;
  auth: AuthService;
  avatars: Avatars;
  site: SiteSettings;
  /** Whether the member gets mass mail (the settings' section; mass-send/subscriptions.ts answers it). */
  massMail: MassMailChoice;
}

/** The member's choice of mass mail, as the settings page changes it. */
export interface MassMailChoice {
  set(user: AuthUser, on: boolean): Promise<void>;
}
