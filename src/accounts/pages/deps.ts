import type { AuthService } from '../../auth/service.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import type { AccountsService } from '../service.ts';

export interface AccountPageDeps {
  pages: PageRoutes;
  accounts: AccountsService;
  auth: AuthService;
}
