import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { premiumKeys } from './keys';

/** The installation's price table and accepted payment methods; prices never come from the page. */
export const getPrices = (signal?: AbortSignal) => getApi().payment.getPrices({}, { signal });

export const pricesQueryOptions = () =>
  queryOptions({ queryKey: premiumKeys.prices(), queryFn: ({ signal }) => getPrices(signal), staleTime: 10 * 60_000 });

export const usePrices = () => useQuery(pricesQueryOptions());
