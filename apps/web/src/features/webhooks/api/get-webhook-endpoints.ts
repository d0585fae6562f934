import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

/** The server's webhook endpoints, oldest first, without their secrets. */
export const getWebhookEndpoints = (serverId: string, signal?: AbortSignal) =>
  getApi().settings.getWebhookEndpoints({ params: { serverId } }, { signal });

export const webhookEndpointsQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: webhookKeys.endpoints(serverId), queryFn: ({ signal }) => getWebhookEndpoints(serverId, signal) });

export const useWebhookEndpoints = (serverId: string) => useQuery({ ...webhookEndpointsQueryOptions(serverId), enabled: serverId !== '' });
