import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { StartupError } from './app/startup-error';
import { initApi } from './lib/api';
import { useAuthStore } from './lib/auth-store';
import { initI18n, refreshShellFromService } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { loadRuntimeConfig } from './lib/runtime-config';

async function start(): Promise<void> {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const queryClient = createQueryClient();
  // Cached answers belong to one session; a new or ended session must not see them.
  useAuthStore.subscribe((state, previous) => {
    if (state.token !== previous.token) queryClient.clear();
  });

  const [config] = await Promise.allSettled([loadRuntimeConfig(), initI18n(), import('./styles')]);
  if (config.status === 'rejected') {
    console.error(config.reason);
    root.render(
      <AppProviders queryClient={queryClient}>
        <StartupError />
      </AppProviders>,
    );
    return;
  }
  initApi(config.value, () => useAuthStore.getState().token);
  // Corrected translations of the first screen's texts, from the translations service, once it is known where it is.
  void refreshShellFromService();
  root.render(
    <StrictMode>
      <App router={createAppRouter()} queryClient={queryClient} />
    </StrictMode>,
  );
}

void start();
