import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { LazyModals } from '@/components/lazy-modals';
import { LazyNotifications } from '@/components/lazy-notifications';
import { directionOf, i18n } from '@/lib/i18n';
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_POSITION } from '@/lib/notify';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    // Reads the dir that i18n set on <html>, so right-to-left languages mirror Mantine's layout too.
    <DirectionProvider>
      <DirectionSync />
      <MantineProvider
        theme={theme}
        defaultColorScheme="auto"
        colorSchemeManager={colorSchemeManager}
        cssVariablesResolver={cssVariablesResolver}
      >
        <LazyNotifications position={NOTIFICATION_POSITION} autoClose={NOTIFICATION_AUTO_CLOSE_MS} />
        <LazyModals />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}

/** Keeps Mantine's direction in step with the language when it changes while the app runs. */
function DirectionSync() {
  const { setDirection } = useDirection();
  useEffect(() => {
    const sync = (locale: string) => setDirection(directionOf(locale));
    if (i18n.language) sync(i18n.language);
    i18n.on('languageChanged', sync);
    return () => i18n.off('languageChanged', sync);
  }, [setDirection]);
  return null;
}
