import { runnerImport, type Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:ui-languages';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/**
 * Serves `virtual:ui-languages`: the contracts' `UI_LANGUAGES` (code, native name, direction) as
 * plain data, read at build time. Importing it from `@ticket/contracts` would bring zod and the
 * localization schemas into the first screen's script for a table of 39 rows.
 */
export function uiLanguages(): Plugin {
  let root = '';
  return {
    name: 'ticket:ui-languages',
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { module, dependencies } = await runnerImport<{ UI_LANGUAGES?: unknown }>('@ticket/contracts', {
        root,
        configFile: false,
        logLevel: 'error',
      });
      for (const file of dependencies) this.addWatchFile(file);
      if (!Array.isArray(module.UI_LANGUAGES)) throw new Error('@ticket/contracts exports no UI_LANGUAGES');
      return `export const UI_LANGUAGES = ${JSON.stringify(module.UI_LANGUAGES)};`;
    },
  };
}
