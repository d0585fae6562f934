import { useMutation } from '@tanstack/react-query';
import type { CreateSessionRequest } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** Starts a checkout with the provider for the server; the browser then goes to `session.url` to pay or approve. */
export const createCheckoutSession = ({ serverId, ...body }: CreateSessionRequest & { serverId: string }) =>
  getApi().payment.createCheckoutSession({ params: { serverId }, query: { provider: body.provider }, body });

export const useCreateCheckoutSession = () => useMutation({ mutationFn: createCheckoutSession });
