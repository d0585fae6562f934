import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', environment: 'node' } },
      { test: { name: 'server', root: 'apps/server', environment: 'node', testTimeout: 20000, hookTimeout: 30000 } },
      { test: { name: 'sandbox', root: 'apps/sandbox', environment: 'node' } },
      { test: { name: 'bot', root: 'apps/bot', environment: 'node', testTimeout: 30000 } },
      'apps/web/vitest.config.ts',
      { test: { name: 'e2e', root: 'e2e', environment: 'node', testTimeout: 120000, hookTimeout: 180000, fileParallelism: false } },
    ],
  },
});
