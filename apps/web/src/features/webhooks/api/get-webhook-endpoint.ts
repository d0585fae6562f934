import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** One webhook endpoint, without its secret. */
export const getWebhookEndpoint = (serverId: string, endpointId: string, signal?: AbortSignal) =>
  getApi().settings.getWebhookEndpoint({ params: { serverId, endpointId } }, { signal });

export const webhookEndpointQueryOptions = (serverId: string, endpointId: string) =>
  queryOptions({
    queryKey: webhookKeys.endpoint(serverId, endpointId),
    queryFn: ({ signal }) => getWebhookEndpoint(serverId, endpointId, signal),
  });

export const useWebhookEndpoint = (serverId: string, endpointId: string) => useQuery(webhookEndpointQueryOptions(serverId, endpointId));
