import type { Plugin } from 'vite';

const DEVELOPMENT_BUILD = /([\\/]node_modules[\\/]react-router[\\/]dist[\\/])development([\\/])/;
const SHIM = 'use-sync-external-store/shim';
const SHIM_ID = '\0ticket:use-sync-external-store';

/**
 * Builds of the libraries that suit a production bundle better than those their packages point at.
 *
 * - React Router 7 publishes two builds, and its package's exports point every bundler at the
 *   development one. The production build differs only in `ENABLE_DEV_WARNINGS = false`, which
 *   lets the minifier drop the warnings (about 0.6 KB gzipped of the first screen's script).
 * - react-i18next reads `useSyncExternalStore` from `use-sync-external-store/shim`, a fallback for
 *   React before 18. On React 18 and later the package's own main entry is React's hook, and so is
 *   this module, without the shim's code or its CommonJS wrapper (about 0.2 KB gzipped).
 *
 * Only the build: the dev server and the tests keep the packages' own choices.
 */
export function libraryBuilds(): Plugin {
  return {
    name: 'ticket:library-builds',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source === SHIM) return SHIM_ID;
      if (source !== 'react-router' && !source.startsWith('react-router/')) return undefined;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !DEVELOPMENT_BUILD.test(resolved.id)) return resolved;
      return { ...resolved, id: resolved.id.replace(DEVELOPMENT_BUILD, '$1production$2') };
    },
    load(id) {
      return id === SHIM_ID ? `export { useSyncExternalStore } from 'react';` : undefined;
    },
  };
}
