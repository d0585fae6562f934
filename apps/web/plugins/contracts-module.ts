import { runnerImport, type Plugin } from 'vite';

/**
 * A virtual module made at build time from the contracts' exports: `write` turns what
 * `@ticket/contracts` exports into the module's source. The browser gets plain data instead of
 * zod and the schemas around it. The contracts are TypeScript source in a linked package, which
 * plain Node cannot import, so Vite's module runner loads them.
 */
export function contractsModule(id: `virtual:${string}`, write: (contracts: Record<string, unknown>) => string): Plugin {
  const resolvedId = `\0${id}`;
  let root = '';
  return {
    name: `ticket:${id.slice('virtual:'.length)}`,
    configResolved(config) {
      root = config.root;
    },
    resolveId(source) {
      return source === id ? resolvedId : undefined;
    },
    async load(source) {
      if (source !== resolvedId) return undefined;
      const { module, dependencies } = await runnerImport<Record<string, unknown>>('@ticket/contracts', { root, configFile: false, logLevel: 'error' });
      for (const file of dependencies) this.addWatchFile(file);
      return write(module);
    },
  };
}

/** `export const NAME = <value>;` for each export named, which must exist. */
export function constants(contracts: Record<string, unknown>, names: readonly string[]): string {
  return names
    .map((name) => {
      if (!(name in contracts)) throw new Error(`@ticket/contracts exports no ${name}`);
      return `export const ${name} = ${JSON.stringify(contracts[name])};`;
    })
    .join('\n');
}
