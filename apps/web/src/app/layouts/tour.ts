import { useTourStore } from '@/features/onboarding/tour-store';

/** Opens the welcome tour (SPEC §1) from its first step, seen or not; the menus' "Show the tour". */
export function showTour(): void {
  useTourStore.getState().open();
}
