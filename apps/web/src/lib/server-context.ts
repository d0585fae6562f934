import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthServer, BearerUser, PlanType, ServerDetails, ServerRole } from '@ticket/contracts';
import { useParams } from 'react-router';
import { PLAN_LEVELS } from 'virtual:plans/levels';
import { getApi } from './api';
import { isAdminRole, isStaffRole, useAuthStore } from './auth-store';
import { useRecentServersStore } from './recent-servers';
import { serverCache } from './server-cache';

export type PremiumLevel = 0 | 1 | 2;

/** The shell and the staff screens (lib/use-current-server.ts) read this one cached answer. */
export const serverDetailsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['server', serverId],
    queryFn: ({ signal }) => getApi().server.getServer({ params: { serverId } }, { signal }),
  });

/** SPEC §4, §9: free 0, premium 1, enterprise 2; 0 when there is no plan or it could not be loaded. */
export const premiumLevelOf = (plan: PlanType | null | undefined): PremiumLevel => (plan ? PLAN_LEVELS[plan] : 0);

/**
 * The user's entry for a server among the servers the bot is on. Roles for staff mode come from
 * here only: a server without the bot has no staff mode (SPEC §6).
 */
export const serverEntryOf = (user: BearerUser | null, serverId: string | undefined): AuthServer | undefined =>
  serverId ? user?.servers.find((server) => server.serverId === serverId) : undefined;

export interface ServerContext {
  /** The `:serverId` of the route; undefined outside staff mode. */
  serverId: string | undefined;
  /** The user's entry for the server (name, icon, role) from the session: there at once. */
  entry: AuthServer | undefined;
  /** The server as the bot sees it, once loaded. */
  server: ServerDetails | undefined;
  status: 'idle' | 'pending' | 'error' | 'success';
  /** The server's plan, once loaded. */
  plan: PlanType | undefined;
  premiumLevel: PremiumLevel;
  role: ServerRole | undefined;
  isAdmin: boolean;
  isStaff: boolean;
}

/** The server of the current `/staff/:serverId` route, its plan and the user's role there. */
export function useServerContext(): ServerContext {
  const { serverId } = useParams();
  const entry = useAuthStore((state) => serverEntryOf(state.user, serverId));
  const query = useQuery({ ...serverDetailsQueryOptions(serverId ?? ''), enabled: serverId !== undefined });
  const plan = query.data?.subscription;
  const role = entry?.role;
  return {
    serverId,
    entry,
    server: query.data,
    status: serverId === undefined ? 'idle' : query.status,
    plan,
    premiumLevel: query.isError ? 0 : premiumLevelOf(plan),
    role,
    isAdmin: isAdminRole(role),
    isStaff: isStaffRole(role),
  };
}

/**
 * Run by the route guard once a navigation to `/staff/:serverId/…` is allowed, before its screen
 * renders: a different server discards the per-server caches and joins the user's recent list.
 */
export function enterServer(serverId: string, userId: string | undefined): void {
  if (serverCache.getState().serverId === serverId) return;
  serverCache.getState().updateServerId(serverId);
  if (userId) useRecentServersStore.getState().visit(userId, serverId);
}

// A new session (another user, or none) must not see the previous one's server data.
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) serverCache.getState().reset();
});
