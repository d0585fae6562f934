import path from 'node:path';

/**
 * The root of the checkout the server runs from, for the files it serves or reads beside its code
 * (the built web client, the web client's locale files). This module is two folders under apps/,
 * as the built server is (apps/server/dist/main.mjs, `npm run build`), so the same path leads to
 * the root from the sources and from the build.
 */
export const CHECKOUT_ROOT = path.resolve(import.meta.dirname, '../../..');
