import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { panelsKeys } from './keys';

export const getPanels = (serverId: string, signal?: AbortSignal): Promise<Panel[]> =>
  getApi().settings.getPanels({ params: { serverId } }, { signal });

export const panelsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: panelsKeys.list(serverId),
    queryFn: ({ signal }) => getPanels(serverId, signal),
  });

export const usePanels = (serverId: string, enabled = true) =>
  useQuery({ ...panelsQueryOptions(serverId), enabled: enabled && serverId !== '' });
