import { lazy, Suspense, useEffect } from 'react';
import { hasSession, useAuthStore } from '@/lib/auth-store';
import { loadLocaleArea } from '@/lib/i18n';
import { useTourStore } from '../tour-store';

// The dialog (and Mantine's Modal with it) loads only when the tour opens, never with the first screen;
// its messages come with it.
const WelcomeTourDialog = lazy(async () => {
  const [{ WelcomeTourDialog: Dialog }] = await Promise.all([import('./welcome-tour-dialog'), loadLocaleArea('tour')]);
  return { default: Dialog };
});

/** Mounted once in the signed-in layout: opens the tour for a user who has not seen it yet. */
export function WelcomeTour() {
  const userId = useAuthStore((state) => (hasSession(state) ? state.user?.userId : undefined));
  const isOpen = useTourStore((state) => state.isOpen);

  useEffect(() => {
    if (userId) useTourStore.getState().openIfUnseen(userId);
  }, [userId]);

  if (!isOpen || !userId) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeTourDialog />
    </Suspense>
  );
}
