import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { sessionsQueryOptions } from './get-sessions';

/** Signs out one of the user's other sessions (another browser or device). */
export const deleteSession = (sessionId: string) => getApi().authentication.deleteSession({ params: { sessionId } });

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
