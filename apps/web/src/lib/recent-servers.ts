import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** How many servers the switcher offers (SPEC §2: "added to a recent list"). */
export const MAX_RECENT_SERVERS = 5;

export interface UserRecentServers {
  /** Server ids, most recent first, at most `MAX_RECENT_SERVERS`. */
  recent: string[];
  /** How often each server was entered (SPEC §3: visited-servers count per serverId). */
  visits: Record<string, number>;
}

interface RecentServersState {
  /** Per signed-in user, so people sharing a browser do not see each other's servers. */
  users: Record<string, UserRecentServers>;
  visit(userId: string, serverId: string): void;
  forget(userId: string, serverId: string): void;
}

const EMPTY: UserRecentServers = { recent: [], visits: {} };

export const useRecentServersStore = create<RecentServersState>()(
  persist(
    (set) => ({
      users: {},
      visit: (userId, serverId) =>
        set(({ users }) => {
          const mine = users[userId] ?? EMPTY;
          return {
            users: {
              ...users,
              [userId]: {
                recent: [serverId, ...mine.recent.filter((id) => id !== serverId)].slice(0, MAX_RECENT_SERVERS),
                visits: { ...mine.visits, [serverId]: (mine.visits[serverId] ?? 0) + 1 },
              },
            },
          };
        }),
      forget: (userId, serverId) =>
        set(({ users }) => {
          const mine = users[userId];
          if (!mine) return {};
          const { [serverId]: _dropped, ...visits } = mine.visits;
          return { users: { ...users, [userId]: { recent: mine.recent.filter((id) => id !== serverId), visits } } };
        }),
    }),
    {
      name: 'recentServers',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ users }) => ({ users }),
      version: 1,
    },
  ),
);

/** The user's recent servers and visit counts (empty for someone not known here). */
export const recentServersOf = (userId: string | undefined): UserRecentServers =>
  (userId && useRecentServersStore.getState().users[userId]) || EMPTY;

/** The same, for components: re-renders when the list changes. */
export const useRecentServers = (userId: string | undefined): UserRecentServers =>
  useRecentServersStore((state) => (userId && state.users[userId]) || EMPTY);
