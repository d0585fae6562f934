import type { UIMatch } from 'react-router';

/** Who may open a route (SPEC §2, §6). */
export type AuthLevel = 'open' | 'NOT_AUTHENTICATED' | 'SIGNED_IN' | 'STAFF' | 'ADMIN';

/** The screens of one server below its home, one per route (see app/router.tsx). */
export type StaffSection =
  | 'settings'
  | 'subject'
  | 'panels'
  | 'whitelabel'
  | 'apiKey'
  | 'webhooks'
  | 'premium'
  | 'premiumCancel'
  | 'premiumUpdateSuccess'
  | 'premiumSuccess'
  | 'tickets'
  | 'ticket';

/** Every route's name, which is also its React Router `id`. */
export type RouteName =
  | 'root'
  | 'login'
  | 'callback'
  | 'inviteCallback'
  | 'signedIn'
  | 'dashboard'
  | 'profile'
  | 'myTicketsArea'
  | 'myTickets'
  | 'myTicket'
  | 'staff'
  | 'staffHome'
  | 'serverProfile'
  | 'settingsArea'
  | 'premiumArea'
  | 'ticketsArea'
  | StaffSection
  | 'publicServerStats'
  | 'notFound';

/** What each route declares about itself, as its `handle`. */
export interface RouteHandle {
  name: RouteName;
  auth: AuthLevel;
  /** Moving between this route and its parent or siblings keeps the scroll position. */
  preserveScroll?: boolean;
}

export const isRouteHandle = (value: unknown): value is RouteHandle =>
  typeof value === 'object' && value !== null && 'name' in value && 'auth' in value;

/** The handle of the deepest route that declares one. */
export function leafHandle(matches: readonly Pick<UIMatch, 'handle'>[]): RouteHandle | undefined {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}

/**
 * What identifies a screen for scrolling and the fade: the path of the deepest route that does not
 * preserve scroll. A ticket opened from the list shares the list's key, so it keeps its position.
 */
export function screenKey(matches: readonly Pick<UIMatch, 'handle' | 'pathname'>[]): string {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const match = matches[index];
    if (!match) continue;
    const handle = match.handle;
    if (isRouteHandle(handle) && handle.preserveScroll) continue;
    return match.pathname.replace(/\/+$/, '') || '/';
  }
  return '/';
}

const id = (serverId: string) => encodeURIComponent(serverId);

/** Addresses of the screens, so no component spells a route by hand. */
export const paths = {
  dashboard: () => '/',
  profile: () => '/profile',
  myTickets: () => '/tickets',
  myTicket: (ticketId: string) => `/tickets/${encodeURIComponent(ticketId)}`,
  staffHome: (serverId: string) => `/staff/${id(serverId)}`,
  serverProfile: (serverId: string) => `/staff/${id(serverId)}/profile`,
  settings: (serverId: string) => `/staff/${id(serverId)}/settings`,
  subject: (serverId: string, subjectId: string) =>
    `/staff/${id(serverId)}/settings/${encodeURIComponent(subjectId)}`,
  panels: (serverId: string) => `/staff/${id(serverId)}/panels`,
  whitelabel: (serverId: string) => `/staff/${id(serverId)}/whitelabel`,
  apiKey: (serverId: string) => `/staff/${id(serverId)}/api-key`,
  webhooks: (serverId: string) => `/staff/${id(serverId)}/webhooks`,
  premium: (serverId: string) => `/staff/${id(serverId)}/premium`,
  tickets: (serverId: string) => `/staff/${id(serverId)}/tickets`,
  ticket: (serverId: string, ticketId: string) => `/staff/${id(serverId)}/tickets/${encodeURIComponent(ticketId)}`,
  publicServerStats: (serverId: string) => `/servers/${id(serverId)}/stats`,
} as const;
