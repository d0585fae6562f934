import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { initI18n, loadLocaleArea } from '@/lib/i18n';
import { LOCALE_AREA_NAMES } from '@/locales/areas';
import { loadNotifications, notificationsRequested } from '@/lib/notify';

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
// Mantine's combobox scrolls the selected option into view.
Element.prototype.scrollIntoView ??= () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(async () => {
  await initI18n('en');
  // The screens' routes load their areas' messages; a test renders the screens directly.
  await Promise.all(LOCALE_AREA_NAMES.map(loadLocaleArea));
});

afterEach(async () => {
  cleanup();
  // Toasts live in a store of their own, which outlives the rendered app.
  if (notificationsRequested()) (await loadNotifications()).notifications.clean();
  vi.unstubAllGlobals();
  useAuthStore.setState({ token: null, user: null, verified: false });
  localStorage.clear();
  sessionStorage.clear();
});
