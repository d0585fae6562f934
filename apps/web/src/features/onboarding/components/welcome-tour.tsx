import { lazy, Suspense, useEffect } from 'react';
import { hasSession, useAuthStore } from '@/lib/auth-store';
import { useTourStore } from '../tour-store';

// The dialog (and Mantine's Modal with it) loads only when the tour opens, never with the first screen.
const WelcomeTourDialog = lazy(async () => ({ default: (await import('./welcome-tour-dialog')).WelcomeTourDialog }));

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
