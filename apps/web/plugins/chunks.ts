import type { Plugin } from 'vite';

const NODE_MODULES = String.raw`node_modules[\\/]`;

/**
 * How the build groups code into chunks. What the first screen needs from the libraries (React, the
 * router, i18next, TanStack Query, Zustand) goes into one chunk instead of a dozen: each gzipped
 * file compresses on its own, so fewer and larger ones are smaller in sum. Their modules that only
 * later screens import (TanStack Query's mutations) stay out of it and come with those screens. Everything else the
 * entry imports statically (the app's start-up, the signed-in shell and the Dashboard, see
 * app/router.tsx, with Mantine's core and the components they show) is one chunk too, the entry's,
 * rather than the entry and a dozen small chunks of the components other screens share with it.
 * Mantine's imports point at the modules they use (plugins/direct-imports.ts), so that this group
 * takes only those along. The scroll lock of dialogs and toasts gets a chunk of its own, so that a
 * screen that only touches it in passing does not load it.
 */
export const codeSplitting = {
  groups: [
    {
      name: 'framework',
      test: new RegExp(
        `${NODE_MODULES}(react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack[\\\\/][^\\\\/]+|zustand|use-sync-external-store|clsx)[\\\\/]`,
      ),
      tags: ['$initial' as const],
      priority: 30,
    },
    {
      name: 'scroll-lock',
      test: new RegExp(
        `${NODE_MODULES}(react-remove-scroll|react-remove-scroll-bar|use-sidecar|react-style-singleton|use-callback-ref|get-nonce|tslib)[\\\\/]`,
      ),
      priority: 25,
    },
    {
      name: 'index',
      tags: ['$initial' as const],
      priority: 10,
    },
  ],
};

const STUB_ID = '\0ticket:remove-scroll-class-names';

/**
 * Mantine's AppShell header, footer and aside import `react-remove-scroll` only to read two class
 * names off it (the elements that must not jump while a dialog locks the page's scroll). Importing
 * it brings the whole scroll lock (about 4 KB gzipped) into every signed-in screen. Those two
 * imports get the class names alone; the dialogs and toasts that lock scrolling still import the
 * real library, whose styles target the same class names.
 */
export function appShellScrollLockClassNames(): Plugin {
  return {
    name: 'ticket:app-shell-scroll-lock-class-names',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'react-remove-scroll' && importer && /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]/.test(importer)) {
        return STUB_ID;
      }
      return undefined;
    },
    load(id) {
      if (id !== STUB_ID) return undefined;
      // The values of react-remove-scroll-bar's zeroRightClassName and fullWidthClassName.
      return `export const RemoveScroll = { classNames: { zeroRight: 'right-scroll-bar-position', fullWidth: 'width-before-scroll-bar' } };`;
    },
  };
}
