import type { ServerSettings } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { hasCacheLoader, registerCacheLoader, serverCache } from '@/lib/server-cache';

/** `GET /servers/:serverId/settings`: language, subject list and plan of the server. */
export const getServerSettings = (serverId: string, signal?: AbortSignal): Promise<ServerSettings> =>
  getApi().settings.getServerSettings({ params: { serverId } }, { signal });

/**
 * The per-server caches this feature owns the calls of (SPEC §3 "client-held data"): the server
 * settings and the support subjects (those the user may act in). Registered once, when the
 * settings screens load; a loader registered elsewhere first is kept.
 */
export function registerSettingsCacheLoaders(): void {
  if (!hasCacheLoader('settings')) {
    registerCacheLoader('settings', (serverId, { signal }) => getServerSettings(serverId, signal));
  }
  if (!hasCacheLoader('supportSubjects')) {
    registerCacheLoader('supportSubjects', (serverId, { signal }) =>
      getApi().settings.getMySubjects({ params: { serverId } }, { signal }),
    );
  }
}

/**
 * Writes a change the server confirmed into the server's cached settings, so every screen that
 * shows them sees it without loading them again. Nothing happens when they are not loaded.
 */
export function patchServerSettings(serverId: string, update: (settings: ServerSettings) => ServerSettings): void {
  const state = serverCache.getState();
  if (state.serverId !== serverId) return;
  const entry = state.entries.settings;
  if (entry.status !== 'loaded' || !entry.data) return;
  serverCache.setState({ entries: { ...state.entries, settings: { ...entry, data: update(entry.data) } } });
}

/** Loads the server's settings and support subjects again when they were loaded (a subject came or went). */
export function refreshServerSettings(serverId: string): void {
  const state = serverCache.getState();
  if (state.serverId !== serverId) return;
  for (const kind of ['settings', 'supportSubjects'] as const) {
    if (state.entries[kind].status !== 'not loaded') void state.load(kind, { force: true }).catch(() => undefined);
  }
}
