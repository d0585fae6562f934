import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { webhookKeys } from './keys';

export const WEBHOOK_DELIVERIES_PAGE_SIZE = 10;
/** While a delivery shown is pending, the list is read again this often: its retries come in on their own. */
export const WEBHOOK_DELIVERIES_POLL_MS = 5_000;

/** An endpoint's deliveries of the last 14 days, newest first, a page at a time. */
export const getWebhookDeliveries = (serverId: string, endpointId: string, page: number, signal?: AbortSignal) =>
  getApi().settings.getWebhookDeliveries(
    { params: { serverId, endpointId }, query: { Page: page, Amount: WEBHOOK_DELIVERIES_PAGE_SIZE } },
    { signal },
  );

export const webhookDeliveriesQueryOptions = (serverId: string, endpointId: string, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveriesPage(serverId, endpointId, page),
    queryFn: ({ signal }) => getWebhookDeliveries(serverId, endpointId, page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.elements.some((delivery) => delivery.status === 'pending') ? WEBHOOK_DELIVERIES_POLL_MS : false),
    refetchIntervalInBackground: false,
  });

export const useWebhookDeliveries = (serverId: string, endpointId: string, page: number) =>
  useQuery(webhookDeliveriesQueryOptions(serverId, endpointId, page));
