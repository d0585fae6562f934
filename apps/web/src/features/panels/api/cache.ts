import type { QueryClient } from '@tanstack/react-query';
import type { Panel } from '@ticket/contracts';
import { panelsKeys } from './keys';

/** Puts a panel the server answered with into the cached list, in its place or at the end. */
export function storePanel(queryClient: QueryClient, serverId: string, panel: Panel): void {
  queryClient.setQueryData<Panel[]>(panelsKeys.list(serverId), (list) => {
    if (!list) return list;
    return list.some((p) => p.id === panel.id) ? list.map((p) => (p.id === panel.id ? panel : p)) : [...list, panel];
  });
}
