import type { CallDef } from '@ticket/contracts';
import { toCallSpec } from '../src/lib/api/call-spec.ts';
import { contractsModule } from './contracts-module.ts';

type Records = Record<string, Record<string, CallDef>>;

/**
 * Serves `virtual:api-manifest`: the method, path and required inputs of every call of the
 * contracts' `serviceCalls`. The browser gets the client's typed wrappers without shipping zod
 * and every schema of the product.
 */
export const apiManifest = () =>
  contractsModule('virtual:api-manifest', (contracts) => {
    const manifest = Object.fromEntries(
      Object.entries(contracts.serviceCalls as Records).map(([service, calls]) => [
        service,
        Object.fromEntries(Object.entries(calls).map(([operation, def]) => [operation, toCallSpec(def)])),
      ]),
    );
    return `export default ${JSON.stringify(manifest)};`;
  });
