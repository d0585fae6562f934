import { lazy, Suspense } from 'react';
import { useTourStore } from '@/features/onboarding/tour-store';

// The dialog (with Mantine's Modal) loads when the tour opens, never with the first screen.
const WelcomeTourDialog = lazy(async () => ({
  default: (await import('@/features/onboarding/components/welcome-tour-dialog')).WelcomeTourDialog,
}));

/** Opens the welcome tour (SPEC §1) from its first step, seen or not; the menus' "Show the tour". */
export function showTour(): void {
  useTourStore.getState().open();
}

/**
 * Shows the tour while it is open. It never opens the tour by itself: the onboarding feature's
 * `WelcomeTour`, mounted in its place, would also open it for a user who has not seen it yet.
 */
export function TourHost() {
  const isOpen = useTourStore((state) => state.isOpen);
  if (!isOpen) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeTourDialog />
    </Suspense>
  );
}
