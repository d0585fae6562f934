import type { LoaderFunctionArgs } from 'react-router';
import { hasSession, useAuthStore } from '@/lib/auth-store';

/**
 * A signed-out visitor at `/` sees the landing page rather than the sign-in: the loaders of the
 * signed-in shell and of the Dashboard let them through there (the shell shows the landing page
 * instead of itself, see layouts/signed-in-or-landing.tsx), and guard as before everywhere else.
 */
export const showsLanding = (pathname: string): boolean => pathname === '/' && !hasSession(useAuthStore.getState());

export const orLanding =
  (guard: (args: LoaderFunctionArgs) => null) =>
  (args: LoaderFunctionArgs): null =>
    showsLanding(new URL(args.request.url).pathname) ? null : guard(args);
