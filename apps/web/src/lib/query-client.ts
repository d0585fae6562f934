import { QueryClient } from '@tanstack/react-query';
import { ResponseError } from './api';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will answer the same again; only network trouble and 5xx are worth a retry.
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ResponseError && error.status >= 400 && error.status < 500),
      },
    },
  });
}
