import { DirectionProvider, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LazyNotifications } from '@/components/lazy-notifications';
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_POSITION } from '@/lib/notify';
import { theme } from './theme';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    // Reads the dir that i18n set on <html>, so right-to-left languages mirror Mantine's layout too.
    <DirectionProvider>
      <MantineProvider theme={theme} defaultColorScheme="auto">
        <LazyNotifications position={NOTIFICATION_POSITION} autoClose={NOTIFICATION_AUTO_CLOSE_MS} />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
