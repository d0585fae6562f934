import type { AuthServer, AuthUnjoinedServer, BearerUser, ServerRole } from '@ticket/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { getApi, isResponseError } from './api';
import { clearInstantDashboard } from './instant-dashboard';

export type RefreshMode = 'normal' | 'bypass_cache' | 'force';

export interface AuthState {
  token: string | null;
  user: BearerUser | null;
  /** The session was confirmed by the server during this page load (never persisted). */
  verified: boolean;
  /** Exchanges the OAuth code for a session and keeps it. */
  login(code: string, redirectUri: string): Promise<BearerUser>;
  /**
   * Fetches the user again. Rejects with `Error('user was null')` when signed out; a 429 is
   * re-thrown and keeps the session; any other failure ends the session, then re-throws.
   */
  refresh(mode?: RefreshMode): Promise<BearerUser>;
  /** Ends the session on the server, and locally even when that call fails. */
  logout(): Promise<void>;
  roleOn(serverId: string): ServerRole | undefined;
  isAdmin(serverId: string): boolean;
  isStaff(serverId: string): boolean;
  /** Staff on at least one of the user's servers. */
  isStaffAnywhere(): boolean;
}

const refreshCalls = {
  normal: 'refreshUser',
  bypass_cache: 'refreshUserBypass',
  force: 'refreshUserForce',
} as const satisfies Record<RefreshMode, string>;

export const useAuthStore = create<AuthState>()(
  persist(
    (set, get) => ({
      token: null,
      user: null,
      verified: false,

      async login(code, redirectUri) {
        const { user, token } = await getApi().authentication.authenticate({ body: { code, redirectUri } });
        set({ user, token, verified: true });
        return user;
      },

      async refresh(mode = 'normal') {
        if (!get().user) throw new Error('user was null');
        try {
          const user = await getApi().authentication[refreshCalls[mode]]();
          set({ user, verified: true });
          return user;
        } catch (error) {
          if (isResponseError(error, 429)) throw error;
          await get().logout();
          throw error;
        }
      },

      async logout() {
        try {
          if (get().token) await getApi().authentication.logout();
        } catch {
          // The server may already have ended the session; signing out locally is what matters.
        } finally {
          set({ token: null, user: null, verified: false });
          clearInstantDashboard();
        }
      },

      roleOn: (serverId) => roleOf(get().user, serverId),
      isAdmin: (serverId) => isAdminRole(roleOf(get().user, serverId)),
      isStaff: (serverId) => isStaffRole(roleOf(get().user, serverId)),
      isStaffAnywhere: () => get().user?.servers.some((server) => isStaffRole(server.role)) ?? false,
    }),
    {
      name: 'auth',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ token, user }) => ({ token, user }),
      version: 1,
    },
  ),
);

/** The user's role on a server, whether the bot is there (`servers`) or not yet (`uServers`). */
export function roleOf(user: BearerUser | null, serverId: string): ServerRole | undefined {
  const find = (list: (AuthServer | AuthUnjoinedServer)[]) => list.find((server) => server.serverId === serverId);
  return (find(user?.servers ?? []) ?? find(user?.uServers ?? []))?.role;
}

export const isAdminRole = (role: ServerRole | undefined): boolean => role === 'Owner' || role === 'Admin';

export const isStaffRole = (role: ServerRole | undefined): boolean => role === 'Staff' || isAdminRole(role);

/** Signed in with a session that has not yet expired. */
export const hasSession = (state: Pick<AuthState, 'token' | 'user'>, now = Date.now()): boolean =>
  state.token !== null && state.user !== null && Date.parse(state.user.expires) > now;
