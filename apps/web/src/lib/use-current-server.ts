import { useQuery } from '@tanstack/react-query';
import type { PlanType, ServerDetails, ServerRole } from '@ticket/contracts';
import { isResponseError } from './api';
import { isAdminRole, isStaffRole, roleOf, useAuthStore } from './auth-store';
import { type PremiumLevel, serverDetailsQueryOptions, useServerContext } from './server-context';

export interface CurrentServer {
  serverId: string;
  server: ServerDetails | undefined;
  /** Known from the session before the server loads, so headers never wait for it. */
  serverName: string | undefined;
  iconUrl: string | null;
  /** Free until the server is loaded, and when loading fails (SPEC §4). */
  plan: PlanType;
  premiumLevel: PremiumLevel;
  role: ServerRole | undefined;
  isAdmin: boolean;
  isStaff: boolean;
  isLoading: boolean;
  /** The bot is not on the server (or the server is unknown). */
  notFound: boolean;
  error: unknown;
  refetch: () => void;
}

/**
 * The server of the `:serverId` route and the user's place on it, for the staff screens: the
 * shell's `useServerContext()` plus what a screen needs to show a failure (the error, a retry).
 * Both read the one cached answer of `getServer` (`serverDetailsQueryOptions`).
 */
export function useCurrentServer(): CurrentServer {
  const context = useServerContext();
  const serverId = context.serverId ?? '';
  const query = useQuery({ ...serverDetailsQueryOptions(serverId), enabled: serverId !== '' });
  // Staff mode takes roles from servers with the bot; a server the bot has just left may
  // still be listed as unjoined, and its admins can invite the bot again.
  const role = useAuthStore((state) => context.role ?? roleOf(state.user, serverId));
  return {
    serverId,
    server: context.server,
    serverName: context.server?.name ?? context.entry?.name,
    iconUrl: context.server?.iconUrl ?? context.entry?.serverIcon ?? null,
    plan: context.plan ?? 'free',
    premiumLevel: context.premiumLevel,
    role,
    isAdmin: isAdminRole(role),
    isStaff: isStaffRole(role),
    isLoading: query.isPending && serverId !== '',
    notFound: isResponseError(query.error, 404),
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
