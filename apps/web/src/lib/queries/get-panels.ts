import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** The panels screen and the Dashboard's checklist read this one cached answer. */
export const panelsQueryKey = (serverId: string) => ['settings', serverId, 'panels'] as const;

export const getPanels = (serverId: string, signal?: AbortSignal): Promise<Panel[]> =>
  getApi().settings.getPanels({ params: { serverId } }, { signal });

export const panelsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: panelsQueryKey(serverId),
    queryFn: ({ signal }) => getPanels(serverId, signal),
  });

export const usePanels = (serverId: string, enabled = true) =>
  useQuery({ ...panelsQueryOptions(serverId), enabled: enabled && serverId !== '' });
