import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { apiManifest } from './plugins/api-manifest.ts';
import { appShellScrollLockClassNames, codeSplitting } from './plugins/chunks.ts';
import { directMantineImports } from './plugins/direct-imports.ts';
import { localeParts } from './plugins/locale-parts.ts';
import { plans } from './plugins/plans.ts';
import { uiLanguages } from './plugins/ui-languages.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxy = { '/api': apiTarget, '/config.json': apiTarget };

export default defineConfig({
  // Set explicitly: the root vitest config loads this file from the repository root.
  root,
  plugins: [
    react(),
    apiManifest(),
    plans(),
    uiLanguages(),
    localeParts(),
    appShellScrollLockClassNames(),
    directMantineImports(),
    // Brotli and gzip copies of every text asset beside it, served as they are by the API's static
    // files (`preCompressed`): a slow connection downloads the first screen compressed, and nothing
    // is compressed again per request.
    compression({ algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })], include: /\.(js|css|html|json|svg)$/, threshold: 512 }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first screen's budget (DESIGN.md §8) is measured by `npm run size`; see plugins/chunks.ts.
    rolldownOptions: { output: { codeSplitting } },
  },
});
