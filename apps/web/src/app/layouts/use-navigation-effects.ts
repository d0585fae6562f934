import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useMatches, useNavigationType } from 'react-router';
import { recordNavigation, resetNavigation } from '@/lib/navigation-store';
import { leafHandle, screenKey } from '@/lib/routes';

/**
 * What every navigation does once it has ended (SPEC §2): remember the route (and the one before),
 * and scroll to the top unless the screen stays the same: same path and params, or a route that
 * preserves the scroll position of its list (see `screenKey`).
 */
export function useNavigationEffects(): void {
  const location = useLocation();
  const matches = useMatches();
  const navigationType = useNavigationType();
  const routeName = leafHandle(matches)?.name ?? null;
  const key = screenKey(matches);
  const href = location.pathname + location.search + location.hash;

  useLayoutEffect(() => {
    recordNavigation(routeName, href);
  }, [routeName, href]);
  // The app is gone (a test's app, say): the next one starts without a past.
  useEffect(() => resetNavigation, []);

  useScrollBehaviour(location.key, key, navigationType, location.hash);
}

/** Scroll positions by history entry, so Back and Forward return to where the user was. */
function useScrollBehaviour(entry: string, screen: string, navigationType: string, hash: string): void {
  const positions = useRef(new Map<string, number>());
  const previous = useRef<{ entry: string; screen: string } | null>(null);

  useEffect(() => {
    const { scrollRestoration } = window.history;
    window.history.scrollRestoration = 'manual';
    return () => {
      window.history.scrollRestoration = scrollRestoration;
    };
  }, []);

  useEffect(() => {
    const save = () => positions.current.set(entry, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [entry]);

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = { entry, screen };
    if (!before || before.entry === entry || before.screen === screen) return;
    if (navigationType === 'POP') {
      window.scrollTo(0, positions.current.get(entry) ?? 0);
    } else if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
  }, [entry, screen, navigationType, hash]);
}
