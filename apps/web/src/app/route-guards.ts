import { type LoaderFunctionArgs, redirect } from 'react-router';
import { loginPath, safeNext } from '@/features/auth/login-flow';
import { hasSession, useAuthStore } from '@/lib/auth-store';

/** SIGNED_IN routes: a signed-out visitor signs in first and then comes back here. */
export function requireSignedIn({ request }: LoaderFunctionArgs): null {
  if (hasSession(useAuthStore.getState())) return null;
  const url = new URL(request.url);
  throw redirect(loginPath(url.pathname + url.search));
}

/** NOT_AUTHENTICATED routes: someone already signed in goes where they were headed. */
export function requireSignedOut({ request }: LoaderFunctionArgs): null {
  if (!hasSession(useAuthStore.getState())) return null;
  throw redirect(safeNext(new URL(request.url).searchParams.get('next')));
}
