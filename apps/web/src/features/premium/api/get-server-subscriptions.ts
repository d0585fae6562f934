import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { premiumKeys } from './keys';

/** Every subscription attached to the server (the applied one and any other), whoever pays for it. */
export const getServerSubscriptions = (serverId: string, signal?: AbortSignal) =>
  getApi().payment.getServerSubscription({ params: { serverId }, query: { multiple: true } }, { signal });

export const serverSubscriptionsQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: premiumKeys.server(serverId), queryFn: ({ signal }) => getServerSubscriptions(serverId, signal) });

export const useServerSubscriptions = (serverId: string) => useQuery({ ...serverSubscriptionsQueryOptions(serverId), enabled: serverId !== '' });
