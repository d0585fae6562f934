import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { premiumKeys } from './keys';

/** The subscriptions the signed-in user pays for, on any server. */
export const getMySubscriptions = (signal?: AbortSignal) => getApi().payment.getMySubscriptions({}, { signal });

export const mySubscriptionsQueryOptions = () =>
  queryOptions({ queryKey: premiumKeys.mine(), queryFn: ({ signal }) => getMySubscriptions(signal) });

export const useMySubscriptions = () => useQuery(mySubscriptionsQueryOptions());
