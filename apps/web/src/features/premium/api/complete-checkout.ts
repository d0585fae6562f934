import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentProvider, StatusResponse } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { premiumKeys } from './keys';

export type ResultKind = 'purchase' | 'update';

/** How often, and how many times, a result page asks again while the provider is still processing. */
export const RESULT_POLL_INTERVAL_MS = 3000;
export const RESULT_POLL_ATTEMPTS = 40;

/**
 * Asks the payment service to verify a finished checkout (a purchase) or a confirmed plan change
 * (an update) with the provider. Asking again is safe: the service applies each one once.
 */
export function completeCheckout(kind: ResultKind, serverId: string, provider: PaymentProvider, token: string, signal?: AbortSignal): Promise<StatusResponse> {
  const input = { params: { serverId }, query: { provider, token } };
  return kind === 'purchase'
    ? getApi().payment.completeCheckout(input, { signal })
    : getApi().payment.completePlanUpdate(input, { signal });
}

export const checkoutResultQueryOptions = (kind: ResultKind, serverId: string, provider: PaymentProvider, token: string) =>
  queryOptions({
    queryKey: premiumKeys.checkout(kind, serverId, provider, token),
    queryFn: ({ signal }) => completeCheckout(kind, serverId, provider, token, signal),
    retry: 1,
    staleTime: Infinity,
    // While the provider is still processing, ask again a while; then the page says it could not verify.
    refetchInterval: (query) =>
      query.state.data?.status === 'processing' && query.state.dataUpdateCount < RESULT_POLL_ATTEMPTS ? RESULT_POLL_INTERVAL_MS : false,
  });

/** The provider's answer, and whether the page has stopped asking while it still says "processing". */
export function useCheckoutResult(kind: ResultKind, serverId: string, provider: PaymentProvider | undefined, token: string | undefined) {
  const options = checkoutResultQueryOptions(kind, serverId, provider ?? 'stripe', token ?? '');
  const query = useQuery({ ...options, enabled: Boolean(serverId && provider && token) });
  const answers = useQueryClient().getQueryState(options.queryKey)?.dataUpdateCount ?? 0;
  return { ...query, gaveUp: query.data?.status === 'processing' && answers >= RESULT_POLL_ATTEMPTS };
}
