import type { ServerRole } from '@ticket/contracts';
import { isAdminRole, isStaffRole } from '@/lib/auth-store';
import type { PremiumLevel } from '@/lib/server-context';
import { paths, type RouteName } from '@/lib/routes';

/** The menu labels of SPEC §2, as keys under `menu` in the locales. */
export type MenuLabel =
  | 'dashboard'
  | 'tickets'
  | 'myTickets'
  | 'settings'
  | 'panels'
  | 'whitelabel'
  | 'apiKey'
  | 'webhooks'
  | 'premium'
  | 'myProfile'
  | 'myServers'
  | 'logout';

export interface MenuLink {
  label: MenuLabel;
  to: string;
  /** The routes on which this item is the current page. */
  activeOn: readonly RouteName[];
}

export interface ServerMenu {
  serverId: string;
  /** The server's name and icon link to its home in staff mode: the dashboard for admins, the profile for staff. */
  home: string;
  activeOn: readonly RouteName[];
  items: MenuLink[];
}

export interface Menu {
  top: MenuLink[];
  server: ServerMenu | undefined;
  personal: MenuLink[];
}

export interface MenuContext {
  /** The `:serverId` of the route, when in staff mode. */
  serverId: string | undefined;
  /** The user's role on that server. */
  role: ServerRole | undefined;
  premiumLevel: PremiumLevel;
}

/** Where a server's name leads in staff mode, by the user's role there. */
export const serverHomePath = (serverId: string, role: ServerRole | undefined): string =>
  isAdminRole(role) ? paths.staffHome(serverId) : paths.serverProfile(serverId);

/** Which menu items the user gets (Logout is always last and is not a link). */
export function buildMenu({ serverId, role, premiumLevel }: MenuContext): Menu {
  const top: MenuLink[] = [{ label: 'dashboard', to: paths.dashboard(), activeOn: ['dashboard'] }];
  const personal: MenuLink[] = [
    { label: 'myTickets', to: paths.myTickets(), activeOn: ['myTickets', 'myTicket'] },
    { label: 'myProfile', to: paths.profile(), activeOn: ['profile'] },
    // The same place as Dashboard, named as the way out of staff mode; Dashboard shows it as current.
    { label: 'myServers', to: paths.dashboard(), activeOn: [] },
  ];
  if (!serverId || !isStaffRole(role)) return { top, server: undefined, personal };

  const admin = isAdminRole(role);
  const items: MenuLink[] = [{ label: 'tickets', to: paths.tickets(serverId), activeOn: ['tickets', 'ticket'] }];
  if (admin) {
    items.push(
      { label: 'settings', to: paths.settings(serverId), activeOn: ['settings', 'subject'] },
      { label: 'panels', to: paths.panels(serverId), activeOn: ['panels'] },
    );
    // White-label bots, API access and outgoing webhooks are Enterprise features (SPEC §6).
    if (premiumLevel >= 2) {
      items.push(
        { label: 'whitelabel', to: paths.whitelabel(serverId), activeOn: ['whitelabel'] },
        { label: 'apiKey', to: paths.apiKey(serverId), activeOn: ['apiKey'] },
        { label: 'webhooks', to: paths.webhooks(serverId), activeOn: ['webhooks'] },
      );
    }
    items.push({
      label: 'premium',
      to: paths.premium(serverId),
      activeOn: ['premium', 'premiumCancel', 'premiumUpdateSuccess', 'premiumSuccess'],
    });
  }
  return {
    top,
    server: {
      serverId,
      home: serverHomePath(serverId, role),
      activeOn: ['staffHome', 'serverProfile'],
      items,
    },
    personal,
  };
}
