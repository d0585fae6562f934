import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketFile } from '@ticket/contracts';
import { getApi } from '@/lib/api';
import { ticketKeys } from './keys';

/** The files stored for one ticket. */
export const getTicketFiles = (serverId: string, ticketId: string, signal?: AbortSignal): Promise<TicketFile[]> =>
  getApi().files.getTicketFiles({ params: { serverId, ticketId } }, { signal });

/** `attachments` is how many the ticket's messages carry: when it grows, the files are read again. */
export const ticketFilesQueryOptions = (serverId: string, ticketId: string, attachments: number) =>
  queryOptions({
    queryKey: [...ticketKeys.ticketFiles(serverId, ticketId), attachments],
    queryFn: ({ signal }) => getTicketFiles(serverId, ticketId, signal),
  });

export const useTicketFiles = (serverId: string, ticketId: string, attachments: number) =>
  useQuery({ ...ticketFilesQueryOptions(serverId, ticketId, attachments), placeholderData: keepPreviousData });
