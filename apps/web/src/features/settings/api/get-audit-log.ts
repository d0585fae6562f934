import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getApi } from '@/lib/api';
import { settingsKeys } from './keys';

export const AUDIT_LOG_PAGE_SIZE = 20;

export const getAuditLog = (serverId: string, page: number, signal?: AbortSignal) =>
  getApi().settings.getAuditLog(
    { params: { serverId }, query: { Page: page, Amount: AUDIT_LOG_PAGE_SIZE } },
    { signal },
  );

export const auditLogQueryOptions = (serverId: string, page: number) =>
  queryOptions({
    queryKey: settingsKeys.auditLog(serverId, page),
    queryFn: ({ signal }) => getAuditLog(serverId, page, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditLog = (serverId: string, page: number) => useQuery(auditLogQueryOptions(serverId, page));
