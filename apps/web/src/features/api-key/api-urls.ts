import { getRuntimeConfig } from '@/lib/runtime-config';

/** A service's base as an absolute address: the runtime config may give a path on this origin. */
const absoluteBase = (base: string): URL => new URL(base.endsWith('/') ? base : `${base}/`, window.location.origin);

/** The browsable OpenAPI reference, which every API process serves beside its services. */
export const apiDocsUrl = (): string => new URL('/api/docs', absoluteBase(getRuntimeConfig().services.settings)).href;

/** A call an API key may make, for the example: the server's settings (`GET /servers/{serverId}/settings`). */
export const serverSettingsUrl = (serverId: string): string =>
  new URL(`servers/${encodeURIComponent(serverId)}/settings`, absoluteBase(getRuntimeConfig().services.settings)).href;
