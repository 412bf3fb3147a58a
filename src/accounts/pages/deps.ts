import type { AuthService } from '../../auth/service.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { AccountsService } from '../service.ts';
import type { Avatars } from '../../users/avatars/avatars.ts';
import type { SiteSettings } from '../../site/settings.ts';
import type { MassMailSubscriptions } from '../../mass-send/subscriptions.ts';

export interface AccountPageDeps {
  pages: PageRoutes;
  accounts: AccountsService;
  auth: AuthService;
  avatars: Avatars;
  site: SiteSettings;
  /** Whether the member gets mass mail (the settings' section). */
  massMail: MassMailSubscriptions;
}
