import type { CallDef, ServiceName } from '@ticket/contracts';
import { authCalls, serverDataCalls } from '@ticket/contracts';

/**
 * Which call records each service base serves. Register a new record here and every call in it
 * gets a typed wrapper on the client, with no other code.
 *
 * Browser code must import only the *type* of this module: its values hold zod schemas, and the
 * build turns them into the zod-free `virtual:api-manifest` instead (see plugins/api-manifest.ts).
 */
export const serviceCalls = {
  authentication: authCalls,
  server: serverDataCalls,
} satisfies Partial<Record<ServiceName, Record<string, CallDef>>>;

export type ServiceCalls = typeof serviceCalls;
