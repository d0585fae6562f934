/**
 * `npm run build` (after the web client): the API as one JavaScript file, apps/server/dist/main.mjs,
 * which a deployment runs with Node alone (`node apps/server/dist/main.mjs`). Run from its
 * TypeScript sources instead, a process also holds tsx's compiler and its loader thread: about
 * 55 MB more resident memory for the same server.
 *
 * The file holds the server's code and the contracts package; the npm packages it uses stay in
 * node_modules and are loaded from there, as the sources load them. The SQLite reader's thread
 * (db/sqlite-reader-worker.mjs, plain JavaScript) is copied beside it. A source map beside it gives
 * stack traces and profiles in the sources' lines (`node --enable-source-maps`).
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Every npm package stays a package; the workspace's own (`@ticket/…`) are TypeScript sources and are built in. */
const packagesStayExternal: Plugin = {
  name: 'packages-stay-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@ticket/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Builds `entry` (a path from the checkout's root) into `outfile`. The file must be two folders
 * under apps/ (as apps/server/dist/ is) for the server to find the files it reads beside its code
 * (apps/server/src/checkout.ts).
 */
export async function buildServer(entry = 'apps/server/src/main.ts', outfile = 'apps/server/dist/main.mjs'): Promise<string> {
  const out = path.resolve(ROOT, outfile);
  await build({
    entryPoints: [path.resolve(ROOT, entry)],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [packagesStayExternal],
  });
  // The SQLite reader's thread runs this file as it is, found beside the code that starts it (db/sqlite-reader.ts).
  copyFileSync(path.resolve(ROOT, 'apps/server/src/db/sqlite-reader-worker.mjs'), path.join(path.dirname(out), 'sqlite-reader-worker.mjs'));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = await buildServer();
  console.log(`built ${path.relative(ROOT, out)}`);
}
