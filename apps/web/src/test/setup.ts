import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { initI18n } from '@/lib/i18n';

// jsdom has none of these; Mantine and the router's scroll restoration call them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
window.scrollTo = () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ token: null, user: null, verified: false });
  localStorage.clear();
  sessionStorage.clear();
});
