import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { whenNotFound } from './when-not-found';

export const getPanels = (serverId: string, signal?: AbortSignal): Promise<Panel[]> =>
  whenNotFound(getApi().settings.getPanels({ params: { serverId } }, { signal }), []);

export const panelsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: ['settings', serverId, 'panels'],
    queryFn: ({ signal }) => getPanels(serverId, signal),
  });

export const usePanels = (serverId: string) => useQuery(panelsQueryOptions(serverId));
