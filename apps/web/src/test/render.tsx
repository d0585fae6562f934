import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/router';
import { initApi } from '@/lib/api';
import { useAuthStore } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { setRuntimeConfig } from '@/lib/runtime-config';
import { testConfig } from './fixtures';

/** What main.tsx does at start-up, with the test config. */
export function startApi(): void {
  setRuntimeConfig(testConfig);
  initApi(testConfig, () => useAuthStore.getState().token);
}

/** The whole app at `path`, as a user opening that address would get it. */
export function renderApp(path: string) {
  startApi();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}
