import { create } from 'zustand';
import type { RouteName } from './routes';

export interface NavigationState {
  /** The route on screen now. */
  routeName: RouteName | null;
  /** The route that was on screen before it (SPEC §2: "the previous route name is remembered"). */
  previousRouteName: RouteName | null;
  /**
   * Where the last navigation ended (path, search and hash); null before the first screen.
   * Route guards read it to know where a navigation starts.
   */
  location: string | null;
}

export const useNavigationStore = create<NavigationState>()(() => ({
  routeName: null,
  previousRouteName: null,
  location: null,
}));

/** Called by the root layout once a navigation has ended on `location`. */
export function recordNavigation(routeName: RouteName | null, location: string): void {
  const state = useNavigationStore.getState();
  if (state.location === location && state.routeName === routeName) return;
  useNavigationStore.setState({
    routeName,
    previousRouteName: routeName === state.routeName ? state.previousRouteName : state.routeName,
    location,
  });
}

/** Forgets everything: the app (or a test's app) is gone. */
export function resetNavigation(): void {
  useNavigationStore.setState({ routeName: null, previousRouteName: null, location: null });
}
