import { runnerImport, type Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:plans';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/** The plan constants of the contracts that the web shows (prices, limits, features). */
const EXPORTS = [
  'PLANS',
  'PLAN_FEATURES',
  'PRICE_CURRENCY',
  'BILLING_INTERVAL_MONTHS',
  'REFUND_WINDOW_DAYS',
  'CARBON_REMOVAL_SHARE',
] as const;

/**
 * Serves `virtual:plans`: the contracts' plan constants as plain data, read at build time.
 * Importing `PLANS` from `@ticket/contracts` directly would drag zod and every schema of
 * payment.ts into the browser (about 37 KB gzipped) for a table of numbers.
 */
export function plans(): Plugin {
  let root = '';
  return {
    name: 'ticket:plans',
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { module, dependencies } = await runnerImport<Record<string, unknown>>('@ticket/contracts', {
        root,
        configFile: false,
        logLevel: 'error',
      });
      for (const file of dependencies) this.addWatchFile(file);
      return EXPORTS.map((name) => {
        if (!(name in module)) throw new Error(`@ticket/contracts exports no ${name}`);
        return `export const ${name} = ${JSON.stringify(module[name])};`;
      }).join('\n');
    },
  };
}
