import { useEffect } from 'react';
import { serverCache, useServerCacheStore } from '@/lib/server-cache';
import { registerSettingsCacheLoaders } from '../api/server-settings-cache';

registerSettingsCacheLoaders();

/**
 * Whether the per-server caches belong to `serverId`. The route guard points them at the route's
 * server before a screen renders; a screen mounted without it (a test, a future route) does it here.
 */
export function useServerCacheFor(serverId: string): boolean {
  const current = useServerCacheStore((state) => state.serverId);
  useEffect(() => {
    if (serverId !== '' && serverCache.getState().serverId !== serverId) serverCache.getState().updateServerId(serverId);
  }, [serverId]);
  return current === serverId && serverId !== '';
}
