import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      // Screens and language files load through Vite's transform on first use, which takes seconds
      // while the rest of the suite keeps a small machine busy.
      testTimeout: 15000,
    },
  }),
);
