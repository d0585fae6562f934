import { z } from 'zod';
import { defineCall } from './common';

export const Health = z.object({ status: z.enum(['ok', 'degraded']) });
export const DependencyHealth = z.object({
  status: z.enum(['ok', 'down']),
  latencyMs: z.number().nullable(),
  message: z.string().optional(),
});
export const DetailedHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  service: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: DependencyHealth,
  platform: DependencyHealth,
});
export type DetailedHealth = z.infer<typeof DetailedHealth>;

/** Every service base answers these, for load balancers and operators. */
export const healthCalls = {
  getHealth: defineCall({ method: 'GET', path: '/health', summary: 'Liveness', response: Health }),
  getHealthDetailed: defineCall({
    method: 'GET',
    path: '/health/detailed',
    summary: 'Database and platform reachability, version and uptime',
    response: DetailedHealth,
  }),
};
