import { useEffect } from 'react';
import { serverCache, useServerCacheStore } from '@/lib/server-cache';

/**
 * Whether the per-server caches (channels, emojis, roles) belong to `serverId`. The route guard
 * points them at the route's server before the screen renders; a screen mounted without it (a
 * test, another route) does it here.
 */
export function useServerCacheReady(serverId: string): boolean {
  const current = useServerCacheStore((state) => state.serverId);
  useEffect(() => {
    if (serverId !== '' && serverCache.getState().serverId !== serverId) serverCache.getState().updateServerId(serverId);
  }, [serverId]);
  return current === serverId && serverId !== '';
}
