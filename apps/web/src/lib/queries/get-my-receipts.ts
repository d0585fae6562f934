import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';

/**
 * The receipts of the payments and refunds of the user's subscriptions, oldest first: listed on
 * the profile, and read by Premium to tell whether cancelling now refunds the first payment.
 */
export const getMyReceipts = (signal?: AbortSignal) => getApi().payment.getMyReceipts({}, { signal });

export const myReceiptsQueryOptions = () =>
  queryOptions({ queryKey: ['payment', 'receipts'], queryFn: ({ signal }) => getMyReceipts(signal) });

export const useMyReceipts = (enabled = true) => useQuery({ ...myReceiptsQueryOptions(), enabled });
