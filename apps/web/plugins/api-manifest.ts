import type { CallDef } from '@ticket/contracts';
import { runnerImport, type Plugin } from 'vite';
import { toCallSpec } from '../src/lib/api/call-spec.ts';

const VIRTUAL_ID = 'virtual:api-manifest';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

type Records = Record<string, Record<string, CallDef>>;

/**
 * Serves `virtual:api-manifest`: the method, path and required inputs of every call of the
 * contracts' `serviceCalls`, read at build time. The browser gets the client's typed wrappers
 * without shipping zod and every schema of the product.
 */
export function apiManifest(): Plugin {
  let root = '';
  return {
    name: 'ticket:api-manifest',
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      // The contracts are TypeScript source in a linked package, which plain Node cannot import.
      const { module, dependencies } = await runnerImport<{ serviceCalls: Records }>('@ticket/contracts', {
        root,
        configFile: false,
        logLevel: 'error',
      });
      for (const file of dependencies) this.addWatchFile(file);
      const manifest = Object.fromEntries(
        Object.entries(module.serviceCalls).map(([service, calls]) => [
          service,
          Object.fromEntries(Object.entries(calls).map(([operation, def]) => [operation, toCallSpec(def)])),
        ]),
      );
      return `export default ${JSON.stringify(manifest)};`;
    },
  };
}
